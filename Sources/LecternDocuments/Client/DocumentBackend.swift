import LecternCore
import LecternLinux
import LecternPDF
import Logging
import SystemPackage

/// Where the session's documents are opened, drawn and read: the document service, its server
/// in render worker processes with a deadline per request on the loop's timers (the reader
/// never opens a document itself), or in this process (`init(inProcessOn:logger:)`: the direct
/// transport). The first worker is started at start-up (while the display connects) for the
/// configured document; each other document the reader shows (a new version the live reload
/// brings in, another one opened over the control socket) gets a worker of its own, stopped
/// when the document is released or gone. Main thread.
public final class DocumentBackend {
    /// One worker process, and what claims it.
    private final class ClaimedProcess {
        let process: RenderProcess
        /// The document it opens or draws (its opener, then the document, holds the claim):
        /// nil before the document was asked for (the first worker starts before that), and
        /// again once the document is gone.
        weak var claim: WorkerClaim?
        var isClaimed = false
        var watch: EventLoop.Watch?
        var timers: [UInt64: EventLoop.Timer] = [:]

        init(process: RenderProcess) { self.process = process }

        func close() {
            watch?.cancel()
            for timer in timers.values { timer.cancel() }
            timers.removeAll()
            process.stop()
        }
    }

    private var workers: [ClaimedProcess] = []
    /// How each worker starts (its document's path, password and first page replaced); nil:
    /// documents are served in this process.
    private let settings: RenderProcess.Settings?
    private let loop: EventLoop
    private let deadline: Double
    private let logger: Logger

    /// Serves documents in worker processes started with `settings` (the first one for its
    /// document, started now unless `startsWorker` is false: then at its first request), each
    /// request given `deadline` seconds.
    public init(
        settings: RenderProcess.Settings, deadline: Double, startsWorker: Bool = true, loop: EventLoop, logger: Logger
    ) throws(SystemError) {
        self.settings = settings
        self.loop = loop
        self.logger = logger
        self.deadline = deadline
        workers = [try start(settings, now: startsWorker)]
    }

    /// Serves documents in this process.
    public init(inProcessOn loop: EventLoop, logger: Logger) {
        settings = nil
        self.loop = loop
        self.logger = logger
        deadline = 0
    }

    private func start(_ settings: RenderProcess.Settings, now: Bool = true) throws(SystemError) -> ClaimedProcess {
        let worker = ClaimedProcess(process: try RenderProcess(settings: settings, logger: logger))
        worker.watch = loop.watch(FileDescriptor(rawValue: worker.process.eventDescriptor)) {
            [unowned self, unowned worker] in watchdog(worker)
        }
        if now { worker.process.start() }
        return worker
    }

    /// Arms a deadline for each request that started, disarms it for each that ended.
    private func watchdog(_ worker: ClaimedProcess) {
        let (started, finished) = worker.process.takeEvents()
        for id in started {
            worker.timers[id] = loop.schedule(after: deadline) { [unowned worker] in
                worker.timers[id] = nil
                worker.process.expire(id)
            }
        }
        for id in finished { worker.timers.removeValue(forKey: id)?.cancel() }
    }

    /// What opens `path` (run off the main thread: it waits until the document is open) and
    /// returns it, or why it cannot be shown; `startPage` is the page shown first. With workers:
    /// the worker started for `path` and not yet claimed (the one started at start-up), or a new
    /// one; when no worker can start, the document is served in process.
    public func opener(
        path: String, password: String?, startPage: Int
    ) -> @Sendable () throws(PDFError) -> ShownDocument {
        // The workers of documents no longer shown (or that did not open).
        stopWorkers { $0.isClaimed && $0.claim == nil }
        let direct: @Sendable () throws(PDFError) -> ShownDocument = { [logger] () throws(PDFError) in
            try ShownDocument.open(
                DirectTransport(documentPath: path, password: password, startPage: startPage, logger: logger))
        }
        guard var settings else { return direct }
        let worker: ClaimedProcess
        if let waiting = workers.first(where: { !$0.isClaimed && $0.process.documentPath == path }) {
            worker = waiting
        } else {
            settings.documentPath = path
            settings.password = password
            settings.startPage = startPage
            do {
                worker = try start(settings)
            } catch {
                logger.error("cannot start a render worker for \(path), opening it in process: \(error)")
                return direct
            }
            workers.append(worker)
        }
        let claim = WorkerClaim(), process = worker.process
        worker.claim = claim
        worker.isClaimed = true
        return { () throws(PDFError) in try ShownDocument.open(process, claim: claim) }
    }

    /// `document` is no longer shown (a new version replaced it, or it was refused): its worker
    /// stops. Main thread.
    public func release(_ document: ShownDocument) {
        stopWorkers { $0.process === document.transport }
    }

    private func stopWorkers(where stops: (ClaimedProcess) -> Bool) {
        for worker in workers where stops(worker) { worker.close() }
        workers.removeAll(where: stops)
    }

    /// The state of the worker started last whose document is still open or on its way (the
    /// shown one's, or a new version's); nil when documents are served in process.
    public var workerStatus: RenderProcess.Status? {
        workers.last { !$0.isClaimed || $0.claim != nil }?.process.status
    }

    /// Stops the workers (shutdown).
    public func close() { stopWorkers { _ in true } }
}

/// What keeps a render worker's document claimed: the document holds it (the opener, until the
/// document opens), the backend only a weak reference.
final class WorkerClaim: Sendable {}
