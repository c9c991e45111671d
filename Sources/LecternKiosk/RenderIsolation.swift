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
    /// turns it on unless `--render-process off` or the policy says otherwise; a configuration
    /// built in code (the in-process tests) draws in process unless it asks.
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

    var workerStatus: RenderProcess.Status? { nil }
    func close() {}
}

/// MuPDF in the render worker process, started here at start-up (while the display connects)
/// for the configured document, with a deadline per request on the loop's timers.
///
/// Only the session's first document goes through it: a reloaded version, the shelf's other
/// documents and their covers are drawn in process (the worker holds one document).
final class WorkerBackend: DocumentBackend {
    let process: RenderProcess
    private let documentPath: String
    private let loop: EventLoop
    private let deadline: Double
    private var watch: EventLoop.Watch?
    /// The document the worker has open: the first one at `documentPath` the session opened
    /// (a reloaded version at the same path is another document, drawn in process).
    private var served: PDFDocument?
    private var timers: [UInt64: EventLoop.Timer] = [:]

    init(configuration: KioskConfiguration, loop: EventLoop, logger: Logger) throws(SystemError) {
        let policy = configuration.renderProcess
        var settings = RenderProcess.Settings(
            executable: policy.executable ?? "/proc/self/exe", documentPath: configuration.documentPath,
            password: configuration.password, startPage: configuration.startPage,
            channels: RenderProcess.defaultChannels, addressSpace: policy.addressSpace)
        settings.renderDelayMilliseconds = policy.renderDelayMilliseconds
        process = try RenderProcess(settings: settings, logger: logger)
        documentPath = configuration.documentPath
        self.loop = loop
        deadline = policy.deadline
        watch = loop.watch(FileDescriptor(rawValue: process.eventDescriptor)) { [unowned self] in watchdog() }
        process.start()
    }

    /// Arms a deadline for each request that started, disarms it for each that ended.
    private func watchdog() {
        let (started, finished) = process.takeEvents()
        for id in started {
            timers[id] = loop.schedule(after: deadline) { [unowned self] in
                timers[id] = nil
                process.expire(id)
            }
        }
        for id in finished { timers.removeValue(forKey: id)?.cancel() }
    }

    /// Whether the worker draws `document`: the first document at the configured path asked for.
    private func serves(_ document: PDFDocument) -> Bool {
        if served == nil, document.path == documentPath { served = document }
        return served === document
    }

    func tileRenderer(for document: PDFDocument) -> TileScheduler.Render {
        guard serves(document) else { return InProcessBackend().tileRenderer(for: document) }
        return { [process] key, cookie in process.render(key, cookie: cookie) }
    }

    func pageTextReader(for document: PDFDocument) -> @Sendable ([Int]) -> [Int: PageText] {
        guard serves(document) else { return InProcessBackend().pageTextReader(for: document) }
        return { [process] pages in
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
        guard serves(document) else { return InProcessBackend().pageSearcher(for: document) }
        return { [process] query, page in (try? process.search(query, page: page).get()) ?? [] }
    }

    func editor(for document: PDFDocument) -> @Sendable (DocumentEdit) -> Result<String?, PDFError> {
        let here = InProcessBackend().editor(for: document)
        guard serves(document) else { return here }
        return { [process] edit in
            let result = here(edit)
            guard case .success = result else { return result }
            if case .failure(let error) = process.edit(edit) {
                return .failure(PDFError(.renderFailed, path: document.path, message: "the render worker: \(error)"))
            }
            return result
        }
    }

    var workerStatus: RenderProcess.Status? { process.status }

    func close() {
        watch?.cancel()
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        process.stop()
        served = nil
    }
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
