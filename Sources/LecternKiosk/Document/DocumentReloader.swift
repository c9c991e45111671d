import LecternCore
import LecternDocuments
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// A new version of the document, shown as soon as its file is replaced (renamed over, or
/// rewritten in place and then left alone for half a second): it opens on a worker, its
/// reader renders the page on screen off screen, and only then does it take the old one's
/// place, on the same page when the new version has it (else the start page).
///
/// A version that cannot be shown (not a PDF, encrypted, truncated or damaged enough to need
/// repair, no pages, a first page that does not render) or a deleted file leaves the old
/// version on screen: its document stays open (the path is never opened again for it), the
/// reason is logged, and the next change is tried again.
///
/// Another document opens the same way (the session's `show(path:page:)` asks for it): the
/// one on screen stays until the new one's page is drawn.
final class DocumentReloader {
    let loop: EventLoop
    let policy: PolicyInForce
    /// Where the new version is opened and drawn (the session's documents are).
    let backend: DocumentBackend
    /// The screen the new version's page is drawn for.
    let screen: Screen
    private let files: FileWatcher
    private let logger: Logger
    private let worker: BackgroundWork
    private var subscription: FileWatcher.Subscription?
    private var followedPath: String?
    /// The reader of the new version while its first page renders.
    private var candidate: Reader?
    /// Bumped by every change: a result for an older one is dropped.
    private var version = 0
    /// The page the version being opened is to show (nil: the page on screen now).
    private var requestedPage: Int?
    /// The page count the new document must have to show `requestedPage` (another language's
    /// version of the document: the same page only where the pages match); else the start page.
    private var requestedPageCount: Int?
    /// The page the new version shows: the one asked for, else the one on screen.
    private var pageToShow: Int {
        requestedPage ?? pageShown?() ?? policy.startPage
    }
    /// The page on screen now (nil: no document is).
    var pageShown: (() -> Int?)?
    /// Called with the new version's reader once its page is drawn: it takes the old one's place.
    var onReady: ((Reader) -> Void)?
    /// Called when the followed file changed (its writes over): the session opens it again.
    var onFileChanged: (() -> Void)?
    /// Versions shown after the first.
    private(set) var reloads = 0
    /// Why the last new version was refused (nil once one was shown).
    private(set) var lastError: String?
    /// New versions refused so far (for the metrics and the status).
    private(set) var refusals = 0
    /// When the new version began opening, its quiet period over (wall time: the cost is real time).
    private var changeSeen: ContinuousClock.Instant?
    /// Called with the reason when a version is refused.
    var onRefuse: ((String) -> Void)?

    /// The quiet period after the last write: a copy in place takes a while.
    static let quietPeriod = 0.5

    init(
        policy: PolicyInForce, backend: DocumentBackend, screen: Screen, files: FileWatcher, loop: EventLoop,
        logger: Logger
    ) {
        self.policy = policy
        self.backend = backend
        self.screen = screen
        self.files = files
        self.loop = loop
        self.logger = logger
        worker = BackgroundWork(label: "lectern.reload", qos: .userInitiated, loop: loop)
    }

    /// Follows the file at `path`, the document shown, if the policy says documents reload.
    func follow(_ shown: String) {
        let path = policy.reloadsDocuments ? shown : nil
        guard path != followedPath else { return }
        subscription?.cancel()
        subscription = nil
        followedPath = path
        guard let path else { return }
        subscription = files.follow(path, quietPeriod: Self.quietPeriod) { [unowned self] in onFileChanged?() }
    }

    /// Whether a new version is being opened or rendered.
    var isBusy: Bool { worker.isBusy || candidate != nil }

    /// Stops following and drops a version in progress (shutdown).
    func close() {
        subscription?.cancel()
        worker.abandon()
        dropCandidate()
    }

    /// Opens `path` on the worker; it shows `page` (0-based) when given, else the page on screen
    /// now (another document opened over the control socket starts at its start page).
    func reload(path: String, password: String?, page: Int?, ifPageCountIs pageCount: Int? = nil) {
        version += 1
        requestedPage = page
        requestedPageCount = pageCount
        dropCandidate()
        changeSeen = ContinuousClock.now
        loop.resetLongestTurn()
        let version = version
        logger.info("\(path) changed: opening the new version")
        // In a worker of its own (with the render worker on): the reader never parses it.
        let open = backend.opener(path: path, password: password, startPage: pageToShow)
        worker.submit {
            Result { () throws(PDFError) in
                let document = try open()
                guard document.pageCount > 0 else {
                    throw PDFError(.noPages, path: path, message: "the new version of \(path) has no pages")
                }
                guard !document.wasRepaired else {
                    throw PDFError(.damaged, path: path, message: "the new version of \(path) is damaged or incomplete")
                }
                return document
            }
        } then: { [unowned self] result in
            guard version == self.version else { return }  // a newer change is on its way
            switch result {
            case .success(let document): prepare(document, firstPage: document.firstPageInfo())
            case .failure(let error): refuse(error.description)
            }
        }
    }

    /// Sets up the new version's reader where the old one is, and renders what it would show.
    private func prepare(_ document: ShownDocument, firstPage: PageInfo) {
        let reader: Reader
        do {
            reader = try Reader(
                document: document, firstPage: firstPage,
                configuration: policy.viewConfiguration(rightToLeft: document.isRightToLeft),
                viewport: screen.size,
                budget: policy.tileBudget)
        } catch {
            refuse("\(error)")
            return
        }
        let current = pageToShow
        let fits = current < document.pageCount && (requestedPageCount ?? document.pageCount) == document.pageCount
        let page = fits ? current : min(policy.startPage, document.pageCount - 1)
        try? reader.view.goToPage(page)
        reader.deliverTiles(on: loop) { [unowned self] _ in checkCandidate() }
        candidate = reader
        checkCandidate()
    }

    /// Shows the candidate once the page it would show is rendered; refuses it if that failed.
    private func checkCandidate() {
        guard let reader = candidate else { return }
        let plan = reader.plan(
            size: screen.pixelSize, prefetching: false, scale: screen.scale, contrast: screen.contrast)
        if plan.showsFailure {
            refuse("the first page of the new version of \(reader.document.path) cannot be rendered")
            return
        }
        guard plan.isSharp else { return }
        candidate = nil
        reloads += 1
        lastError = nil
        logger.info(
            "showing the new version of \(reader.document.path): \(reader.document.pageCount) pages, page \(reader.view.dominantPage() + 1)"
        )
        onReady?(reader)
        reportTiming(reader.document.path)
    }

    /// Logs how long the switch took and the loop's longest turn meanwhile, once the turn
    /// that switched (and drew the new version) is over.
    private func reportTiming(_ path: String) {
        guard let changeSeen else { return }
        _ = loop.schedule(after: 0) { [loop, logger] in
            let shown = ContinuousClock.now - changeSeen, turn = loop.longestTurn
            logger.info(
                "reload timing: \(path) opened and shown in \(shown.milliseconds) ms; the main loop's longest turn meanwhile \(Int(turn.seconds * 1e6)) us"
            )
        }
    }

    private func refuse(_ reason: String) {
        dropCandidate()
        lastError = reason
        refusals += 1
        logger.error("\(reason); the version on screen stays")
        onRefuse?(reason)
    }

    private func dropCandidate() {
        guard let reader = candidate else { return }
        reader.stop(before: ContinuousClock.now + .milliseconds(500))
        backend.release(reader.document)
        candidate = nil
    }
}
