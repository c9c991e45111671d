import LecternCore
import LecternLinux
import LecternPolicy
import Logging

/// Back to where a new visitor should start when nobody has used the reader for a while:
/// the start page, zoomed out, the chrome as the policy has it, nothing typed, every
/// accessibility setting back to the operator's default. Before that, a notice counts the last
/// seconds down ("Returning to the start in 20 s — touch to stay", at least 20 s by default:
/// WCAG 2.2.1) with a "More time" button; any input takes it away and starts the wait over, and
/// "More time" puts the kiosk in accessibility mode, where the wait is `accessibility.idle-factor`
/// times as long.
///
/// The countdown starts over with every input event and when an animation or fling plays
/// out, and does not run out while a visitor is still touching the screen, holding a button,
/// in the middle of a gesture or the page moves (`InputRouter.isInteracting`): it waits a
/// whole period more then, and starts over at the lift, release or last frame.
final class IdleReset {
    let loop: EventLoop
    /// The reader on screen, which goes back to the start page.
    let current: CurrentReader
    /// The policy in force.
    let policy: PolicyInForce
    let chrome: Chrome
    let input: InputRouter
    /// What the visitor chose to read more easily: in use, the wait is longer; the reset clears it.
    let accessibility: VisitorAccessibility
    private let logger: Logger
    /// Set for `deadline` or earlier: an input moves the deadline later and leaves the timers as
    /// they are (a pan sends 60 inputs a second); one that fires early is set again for it.
    private var timer: EventLoop.Timer?
    /// The notice's next second (it shows from `noticeStart`, `noticeSeconds` before the reset).
    private var noticeTimer: EventLoop.Timer?
    /// When the notice starts counting down (nil: no notice before this reset).
    private var noticeStart: Double?
    /// When the countdown runs out, on the loop's clock (nil: it is not running).
    private(set) var deadline: Double?
    /// The notice is on screen.
    private(set) var isCountingDown = false
    /// Resets so far (the wait ran out, or the control socket's `reset`), for the metrics.
    private(set) var resets = 0
    /// Called after the reset (the attract loop may start its wait).
    var onReset: (() -> Void)?
    /// Told the countdown's text when it appears and every 5 s after (speech says it, when on).
    var onCountdown: ((String) -> Void)?
    /// Asked for a sound when the countdown starts (`idle.cue`).
    var onCue: (() -> Void)?
    /// Whether a sentence is being spoken: the reset waits for it to end (at most 30 s more).
    var isSpeaking: (() -> Bool)?
    /// Seconds the reset has waited for speech so far.
    private var waitedForSpeech = 0
    /// Asked for when what is on screen changed (the start page, zoomed out).
    let frame: FrameRequest

    init(
        loop: EventLoop, frame: FrameRequest, current: CurrentReader, policy: PolicyInForce, chrome: Chrome,
        input: InputRouter, accessibility: VisitorAccessibility, logger: Logger
    ) {
        self.accessibility = accessibility
        self.loop = loop
        self.frame = frame
        self.current = current
        self.policy = policy
        self.chrome = chrome
        self.input = input
        self.logger = logger
        // New idle times count from now.
        policy.observe { [unowned self] old, new in
            if new.idleResetSeconds != old.idleResetSeconds
                || new.idleCountdownSeconds != old.idleCountdownSeconds
                || new.accessibilityIdleFactor != old.accessibilityIdleFactor
            {
                restart()
            }
        }
    }

    /// Seconds of idleness before the reset (0: never), as the policy in force says, times its
    /// factor in accessibility mode.
    private var seconds: Double {
        Double(policy.idleResetSeconds) * (accessibility.isInUse ? Double(policy.accessibilityIdleFactor) : 1)
    }

    /// How long the notice shows before the reset: the policy's countdown, but leaving at least
    /// 10 s (or half a short idle time) without it after a touch (else it would show after every
    /// touch).
    private var noticeSeconds: Double { noticeSeconds(before: seconds) }

    private func noticeSeconds(before seconds: Double) -> Double {
        min(Double(policy.idleCountdownSeconds), max(seconds / 2, seconds - 10).rounded(.down))
    }

    /// The visitor asked for more time (the notice's button): accessibility mode until the reset,
    /// the wait starting over, longer.
    func grantMoreTime() {
        accessibility.grantMoreTime()
        logger.info("a visitor asked for more time: the idle reset waits \(Int(seconds)) s")
        restart()
    }

    /// Starts the countdown over (0 seconds: never reset), taking the notice away; returns
    /// whether the notice was on screen.
    @discardableResult
    func restart() -> Bool {
        waitedForSpeech = 0
        let wasCountingDown = isCountingDown
        if isCountingDown {
            isCountingDown = false
            chrome.clearNotice()
        }
        // Worked out once: every input event comes here (the policy's settings are read each time).
        let seconds = seconds
        guard seconds > 0 else {
            cancel()
            return wasCountingDown
        }
        let deadline = loop.clock.now + seconds
        self.deadline = deadline
        if !Self.isSet(timer, notAfter: deadline) {
            timer?.cancel()
            timer = loop.schedule(at: deadline) { [unowned self] in expired() }
        }
        let noticeSeconds = noticeSeconds(before: seconds)
        noticeStart = noticeSeconds >= 1 ? deadline - noticeSeconds : nil
        if let noticeStart {
            if !Self.isSet(noticeTimer, notAfter: noticeStart) { scheduleNotice(at: noticeStart) }
        } else {
            noticeTimer?.cancel()
            noticeTimer = nil
        }
        return wasCountingDown
    }

    /// Whether `timer` is still to fire, at `time` or before.
    private static func isSet(_ timer: EventLoop.Timer?, notAfter time: Double) -> Bool {
        guard let timer, timer.isScheduled else { return false }
        return timer.deadline <= time
    }

    /// The notice's timer at `time`: the countdown's next second, or, if the deadline moved
    /// since it was set, set again for when the notice starts now.
    private func scheduleNotice(at time: Double) {
        noticeTimer?.cancel()
        noticeTimer = loop.schedule(at: time) { [unowned self] in
            noticeTimer = nil
            guard let deadline, let noticeStart else { return }
            if loop.clock.now < noticeStart {
                scheduleNotice(at: noticeStart)
            } else {
                countDown(to: deadline)
            }
        }
    }

    /// Stops the countdown (shutdown).
    func cancel() {
        timer?.cancel()
        noticeTimer?.cancel()
        timer = nil
        noticeTimer = nil
        deadline = nil
        noticeStart = nil
    }

    /// Shows the seconds left, and comes back each second.
    private func countDown(to deadline: Double) {
        guard !input.isInteracting, current.reader != nil else { return }
        let left = Int((deadline - loop.clock.now).rounded(.up))
        guard left >= 1 else { return }
        isCountingDown = true
        // The operator's own words stay as written; the default is said in the chrome's language.
        let text =
            policy.idleNotice == PolicySettings.standard.idleNotice.defaultValue
            ? tr("Returning to the start in %s s — touch to stay", left)
            : policy.idleNotice.replacing("{seconds}", with: String(left))
        chrome.showNotice(text, seconds: Double(left) + 1, action: tr("More time"), isSaid: false)
        if left == Int(noticeSeconds) || left % 5 == 0 { onCountdown?(text) }
        if left == Int(noticeSeconds), policy.idleCue { onCue?() }
        scheduleNotice(at: deadline - Double(left - 1))
    }

    private func expired() {
        timer = nil
        guard let due = deadline else { return }
        // An input moved the deadline since the timer was set.
        if loop.clock.now < due {
            timer = loop.schedule(at: due) { [unowned self] in expired() }
            return
        }
        if input.isInteracting {
            restart()
            return
        }
        // A sentence being spoken is not cut: the reset comes when it ends.
        if isSpeaking?() == true, waitedForSpeech < 30 {
            waitedForSpeech += 1
            let next = loop.clock.now + 1
            deadline = next
            timer = loop.schedule(at: next) { [unowned self] in expired() }
            return
        }
        waitedForSpeech = 0
        let home = policy.hasShelf ? "the shelf" : "page \(policy.startPage + 1)"
        logger.info("no input for \(Int(seconds)) s: back to \(home)")
        reset()
    }

    /// Goes back to the start view now (the wait ran out, or the control socket's `reset`), and
    /// then to the shelf if there is one (`onReset`).
    func reset() {
        timer?.cancel()
        timer = nil
        deadline = nil
        resets += 1
        goHome()
        onReset?()
    }

    /// Back to the start page zoomed out, the chrome as the policy has it, nothing typed, no
    /// notice (also when a touch stops the attract loop).
    func goHome() {
        noticeTimer?.cancel()
        noticeTimer = nil
        noticeStart = nil
        isCountingDown = false
        chrome.clearNotice()
        chrome.reset()
        chrome.language.reset()
        accessibility.reset()
        input.resetInteractions()
        if let reader = current.reader {
            reader.view.stopAnimations()
            try? reader.view.goToPage(min(policy.startPage, reader.view.pages.count - 1))
        }
        frame.request()
    }
}
