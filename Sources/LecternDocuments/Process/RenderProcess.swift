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
/// It is the document service's process transport (`DocumentTransport`): `ShownDocument` sends
/// it requests. Thread safe: render threads and the text caller send them, and block until the
/// worker answers (never on the main thread). A request's whole way (the worker started, a
/// turn and a channel taken, the answer read, a dead worker's requests asked again, the page
/// to blame) is in RenderProcess+Transport.swift, with the `Worker` and its channels; here are
/// the settings, the state, the status, saves, and the deadline watchdog's side on the main
/// thread: it learns of requests through `eventDescriptor`/`takeEvents()` and calls
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
        /// How much nicer than the reader the worker runs (an audit's worker: 10).
        public var niceness = 0
        /// Edits the worker applies as it opens the document (a worker that saves a copy is
        /// given those the document's render worker applied).
        public var edits: [DocumentEdit] = []
        /// Whether the worker forked at this process's start may serve as the first worker
        /// (the executable is this process's own).
        var mayTakeForkedWorker: Bool { executable == "/proc/self/exe" && isFiltered && niceness == 0 }

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

    /// The size of a channel's buffer for small tiles: a batch of 256-px grid tiles, previews
    /// and thumbnails up to 1 MiB of pixels. Bigger tiles get memory of their own.
    static let channelBufferSize = TileBatch.maximumBytes

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

    /// Every request in flight overran its deadline (`expire(_:)` for each): an audit's deadline,
    /// kept by the auditor rather than the loop. Any thread.
    public func expireInFlight() {
        lock.lock()
        let ids = Array(state.inFlight.keys)
        lock.unlock()
        for id in ids { expire(id) }
    }

    /// Asks a worker of its own to write: the file opened again, the edits applied again, and
    /// the request answered there (the render worker's seccomp filter forbids writing files, so
    /// that worker runs without it; it ends with the request). Any thread but the main one.
    public func exchangeWriting<Value>(_ request: [UInt8], read: ([UInt8]) -> Value) -> Exchange<Value> {
        var saving = settings
        lock.lock()
        saving.edits = state.edits
        lock.unlock()
        saving.isFiltered = false
        saving.channels = 1
        saving.startPage = -1
        do throws(SystemError) {
            let saver = try RenderProcess(settings: saving, logger: logger)
            defer { saver.stop() }
            return saver.exchange(request, page: -1, cookie: nil, memory: .none) { answer, _ in read(answer) }
        } catch {
            return .failed("cannot start a worker to save: \(error)")
        }
    }

    public func applied(_ edit: DocumentEdit) {
        lock.lock()
        // Only the last layout counts: a new worker lays the book out once.
        if case .layout = edit { state.edits.removeAll { if case .layout = $0 { true } else { false } } }
        state.edits.append(edit)
        lock.unlock()
    }
}
