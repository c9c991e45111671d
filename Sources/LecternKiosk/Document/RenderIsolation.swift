import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternPolicy
import LecternRender
import LecternRenderProcess
import LecternWayland
import Logging
import SystemPackage

/// Where the session's documents are opened, drawn and read: a protocol so the reader's call
/// sites do not care.
protocol DocumentBackend: AnyObject {
    /// What opens `path` (run off the main thread: it waits until the document is open) and
    /// returns it, or why it cannot be shown; `startPage` is the page shown first. Main thread.
    func opener(path: String, password: String?, startPage: Int) -> @Sendable () throws(PDFError) -> any ShownDocument
    /// `document` is no longer shown (a new version replaced it, or it was refused): what draws
    /// it can stop. Main thread.
    func release(_ document: any ShownDocument)
    /// The render worker's state (nil: rendering is in process).
    var workerStatus: RenderProcess.Status? { get }
    /// Stops the worker (shutdown).
    func close()
}

/// MuPDF in this process: the reader opens the document itself.
final class InProcessBackend: DocumentBackend {
    func opener(path: String, password: String?, startPage: Int) -> @Sendable () throws(PDFError) -> any ShownDocument {
        { () throws(PDFError) in try PDFDocument(path: path, password: password) }
    }

    func release(_ document: any ShownDocument) {}
    var workerStatus: RenderProcess.Status? { nil }
    func close() {}
}

/// MuPDF in render worker processes, with a deadline per request on the loop's timers: the
/// reader never opens a document itself. The first worker is started at start-up (while the
/// display connects) for the configured document; each other document the reader shows (a
/// new version the live reload brings in, another one opened over the control socket) gets a
/// worker of its own, stopped when the document is released or gone. Main thread.
final class WorkerBackend: DocumentBackend {
    /// One worker process, and what claims it.
    private final class Worker {
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

    private var workers: [Worker] = []
    /// How each worker starts (its document's path, password and first page replaced).
    private let settings: RenderProcess.Settings
    private let loop: EventLoop
    private let deadline: Double
    private let logger: Logger

    init(configuration: KioskConfiguration, loop: EventLoop, logger: Logger) throws(SystemError) {
        let policy = configuration.renderProcess
        var settings = RenderProcess.Settings(
            executable: policy.executable ?? "/proc/self/exe", documentPath: configuration.documentPath,
            password: configuration.password, startPage: configuration.startPage,
            channels: RenderProcess.defaultChannels, addressSpace: policy.addressSpace)
        settings.renderDelayMilliseconds = policy.renderDelayMilliseconds
        settings.crashPage = policy.crashPage
        self.settings = settings
        self.loop = loop
        self.logger = logger
        deadline = policy.deadline
        workers = [try start(settings)]
    }

    private func start(_ settings: RenderProcess.Settings) throws(SystemError) -> Worker {
        let worker = Worker(process: try RenderProcess(settings: settings, logger: logger))
        worker.watch = loop.watch(FileDescriptor(rawValue: worker.process.eventDescriptor)) {
            [unowned self, unowned worker] in watchdog(worker)
        }
        worker.process.start()
        return worker
    }

    /// Arms a deadline for each request that started, disarms it for each that ended.
    private func watchdog(_ worker: Worker) {
        let (started, finished) = worker.process.takeEvents()
        for id in started {
            worker.timers[id] = loop.schedule(after: deadline) { [unowned worker] in
                worker.timers[id] = nil
                worker.process.expire(id)
            }
        }
        for id in finished { worker.timers.removeValue(forKey: id)?.cancel() }
    }

    /// The worker started for `path` and not yet claimed (the one started at start-up), or a
    /// new one; the opener waits for it to open the file. When no worker can start, the
    /// document is opened and drawn in process.
    func opener(path: String, password: String?, startPage: Int) -> @Sendable () throws(PDFError) -> any ShownDocument {
        // The workers of documents no longer shown (or that did not open).
        stopWorkers { $0.isClaimed && $0.claim == nil }
        let worker: Worker
        if let waiting = workers.first(where: { !$0.isClaimed && $0.process.documentPath == path }) {
            worker = waiting
        } else {
            var settings = settings
            settings.documentPath = path
            settings.password = password
            settings.startPage = startPage
            do {
                worker = try start(settings)
            } catch {
                logger.error("cannot start a render worker for \(path), opening it in process: \(error)")
                return InProcessBackend().opener(path: path, password: password, startPage: startPage)
            }
            workers.append(worker)
        }
        let claim = WorkerClaim(), process = worker.process
        worker.claim = claim
        worker.isClaimed = true
        return { () throws(PDFError) in
            let summary = try process.awaitOpen().get()
            return WorkerDocument(process: process, summary: summary, claim: claim)
        }
    }

    func release(_ document: any ShownDocument) {
        guard let document = document as? WorkerDocument else { return }
        stopWorkers { $0.process === document.process }
    }

    private func stopWorkers(where stops: (Worker) -> Bool) {
        for worker in workers where stops(worker) { worker.close() }
        workers.removeAll(where: stops)
    }

    /// The state of the worker started last whose document is still open or on its way (the
    /// shown one's, or a new version's).
    var workerStatus: RenderProcess.Status? {
        workers.last { !$0.isClaimed || $0.claim != nil }?.process.status
    }

    func close() { stopWorkers { _ in true } }
}

/// The backend `configuration` asks for. Without the worker process, the worker `lectern`
/// forked at its start (if it did) is let go.
func makeDocumentBackend(_ configuration: KioskConfiguration, loop: EventLoop, logger: Logger) -> any DocumentBackend {
    guard configuration.renderProcess.isEnabled else {
        RenderWorkerMain.discardForkedWorker()
        return InProcessBackend()
    }
    do {
        return try WorkerBackend(configuration: configuration, loop: loop, logger: logger)
    } catch {
        // A reader without its worker still shows the document.
        logger.error("cannot start the render worker, drawing in process: \(error)")
        RenderWorkerMain.discardForkedWorker()
        return InProcessBackend()
    }
}
