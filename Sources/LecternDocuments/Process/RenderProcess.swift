import CLecternLinux
import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The reader's side of the render worker process: takes the worker `lectern` forked at its
/// start (`RenderWorkerMain.forkAtStart`) or starts `lectern --render-worker` (the same binary,
/// exec'd: a fork of a process whose Swift runtime and threads are running is not safe to keep
/// running), asks it for tiles and page text over one channel per render thread, and starts it
/// again (exec'd) when it dies.
///
/// It is the document service's process transport (`DocumentTransport`, in
/// RenderProcess+Transport.swift): `ShownDocument` sends it requests. Thread safe: render
/// threads and the text caller send them, and block until the worker answers (never on the
/// main thread). The main thread runs the deadline
/// watchdog: it learns of requests through `eventDescriptor`/`takeEvents()` and calls
/// `expire(_:)` for one that overran; the worker is then killed, that page shows as undrawable,
/// and the other requests in flight are asked again of a new worker.
public final class RenderProcess: @unchecked Sendable {
    // Sendable: all mutable state is guarded by `lock`.
    /// How to start the worker.
    public struct Settings: Sendable {
        /// The `lectern` executable (by default this process's own).
        public var executable: String
        public var documentPath: String
        public var password: String?
        /// The page the worker interprets as soon as the document is open.
        public var startPage: Int
        /// Channels, one per render thread (a render waits for a free one).
        public var channels: Int
        /// The worker's RLIMIT_AS in bytes.
        public var addressSpace: Int
        /// Tests: milliseconds each render waits in the worker first (0: none).
        public var renderDelayMilliseconds = 0
        /// Tests: the page (0-based) whose render crashes the worker (-1: none).
        public var crashPage = -1
        /// Whether the worker installs its seccomp filter (a worker that saves a copy writes a
        /// file: it does not).
        public var isFiltered = true
        /// Edits the worker applies as it opens the document (a worker that saves a copy is
        /// given those the document's render worker applied).
        public var edits: [DocumentEdit] = []
        /// Whether the worker forked at this process's start may serve as the first worker
        /// (the executable is this process's own).
        var mayTakeForkedWorker: Bool { executable == "/proc/self/exe" && isFiltered }

        public init(
            executable: String, documentPath: String, password: String?, startPage: Int, channels: Int,
            addressSpace: Int
        ) {
            self.executable = executable
            self.documentPath = documentPath
            self.password = password
            self.startPage = startPage
            self.channels = channels
            self.addressSpace = addressSpace
        }
    }

    /// What the worker is doing, for `KioskStatus`.
    public struct Status: Equatable, Sendable {
        /// The running worker's pid (nil: none runs now).
        public var pid: Int32?
        /// Workers started after the first (after a crash or a deadline).
        public var restarts = 0
        /// Pages shown as "could not be drawn" (0-based): not asked for again.
        public var failedPages: [Int] = []
        /// Requests the worker is working on now.
        public var requestsInFlight = 0
        /// Tiles drawn (its restarts included).
        public var tilesDrawn = 0
    }

    /// The channels a reader asks for: one per render thread, and one for page text and search.
    public static var defaultChannels: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) + 1 }

    let settings: Settings
    let logger: Logger
    let lock = ConditionLock()
    var state = State()
    let events: EventFD

    struct State {
        var worker: Worker?
        var starts = 0
        var nextID: UInt64 = 1
        var inFlight: [UInt64: (page: Int, worker: Worker)] = [:]
        var started: [UInt64] = []
        var finished: [UInt64] = []
        var expired: Set<UInt64> = []
        /// The workers each page was in flight in when they died.
        var crashes: [Int: Set<ObjectIdentifier>] = [:]
        /// Pages in flight beside others when a worker died: any of them may be to blame, so
        /// each is asked again alone.
        var suspects: Set<Int> = []
        /// The suspect being asked alone now (nothing else is in flight meanwhile).
        var isolating: Int?
        /// Requests for suspects waiting their turn (others wait behind them).
        var waitingSuspects = 0
        var undrawable: Set<Int> = []
        var tilesDrawn = 0
        var stopped = false
        /// The edits applied so far, replayed to each new worker after it opens the document.
        var edits: [DocumentEdit] = []
    }

    /// The size of a channel's buffer for small tiles: a 256-px grid tile, previews and
    /// thumbnails up to 1 MiB of pixels. Bigger tiles get memory of their own.
    static let channelBufferSize = SharedTileBuffer.pixelOffset + (1 << 20)

    /// The document the worker draws.
    public var documentPath: String { settings.documentPath }

    public init(settings: Settings, logger: Logger) throws(SystemError) {
        self.settings = settings
        self.logger = logger
        state.edits = settings.edits
        events = try EventFD()
    }

    deinit { stop() }

    /// Readable when requests started or ended (`takeEvents()`), for the main loop to watch.
    public var eventDescriptor: Int32 { events.descriptor.rawValue }

    /// Starts the worker now, so it opens the document while the window comes up.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        _ = runningWorker()
    }

    /// Kills the worker (shutdown); requests after this fail.
    public func stop() {
        lock.lock()
        state.stopped = true
        let worker = state.worker
        state.worker = nil
        lock.unlock()
        worker?.kill()
    }

    public var status: Status {
        lock.lock()
        defer { lock.unlock() }
        return Status(
            pid: state.worker.flatMap { $0.isDead ? nil : $0.pid }, restarts: max(0, state.starts - 1),
            failedPages: state.undrawable.sorted(), requestsInFlight: state.inFlight.count, tilesDrawn: state.tilesDrawn
        )
    }

    /// The requests started and ended since the last call (the watchdog's timers). Main thread.
    public func takeEvents() -> (started: [UInt64], finished: [UInt64]) {
        events.drain()
        lock.lock()
        defer {
            state.started.removeAll()
            state.finished.removeAll()
            lock.unlock()
        }
        return (state.started, state.finished)
    }

    /// Request `id` overran its deadline: its page is not asked for again, and the worker is
    /// killed (the requests in flight with it are asked again of a new one). Main thread.
    public func expire(_ id: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        guard let request = state.inFlight[id] else { return }
        state.expired.insert(id)
        state.undrawable.insert(request.page)
        request.worker.overran = true
        logger.error("page \(request.page + 1) took longer than its deadline: stopping the render worker")
        Glibc.kill(request.worker.pid, SIGKILL)
    }

    // MARK: The process (under `lock`)

    /// The running worker, started if none runs. Nil when it cannot start or after `stop()`.
    func runningWorker() -> Worker? {
        if let worker = state.worker, !worker.isDead { return worker }
        guard !state.stopped else { return nil }
        do throws(SystemError) {
            let worker = try Worker(settings: settings, edits: state.edits, isFirst: state.starts == 0)
            state.worker = worker
            state.starts += 1
            let how = worker.wasForked ? " (forked at start)" : state.starts > 1 ? " (restart \(state.starts - 1))" : ""
            logger.info("render worker \(worker.pid) started\(how)")
            return worker
        } catch {
            logger.error("cannot start the render worker \(settings.executable): \(error)")
            return nil
        }
    }

    /// Waits (on `lock`, held) until a request about `page` may go to the worker: a suspect
    /// goes alone, once nothing else is in flight, and the others wait while one does or waits.
    /// False when `cookie` was cancelled meanwhile.
    func waitForTurn(_ page: Int, cookie: RenderCookie?) -> Bool {
        let isSuspect = state.suspects.contains(page)
        if isSuspect { state.waitingSuspects += 1 }
        defer { if isSuspect { state.waitingSuspects -= 1 } }
        while true {
            if cookie?.isCancelled == true { return false }
            if let isolating = state.isolating {
                if isolating == page { return true }
            } else if isSuspect {
                if state.inFlight.isEmpty {
                    state.isolating = page
                    return true
                }
            } else if state.waitingSuspects == 0 {
                return true
            }
            lock.wait()
        }
    }

    /// A request about `page` is done: if it was the suspect asked alone and nothing more of it
    /// is in flight, the others may go (`lock` held).
    func endTurn(_ page: Int) {
        guard state.isolating == page, !state.inFlight.values.contains(where: { $0.page == page }) else { return }
        state.isolating = nil
        lock.broadcast()
    }

    /// `worker` died (or was killed) while `page` and perhaps others were in flight. A page in
    /// flight alone is blamed (once per worker; blamed twice, it is undrawable); pages in flight
    /// together become suspects, each asked again alone, so a page that crashes the worker
    /// takes no innocent page down with it.
    func workerDied(_ worker: Worker, page: Int) {
        guard !worker.isDead else { return }
        let status = worker.kill()
        logger.error("render worker \(worker.pid) ended (\(Self.describe(status))) while drawing page \(page + 1)")
        // A worker killed for a deadline is the overrunning page's fault alone.
        guard !worker.overran else { return }
        let pages = Set([page] + state.inFlight.values.filter { $0.worker === worker }.map(\.page))
        guard pages.count == 1 else {
            state.suspects.formUnion(pages)
            logger.info("pages \(pages.sorted().map { $0 + 1 }) were drawn together: each is asked again alone")
            return
        }
        state.crashes[page, default: []].insert(ObjectIdentifier(worker))
        if state.crashes[page]!.count >= 2 {
            state.undrawable.insert(page)
            state.suspects.remove(page)
        }
    }

    static func describe(_ status: Int32) -> String {
        if status < 0 { return "status unknown" }
        if status & 0x7f == 0 { return "exit status \((status >> 8) & 0xff)" }
        return "signal \(status & 0x7f)"
    }
}

/// One channel to the worker: its socket, and its buffer for small tiles.
final class Channel: @unchecked Sendable {
    // Sendable: used by one render thread at a time (the worker hands it out under its lock).
    let socket: WorkerChannel
    var buffer: SharedTileBuffer?
    /// Whether the worker has this buffer's descriptor (sent with the first render using it).
    var bufferSent = false
    /// Channel 0 of a new worker: the answer to the open request comes first.
    var awaitsOpen = false

    init(socket: WorkerChannel) { self.socket = socket }
    deinit { socket.close() }
}

/// One started worker process and the reader's ends of its channels.
final class Worker: @unchecked Sendable {
    // Sendable: mutable state is guarded by the `RenderProcess` lock passed in.
    let pid: Int32
    private var free: [Channel]
    private(set) var isDead = false
    /// The document as the worker opened it, or why it did not open.
    var summary: DocumentSummary?
    var openError: PDFError?
    /// It was killed because a request overran its deadline.
    var overran = false
    /// It is the worker forked at this process's start (not exec'd).
    let wasForked: Bool
    /// Channel 0: the open request went there.
    let first: Channel

    /// The first worker interprets the start page as it opens; a restarted one does not (that
    /// page may be what crashed the last one).
    init(settings: RenderProcess.Settings, edits: [DocumentEdit], isFirst: Bool) throws(SystemError) {
        let channels = max(1, settings.channels)
        var ours: [Channel] = []
        if settings.mayTakeForkedWorker, let forked = ForkedWorker.take(channels: channels) {
            pid = forked.pid
            ours = forked.channels.map(Channel.init)
            wasForked = true
        } else {
            var theirs: [WorkerChannel] = []
            defer { for channel in theirs { channel.close() } }
            for _ in 0..<channels {
                let (reader, worker) = try WorkerChannel.pair()
                ours.append(Channel(socket: reader))
                theirs.append(worker)
            }
            let arguments = [settings.executable, RenderWorkerMain.option, String(ours.count)]
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { Glibc.free(pointer) } }
            let fds = theirs.map(\.descriptor)
            let pid = CLecternLinux_spawn(settings.executable, &argv, fds, Int32(fds.count))
            guard pid > 0 else { throw SystemError("posix_spawn") }
            self.pid = pid
            wasForked = false
        }
        // The password goes in a message, not on the command line (`ps` shows that).
        let limits = WorkerLimits(
            addressSpace: settings.addressSpace, renderDelayMilliseconds: settings.renderDelayMilliseconds,
            crashPage: settings.crashPage, isFiltered: settings.isFiltered)
        guard
            ours[0].socket.send(
                .open(
                    path: settings.documentPath, password: settings.password,
                    preparePage: isFirst ? settings.startPage : -1, edits: edits, limits: limits))
        else {
            _ = CLecternLinux_kill_and_reap(pid)
            throw SystemError("sendmsg")
        }
        ours[0].awaitsOpen = true
        first = ours[0]
        free = ours
    }

    /// Channel 0, the one the open answer comes on, once it is free (`lock` held).
    func takeFirstChannel(_ lock: ConditionLock) -> Channel {
        while !free.contains(where: { $0 === first }) { lock.wait() }
        free.removeAll { $0 === first }
        return first
    }

    /// A free channel, waiting for one (on `lock`, held) while all are in use.
    func takeChannel(_ lock: ConditionLock) -> Channel {
        while free.isEmpty { lock.wait() }
        return free.removeLast()
    }

    /// Gives `channel` back (`lock` held).
    func returnChannel(_ channel: Channel, _ lock: ConditionLock) {
        free.append(channel)
        lock.broadcast()
    }

    /// Kills the process and reaps it; returns its wait status.
    @discardableResult
    func kill() -> Int32 {
        isDead = true
        return CLecternLinux_kill_and_reap(pid)
    }
}
