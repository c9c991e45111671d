import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import LecternWayland
import Logging

/// Pages that turn by themselves while nobody is there: `attract.after` seconds after the idle
/// reset, the reader moves to the next page, and on after each page has shown for its /Dur
/// (else `attract.interval`), wrapping round at the end. Each page comes on with its /Trans
/// where Lectern draws it (fade, dissolve, push, cover, uncover, wipe; other effects cut),
/// else with `attract.transition`. Between two advances nothing is drawn: a timer waits.
///
/// A page's /Dur and /Trans are read on a worker (MuPDF), the next page's while the current
/// one shows. Any input stops the loop; the app then goes to the home view without acting on
/// that input (`KioskApp` wires it). With a shelf the home view is the shelf and there is no
/// attract loop.
final class AttractLoop {
    struct Presentation: Sendable {
        var page: Int
        var keys: PagePresentation
        var generation: Int
    }

    let loop: EventLoop
    /// The reader on screen, whose pages advance.
    let current: CurrentReader
    /// The policy in force.
    let policy: PolicyInForce
    let transitions: TransitionPlayer
    private let logger: Logger
    private let worker: BackgroundWork
    private var timer: EventLoop.Timer?
    /// Bumped when the loop stops: presentations read for an earlier run are dropped.
    private var generation = 0
    /// The page the loop shows now.
    private var page = 0
    /// Presentation keys read for this run (the next page's, ahead of its turn).
    private var presentations: [Int: PagePresentation] = [:]
    /// The page to advance to as soon as its keys arrive.
    private var waitingFor: Int?
    /// Pages turn by themselves.
    private(set) var isRunning = false
    /// Asked for when the page on screen changed.
    let frame: FrameRequest
    /// Advances made since the app started (for tests and logs).
    private(set) var advances = 0

    init(
        current: CurrentReader, policy: PolicyInForce, transitions: TransitionPlayer, frame: FrameRequest,
        loop: EventLoop, logger: Logger
    ) {
        self.current = current
        self.frame = frame
        self.policy = policy
        self.transitions = transitions
        self.loop = loop
        self.logger = logger
        worker = BackgroundWork(label: "lectern.presentation", qos: .userInitiated, loop: loop)
    }

    /// Stops the loop and its worker's deliveries (shutdown).
    func close() {
        _ = stop()
        worker.abandon()
    }

    /// Whether keys are being read.
    var isBusy: Bool { worker.isBusy }

    /// When the next page comes (nil: the loop does not wait for one).
    var deadline: Double? { timer?.isScheduled == true ? timer?.deadline : nil }

    /// The idle reset happened: the loop starts after the policy's further wait (if any).
    func idleReset() {
        _ = stop()
        let after = policy.attractAfterSeconds
        guard after > 0, !policy.hasShelf, current.reader != nil else { return }
        timer = loop.schedule(after: Double(after)) { [unowned self] in start() }
    }

    /// Stops the loop (or its wait); returns whether pages were turning by themselves.
    func stop() -> Bool {
        timer?.cancel()
        timer = nil
        generation += 1
        presentations = [:]
        waitingFor = nil
        transitions.cancel()
        defer { isRunning = false }
        if isRunning { logger.info("attract loop stopped") }
        return isRunning
    }

    private func start() {
        guard let reader = current.reader else { return }
        isRunning = true
        page = reader.view.dominantPage()
        logger.info("nobody for \(policy.attractAfterSeconds) s more: attract loop starts")
        advanceWhenRead(next(after: page))
    }

    private func next(after page: Int) -> Int {
        let count = current.reader?.view.pages.count ?? 1
        return page + 1 < count ? page + 1 : 0
    }

    /// Asks the worker for `page`'s /Dur and /Trans.
    private func read(_ page: Int) {
        guard let document = current.reader?.document, presentations[page] == nil else { return }
        let generation = generation
        worker.submit {
            Presentation(page: page, keys: (try? document.presentation(page: page)) ?? .init(), generation: generation)
        } then: { [unowned self] in
            received($0)
        }
    }

    private func received(_ result: Presentation) {
        guard result.generation == generation, isRunning else { return }
        presentations[result.page] = result.keys
        if waitingFor == result.page { advance(to: result.page) }
    }

    private func advanceWhenRead(_ page: Int) {
        if presentations[page] != nil {
            advance(to: page)
        } else {
            waitingFor = page
            read(page)
        }
    }

    /// Shows `target` with its transition, reads the following page's keys, and waits for
    /// `target`'s time.
    private func advance(to target: Int) {
        waitingFor = nil
        guard let reader = current.reader, target < reader.view.pages.count else { return }
        let keys = presentations[target] ?? .init()
        // A page's own /Trans wins (a cut when Lectern does not draw its effect).
        let effect = keys.transition ?? policy.attractTransition
        transitions.begin(effect)
        reader.view.stopAnimations()
        try? reader.view.goToPage(target)
        page = target
        advances += 1
        presentations = presentations.filter { $0.key == target }
        let showFor = keys.duration ?? policy.attractPageSeconds
        logger.debug("attract: page \(target + 1) for \(showFor) s (\(effect.style))")
        read(next(after: target))
        let drawn = Scene.Transition.draws(effect.style) ? effect.duration : 0
        timer = loop.schedule(after: drawn + showFor) { [unowned self] in
            timer = nil
            advanceWhenRead(next(after: page))
        }
        frame.request()
    }
}
