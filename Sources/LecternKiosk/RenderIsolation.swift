import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import LecternRenderProcess
import LecternWayland
import Logging
import SystemPackage

/// Where MuPDF draws the document's tiles and reads its pages' text (`render.process`): in
/// this process, on the render threads, or in the render worker process.
public struct RenderProcessPolicy: Sendable, Equatable {
    /// Whether tiles and page text come from the render worker process. The `lectern` binary
    /// turns it on unless `--render-process off` or the policy's `render.process = "off"`; a
    /// configuration built in code (the in-process tests) draws in process unless it asks.
    public var isEnabled = false
    /// Seconds a request may take in the worker before it is killed and the page shows as
    /// undrawable (`--render-deadline`).
    public var deadline = 4.0
    /// The worker's address space limit (RLIMIT_AS) in bytes: above MuPDF's own cap (384 MiB),
    /// its threads' stacks and heaps, and the tile buffers.
    public var addressSpace = 2048 << 20
    /// The `lectern` executable the worker runs (nil: this process's own; tests name the built one).
    public var executable: String?
    /// Tests: milliseconds each render waits in the worker (to kill it mid-render).
    public var renderDelayMilliseconds = 0
    /// Tests: the page (0-based) whose render crashes the worker (-1: none).
    public var crashPage = -1

    public init() {}
}

/// Where the session's document is drawn: a protocol so the reader's call sites do not care.
protocol DocumentBackend: AnyObject {
    /// What the tile scheduler calls to draw a tile of `document` (render threads).
    func tileRenderer(for document: PDFDocument) -> TileScheduler.Render
    /// What reads the text blocks and links of pages of `document` (on the session's worker thread).
    func pageTextReader(for document: PDFDocument) -> @Sendable ([Int]) -> [Int: PageText]
    /// What finds a query on a page of `document` (on the search's worker thread).
    func pageSearcher(for document: PDFDocument) -> @Sendable (SearchQuery, Int) -> [SearchHit]
    /// What applies an edit to `document` (off the main thread: it waits for the worker): here
    /// and, when the worker draws it, in the worker too (the reader's copy answers annotation
    /// reads and saves; the worker's draws).
    func editor(for document: PDFDocument) -> @Sendable (DocumentEdit) -> Result<String?, PDFError>
    /// What waits (off the main thread) until the render worker started for `path` has opened
    /// it, and says why the reader must not open it itself (the worker died opening it); nil
    /// when no worker opens it first. Main thread.
    func openCheck(forPath path: String) -> (@Sendable () -> String?)?
    /// `document` is no longer shown (a new version replaced it, or it was refused): what draws
    /// it can stop. Main thread.
    func release(_ document: PDFDocument)
    /// The render worker's state (nil: rendering is in process).
    var workerStatus: RenderProcess.Status? { get }
    /// Stops the worker (shutdown).
    func close()
}

/// Today's path: MuPDF on this process's render threads.
final class InProcessBackend: DocumentBackend {
    func tileRenderer(for document: PDFDocument) -> TileScheduler.Render {
        { key, cookie in TileContent.render(key, of: document, cookie: cookie) }
    }

    func pageTextReader(for document: PDFDocument) -> @Sendable ([Int]) -> [Int: PageText] {
        { pages in Reader.readPageText(of: document, pages: pages) }
    }

    func pageSearcher(for document: PDFDocument) -> @Sendable (SearchQuery, Int) -> [SearchHit] {
        { query, page in (try? document.search(query, page: page)) ?? [] }
    }

    func editor(for document: PDFDocument) -> @Sendable (DocumentEdit) -> Result<String?, PDFError> {
        { edit in Result { () throws(PDFError) in try edit.apply(to: document) } }
    }

    func openCheck(forPath path: String) -> (@Sendable () -> String?)? { nil }
    func release(_ document: PDFDocument) {}
    var workerStatus: RenderProcess.Status? { nil }
    func close() {}
}

/// MuPDF in render worker processes, with a deadline per request on the loop's timers. The
/// first is started at start-up (while the display connects) for the configured document;
/// each other document the reader shows (a new version the live reload brings in, another one
/// opened over the control socket) gets a worker of its own, stopped when the document is
/// released (or found gone). The shelf's covers are drawn in process. Main thread.
final class WorkerBackend: DocumentBackend {
    /// One worker process and the document it draws.
    private final class Worker {
        let process: RenderProcess
        /// The document it draws: set when the first document at its path is asked for (the
        /// first worker starts before the document opens here); weak, so the worker can be
        /// stopped once the document is gone.
        weak var document: PDFDocument?
        var isClaimed = false
        var watch: EventLoop.Watch?
        var timers: [UInt64: EventLoop.Timer] = [:]

        init(process: RenderProcess) { self.process = process }

        func claim(_ document: PDFDocument) {
            self.document = document
            isClaimed = true
        }

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

    /// The worker that draws `document`, started if none does; nil when none can start (then
    /// it is drawn in process).
    private func process(for document: PDFDocument) -> RenderProcess? {
        if let worker = workers.first(where: { $0.isClaimed && $0.document === document }) { return worker.process }
        // The workers of documents no longer shown.
        stopWorkers { $0.isClaimed && $0.document == nil }
        if let worker = workers.first(where: { !$0.isClaimed && $0.process.documentPath == document.path }) {
            worker.claim(document)
            return worker.process
        }
        var settings = settings
        settings.documentPath = document.path
        settings.password = document.password
        settings.startPage = 0
        do {
            let worker = try start(settings)
            worker.claim(document)
            workers.append(worker)
            return worker.process
        } catch {
            logger.error("cannot start a render worker for \(document.path), drawing it in process: \(error)")
            return nil
        }
    }

    func tileRenderer(for document: PDFDocument) -> TileScheduler.Render {
        guard let process = process(for: document) else { return InProcessBackend().tileRenderer(for: document) }
        return { key, cookie in process.render(key, cookie: cookie) }
    }

    func pageTextReader(for document: PDFDocument) -> @Sendable ([Int]) -> [Int: PageText] {
        guard let process = process(for: document) else { return InProcessBackend().pageTextReader(for: document) }
        return { pages in
            var result: [Int: PageText] = [:]
            for page in pages {
                let (blocks, links, characters) = (try? process.pageText(page: page).get()) ?? ([], [], [])
                // Annotations are read here, like the page count and labels: from the object
                // tree, without running the page's content.
                let annotations = ((try? document.annotations(page: page))?.annotations ?? []).map(AnnotationInfo.init)
                result[page] = PageText(
                    blocks: blocks, links: links.map(Reader.linkTarget),
                    characters: PageCharacters(readingOrder: characters), annotations: annotations)
            }
            return result
        }
    }

    func pageSearcher(for document: PDFDocument) -> @Sendable (SearchQuery, Int) -> [SearchHit] {
        guard let process = process(for: document) else { return InProcessBackend().pageSearcher(for: document) }
        return { query, page in (try? process.search(query, page: page).get()) ?? [] }
    }

    func editor(for document: PDFDocument) -> @Sendable (DocumentEdit) -> Result<String?, PDFError> {
        let here = InProcessBackend().editor(for: document)
        guard let process = process(for: document) else { return here }
        return { edit in
            let result = here(edit)
            guard case .success = result else { return result }
            if case .failure(let error) = process.edit(edit) {
                return .failure(PDFError(.renderFailed, path: document.path, message: "the render worker: \(error)"))
            }
            return result
        }
    }

    func openCheck(forPath path: String) -> (@Sendable () -> String?)? {
        guard let worker = workers.first(where: { !$0.isClaimed && $0.process.documentPath == path }) else {
            return nil
        }
        let process = worker.process
        return {
            if case .failure(let error) = process.awaitOpen() { return error.description }
            return nil
        }
    }

    func release(_ document: PDFDocument) {
        stopWorkers { $0.isClaimed && $0.document === document }
    }

    private func stopWorkers(where stops: (Worker) -> Bool) {
        for worker in workers where stops(worker) { worker.close() }
        workers.removeAll(where: stops)
    }

    /// The state of the worker started last whose document is still open (the shown one's, or
    /// a new version's on its way).
    var workerStatus: RenderProcess.Status? {
        workers.last { !$0.isClaimed || $0.document != nil }?.process.status
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
