import LecternCore
import LecternLinux
import LecternPolicy
import Logging

/// What the kiosk does outside its opening hours (`OpeningSchedule`): at closing, the visitor's
/// view is reset (the idle reset, at once), the attract loop and the idle countdown stop, and
/// the window shows the curtain: black, nothing drawn, no frames, no tiles. No input is acted
/// on, except that with `hours.wake = "touch"` a touch, click or key lifts the curtain until
/// the idle reset's time passes without input. At opening, the curtain lifts on the range's
/// show (its document opened behind the curtain) and the idle countdown starts.
final class ClosedKiosk {
    let schedule: OpeningSchedule
    let presenter: FramePresenter
    let idle: IdleReset
    let home: Home
    let policy: PolicyInForce
    let loop: EventLoop
    private let logger: Logger
    private var awakeTimer: EventLoop.Timer?
    /// A touch lifted the curtain while closed (`hours.wake`).
    private(set) var isAwake = false
    /// Input events not acted on because the kiosk was closed.
    private(set) var ignoredInput = 0
    /// The backlight's last problem, logged once.
    private var backlightProblem: String?

    init(
        schedule: OpeningSchedule, presenter: FramePresenter, idle: IdleReset, home: Home, policy: PolicyInForce,
        loop: EventLoop, logger: Logger
    ) {
        self.schedule = schedule
        self.presenter = presenter
        self.idle = idle
        self.home = home
        self.policy = policy
        self.loop = loop
        self.logger = logger
        schedule.onChange = { [unowned self] _, new in
            new.isOpen ? opened() : closed()
        }
        if schedule.isClosed { closed() } else if policy.hoursBacklight != nil { setCurtain(down: false) }
    }

    /// The curtain is down: closed, and not woken.
    var isCurtainDown: Bool { schedule.isClosed && !isAwake }

    /// Whether `event` stops here (the kiosk is closed); a touch that wakes it stops here too.
    func swallows(_ event: InputEvent) -> Bool {
        guard schedule.isClosed else { return false }
        if isAwake {
            stayAwake()
            return false
        }
        ignoredInput += 1
        guard policy.hoursWake == .touch, event.startsAction else { return true }
        logger.info("woken while closed: the curtain lifts until nobody has touched it for a while")
        isAwake = true
        stayAwake()
        idle.restart()
        setCurtain(down: false)
        return true
    }

    /// The opening hours' part of `KioskApp.status`.
    func report(into status: inout KioskStatus) {
        status.hours.isOpen = !schedule.isClosed
        status.hours.show = schedule.show
        status.hours.isCurtainDown = presenter.isCurtainDown
        status.hours.isAwake = isAwake
        status.hours.nextChange = schedule.nextChange.map { "\($0.local)" }
        status.hours.nextChangeInstant = schedule.nextChange?.instant
        status.hours.ignoredInput = ignoredInput
    }

    /// Stops the wake's timer (shutdown).
    func close() {
        awakeTimer?.cancel()
        awakeTimer = nil
    }

    private func closed() {
        isAwake = false
        awakeTimer?.cancel()
        awakeTimer = nil
        // The next visitor starts fresh: the reset (the shelf, the start page, the operator's
        // accessibility defaults), then nothing that runs by itself.
        idle.reset()
        _ = home.attract.stop()
        idle.cancel()
        setCurtain(down: true)
    }

    private func opened() {
        isAwake = false
        awakeTimer?.cancel()
        awakeTimer = nil
        setCurtain(down: false)
        idle.restart()
    }

    /// The curtain and, where the policy names one, the backlight (`hours.backlight`).
    private func setCurtain(down: Bool) {
        presenter.isClosed = down
        guard let setting = policy.hoursBacklight else { return }
        guard let backlight = Backlight.named(setting) else {
            return logOnce("hours.backlight = \"auto\": no backlight in \(Backlight.classDirectory)")
        }
        do {
            try backlight.setPower(on: !down)
            backlightProblem = nil
            logger.info("backlight \(backlight.directory) \(down ? "off" : "on")")
        } catch {
            logOnce("cannot turn the backlight \(down ? "off" : "on"): \(error)")
        }
    }

    /// Logs a backlight's problem once (not again until it changes or the backlight works).
    private func logOnce(_ problem: String) {
        guard problem != backlightProblem else { return }
        backlightProblem = problem
        logger.warning("\(problem) (kiosk/71-lectern-backlight.rules gives the kiosk user the right)")
    }

    /// Keeps the curtain up for the idle reset's time (a minute if it never resets) after this input.
    private func stayAwake() {
        awakeTimer?.cancel()
        let seconds = policy.idleResetSeconds > 0 ? Double(policy.idleResetSeconds) : 60
        awakeTimer = loop.schedule(after: seconds) { [unowned self] in
            logger.info("nobody for \(Int(seconds)) s while closed: the curtain falls again")
            closed()
        }
    }
}
