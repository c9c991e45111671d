import LecternCore
import LecternLinux
import LecternPolicy
import Logging

/// What an operator of a fleet needs from each kiosk, built after the reader's parts and torn
/// down before them: the view kept across restarts (`ViewStateStore`) and the control socket
/// (`ControlSocket` carrying `ControlCommands`) and systemd's readiness and watchdog
/// (`SystemdNotifier`) and the metrics file (`KioskMetrics`) and each document's audit
/// (`DocumentAudits`), and for a benchmark the loop's
/// turns (`LoopTurnLog`).
///
/// It learns what happens from the hooks `KioskApp` wires: every input event, every commit and
/// the end of every loop iteration.
final class Operations {
    let loop: EventLoop
    /// The reader on screen.
    let current: CurrentReader
    /// The document on screen, and the way to show another (the control socket's `open`).
    let shown: any DocumentShowing
    let presenter: FramePresenter
    let reloader: DocumentReloader
    let store: ViewStateStore
    let commands: ControlCommands
    let notifier: SystemdNotifier?
    let metrics: KioskMetrics
    /// The audit of each document opened or reloaded.
    let audits: DocumentAudits
    /// Nil unless `LECTERN_LOG_LOOP_TURNS` is set.
    let turnLog: LoopTurnLog?
    /// Finds the kiosk's events for `KioskApp.events` and `lectern ctl events`.
    let eventSource: KioskEventSource
    private(set) var socket: ControlSocket?
    /// The page systemd was last told is on screen (nil: it was told something else since).
    private var statusShows: StatusShows?
    private struct StatusShows: Equatable {
        let page: Int
        let count: Int
        let path: String
    }
    private let logger: Logger
    private let variable: (String) -> String?

    init(
        statePath: String?, current: CurrentReader, shown: any DocumentShowing, policy: PolicyInForce,
        reloader: DocumentReloader,
        presenter: FramePresenter, focus: KeypadFocus, restored: KioskStatus.SavedViewRestore, idle: IdleReset,
        schedule: OpeningSchedule, screen: Screen, events: KioskEvents, variable: @escaping (String) -> String?,
        loop: EventLoop, logger: Logger
    ) throws(SystemError) {
        self.current = current
        self.shown = shown
        self.presenter = presenter
        self.reloader = reloader
        self.variable = variable
        self.loop = loop
        self.logger = logger
        store = ViewStateStore(
            path: statePath, restored: restored, current: current, policy: policy,
            loop: loop, logger: logger)
        audits = DocumentAudits(
            current: current, shown: shown, policy: policy, screen: screen,
            directory: statePath.map { Self.directory(of: $0) + "/prerendered" }, loop: loop, logger: logger)
        let socketPath = Self.socketPath(policy.controlSocket, variable: variable)
        commands = ControlCommands(
            current: current, shown: shown, reloader: reloader, policy: policy, presenter: presenter, focus: focus,
            idle: idle, schedule: schedule, audits: audits,
            defaultScreenshotDirectory: socketPath.map(Self.directory), loop: loop, logger: logger)
        notifier = SystemdNotifier(variable: variable, loop: loop, logger: logger)
        metrics = KioskMetrics(
            path: { [unowned policy] in policy.metricsTextfile }, current: current, shown: shown,
            reloader: reloader, idle: idle, schedule: schedule, audits: audits, loop: loop, logger: logger)
        turnLog = variable(LoopTurnLog.variable).map { _ in LoopTurnLog(loop: loop, logger: logger) }
        eventSource = KioskEventSource(
            events: events, restored: restored, current: current, shown: shown, idle: idle, loop: loop)
        listen(at: socketPath, group: policy.controlGroup)
        policy.observe { [unowned self] old, new in policyChanged(old: old, new: new) }
    }

    /// Where the control socket listens as `socket` says.
    static func socketPath(_ socket: ControlSocketLocation, variable: (String) -> String?) -> String? {
        switch socket {
        case .off: nil
        case .path(let path): path
        case .standard: variable("XDG_RUNTIME_DIR").map { $0 + "/lectern.sock" }
        }
    }

    private static func directory(of path: String) -> String {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    private func listen(at path: String?, group: String?) {
        socket?.close()
        socket = nil
        guard let path else {
            logger.info("no control socket (control.socket is off, or XDG_RUNTIME_DIR is not set)")
            return
        }
        do {
            let socket = try ControlSocket(path: path, group: group, loop: loop, logger: logger)
            socket.handle = { [unowned commands] request, reply in commands.handle(request, reply: reply) }
            // `lectern ctl events`: each event the client asked for, until it goes (or cannot keep up).
            socket.subscribe = { [unowned eventSource] names, send in
                let events = eventSource.events
                let token = events.observe(names) { _ = send($0.line()) }
                return { events.cancel(token) }
            }
            self.socket = socket
            logger.info("control socket \(path)")
        } catch {
            logger.error("no control socket: \(error)")
        }
    }

    // MARK: Hooks

    /// An input event arrived (before it is handled).
    func inputArrived(_ event: InputEvent) {
        commands.lastActivity = loop.clock.now
        metrics.inputArrived(event)
    }

    /// A new interaction controller: its components' actions are counted.
    func install(on controller: InteractionController) {
        metrics.install(on: controller)
        eventSource.install(on: controller)
    }

    /// The curtain was committed (closed): systemd hears the kiosk is ready, as after its first page.
    func curtainShown() {
        statusShows = nil
        notifier?.ready(status: "closed")
        notifier?.status("closed")
    }

    /// A frame was committed `latency` seconds after the change it shows: systemd hears that
    /// the reader is up (once) and what it shows.
    func frameCommitted(latency: Double) {
        metrics.frameCommitted(latency: latency, hasShownPage: presenter.hasShownPage)
        guard let notifier else { return }
        let status: String
        switch shown.phase {
        case .opening:
            return
        case .failed(let failure):
            statusShows = nil
            status = failure.description
        case .open:
            guard presenter.hasShownPage, let reader = current.reader else { return }
            // Said again only for another page (a pan commits 60 frames a second of the same one).
            let shows = StatusShows(
                page: reader.view.dominantPage(), count: reader.view.pages.count, path: reader.document.path)
            guard shows != statusShows else { return }
            statusShows = shows
            status = "page \(shows.page + 1) of \(shows.count): \(shows.path)"
        }
        notifier.ready(status: status)
        notifier.status(status)
    }

    /// The end of a loop iteration: the view may be saved, the metrics look at the parts.
    func afterIteration() {
        // The observers only look: the page on screen is the same for each of them.
        let page = DominantPage()
        store.viewMayHaveChanged(hasShownPage: presenter.hasShownPage, dominantPage: page)
        audits.afterIteration(hasShownPage: presenter.hasShownPage)
        metrics.afterIteration(dominantPage: page)
        eventSource.afterIteration(hasShownPage: presenter.hasShownPage, dominantPage: page)
    }

    /// A new policy applies: the control socket moves if its path or group changed.
    private func policyChanged(old: KioskConfiguration, new: KioskConfiguration) {
        if old.controlSocket != new.controlSocket || old.controlGroup != new.controlGroup {
            listen(at: Self.socketPath(new.controlSocket, variable: variable), group: new.controlGroup)
        }
    }

    /// Whether the view or the metrics file is being written.
    var isBusy: Bool { store.isBusy || metrics.isBusy }

    /// Tears down in reverse: systemd hears `STOPPING=1`, the socket closes, the view and the
    /// metrics are written a last time.
    func close() {
        notifier?.close()
        socket?.close()
        socket = nil
        commands.close()
        store.close(hasShownPage: presenter.hasShownPage)
        metrics.close()
        audits.close()
        turnLog?.close()
    }
}

/// A reader's dominant page, worked out once however often it is asked: the observers at the
/// end of a turn all look at the same view, and each asked for it (a pan turns the loop 120
/// times a second). A new one for each look.
final class DominantPage {
    private var known: (reader: ObjectIdentifier, page: Int)?

    func of(_ reader: Reader) -> Int {
        let id = ObjectIdentifier(reader)
        if let known, known.reader == id { return known.page }
        let page = reader.view.dominantPage()
        known = (id, page)
        return page
    }
}
