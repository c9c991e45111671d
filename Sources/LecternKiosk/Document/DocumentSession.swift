import Glibc
import LecternCore
import LecternDocuments
import LecternLinux
import LecternPDF
import LecternPolicy
import LecternRender
import Logging

/// The document on screen: opening it on the worker while the window comes up, the open
/// reader or the reason it cannot be shown, the page sizes and page text read after the first
/// frame, the tiles arriving from the render threads, and the tile cache's budget.
///
/// Everything here runs on the event loop's thread; MuPDF work runs on the worker.
final class DocumentSession: DocumentShowing {
    /// The configuration in force: the layout, the start page, the tile cache's budget.
    let policy: PolicyInForce
    /// The document shown, or being opened: the policy's (or the saved view's) at start, then
    /// another one a visitor or an operator opened (`show(path:page:)`).
    private(set) var documentPath: String
    /// The password it is opened with (the policy's when it was asked for).
    private(set) var password: String?
    let loop: EventLoop
    let logger: Logger
    /// Where tiles are drawn and page text read: here or in the render worker process.
    let backend: DocumentBackend
    /// Opens new versions of the document shown, and other documents, off screen.
    let reloader: DocumentReloader
    /// The reader on screen, for the parts that need only it.
    let current = CurrentReader()
    let worker: BackgroundWork
    private let startTime: Double
    private var loadingTimer: EventLoop.Timer?
    private var lastLoggedState: ViewState?

    private(set) var phase = DocumentPhase.opening
    /// A book shown is being laid out again (`layOutShownBookIfNeeded`).
    var isLayingOutBook = false
    /// The capital H's height in surface units a visitor's large print asks a book's type to have
    /// (nil: the policy's type size, `text.font-size`).
    var visitorCapitalHeight: () -> Int? = { nil }
    /// Documents opened so far (first opens, reloads and documents chosen on the shelf).
    private(set) var documentsOpened = 0
    /// The first page takes long enough to come (300 ms) that "Opening…", or whatever of
    /// the page is there, is worth showing.
    private(set) var isFirstFrameLate = false
    /// The screen the reader lays out for (its size and scale are the screen's own).
    let screen: Screen
    /// Where to start instead of the start page: the view saved before a restart
    /// (`ViewStateStore`), restored once the document is open and the window has its size.
    var restoredView: ViewState?
    /// Asked for when something on screen may have changed (a tile arrived, the document opened).
    let frame: FrameRequest

    /// - Parameter documentPath: the first document shown.
    init(
        policy: PolicyInForce, documentPath: String, backend: DocumentBackend, reloader: DocumentReloader,
        screen: Screen, frame: FrameRequest, loop: EventLoop, logger: Logger
    ) {
        self.policy = policy
        self.frame = frame
        self.documentPath = documentPath
        password = policy.password
        self.backend = backend
        self.reloader = reloader
        self.screen = screen
        self.loop = loop
        self.logger = logger
        worker = BackgroundWork(label: "lectern.document", qos: .userInitiated, loop: loop)
        startTime = loop.clock.now
        screen.onResize = { [unowned self] in screenSizeChanged(to: $0) }
        reloader.pageShown = { [unowned self] in reader?.view.dominantPage() }
        reloader.onReady = { [unowned self] in replace(with: $0) }
        reloader.onFileChanged = { [unowned self] in reload() }
        follow()
        policy.observe { [unowned self] old, new in policyChanged(from: old, to: new) }
    }

    /// A new policy: the document it names if it names another one, or if the one shown came
    /// from the shelf and the shelf no longer holds it; otherwise the one shown stays (opened
    /// over the control socket, from the shelf, or the policy's own). A new password opens the
    /// document again. The new layout applies at once (the view keeps its page). The old
    /// document stays on screen until the new one shows.
    private func policyChanged(from old: KioskConfiguration, to new: KioskConfiguration) {
        let leftTheShelf = old.shelfPaths.contains(documentPath) && !new.shelfPaths.contains(documentPath)
        let path = new.documentPath != old.documentPath || leftTheShelf ? new.documentPath : documentPath
        if path != documentPath || new.password != old.password {
            show(path: path, page: nil)
        } else {
            follow()
        }
        if let reader {
            let layout = policy.viewConfiguration(of: new, rightToLeft: reader.document.isRightToLeft)
            if layout != reader.view.configuration {
                reader.view.stopAnimations()
                reader.view.setConfiguration(layout)
            }
            // The next frame's plan resolves it and the cache evicts down to it.
            reader.planner.budget = new.tileBudget
        }
        layOutShownBookIfNeeded()
        frame.request()
    }

    // MARK: Another document

    /// Opens the document at `path` in place of the one shown, on `page` (0-based; nil: the page
    /// on screen now), with the policy's password; the one shown stays until the new one's page
    /// is drawn (`DocumentReloader`). The one way to open another document: the shelf, the
    /// control socket's `open` and a policy naming another document all call it.
    func show(path: String, page: Int?) { open(path, page: page) }

    /// `show(path:page:)`; `page` only if the document has `pageCount` pages (else the start page).
    private func open(_ path: String, page: Int?, ifPageCountIs pageCount: Int? = nil) {
        documentPath = path
        password = policy.password
        follow()
        reloader.reload(path: path, password: password, page: page, ifPageCountIs: pageCount)
    }

    /// Opens the document shown again (its file changed, or its edits are dropped), on `page`
    /// (nil: the page on screen now).
    func reload(page: Int? = nil) {
        reloader.reload(path: documentPath, password: password, page: page)
    }

    /// The chrome's language is now `code`: the shown document's version in it, when a `[[shelf]]`
    /// entry names one, on the same page if both versions have as many pages (else the start page).
    func showVersion(in code: String) {
        let configuration = policy.configuration
        guard let entry = configuration.shelfEntry(holding: documentPath) else { return }
        let path = entry.path(in: code, fallback: configuration.language)
        guard !path.isEmpty, path != documentPath else { return }
        logger.info("the chrome speaks \(code): \(path), the document's version in it")
        open(path, page: reader?.view.dominantPage(), ifPageCountIs: reader?.view.pages.count)
    }

    /// Follows the shown document's file, or stops (the policy's `reload.documents`).
    func follow() {
        reloader.follow(documentPath)
    }

    /// Another document asked for could not be shown: the session goes on with `path`, the one
    /// on screen, and follows its file again.
    func keepShowing(_ path: String) {
        documentPath = path
        follow()
    }

    /// Starts opening the document on the worker; "Opening…" shows if the first page has
    /// not come within 300 ms.
    func open() {
        loadingTimer = loop.schedule(after: 0.3) { [unowned self] in
            isFirstFrameLate = true
            frame.request()
        }
        let path = documentPath
        let startPage = restoredView?.pageIndex ?? policy.startPage
        // With the render worker, the worker opens the file (and prepares the start page): the
        // reader never parses it, so a file that crashes MuPDF takes down only the worker.
        let open = backend.opener(path: path, password: password, startPage: startPage)
        let delay = policy.configuration.renderProcess.openAnswerDelayMilliseconds
        worker.submit {
            if delay > 0 { usleep(UInt32(delay) * 1000) }
            return Result { () throws(PDFError) in
                let document = try open()
                guard document.pageCount > 0 else {
                    throw PDFError(.noPages, path: path, message: "cannot show \(path): the document has no pages")
                }
                return document
            }
        } then: { [unowned self] in
            opened($0)
        }
    }

    /// Stops the render threads (shutdown) and the reading of page sizes. Other work still on
    /// the worker is abandoned: it ends on its own, and its results are dropped.
    func close() {
        loadingTimer?.cancel()
        worker.abandon()
        // SIGTERM ends Lectern within a second: a render inside MuPDF is not waited for long.
        reader?.stop(before: ContinuousClock.now + .milliseconds(500))
    }

    var reader: Reader? { current.reader }

    /// Whether the worker or the render threads have work in hand.
    var isBusy: Bool { worker.isBusy || (reader?.scheduler.isBusy ?? false) }

    /// Milliseconds since start-up on the loop's clock, for logs.
    var elapsedMilliseconds: Int { Int(((loop.clock.now - startTime) * 1000).rounded()) }

    /// The window has a new size: the reader keeps its view state across it.
    private func screenSizeChanged(to size: Size) {
        reader?.view.setViewportSize(size)
        restoreViewIfReady()
        layOutShownBookIfNeeded()
    }

    /// Restores `restoredView` once there is a reader and a screen size (a zoomed viewport is
    /// kept by its width on screen); a view the document cannot show leaves the start page.
    private func restoreViewIfReady() {
        guard let view = restoredView, screen.hasSize, let reader else { return }
        restoredView = nil
        do {
            try reader.view.restore(view)
        } catch {
            logger.error("cannot restore the saved view (page \(view.pageIndex + 1)): \(error)")
        }
    }

    // MARK: Work results

    /// The document opened on the worker, or why it cannot be shown (the reason stays on screen).
    private func opened(_ result: Result<ShownDocument, PDFError>) {
        switch result {
        case .success(let document):
            opened(document, firstPage: document.firstPageInfo())
        case .failure(let error):
            phase = .failed(.document(error))
            logger.error("\(error)")
        }
        frame.request()
    }

    /// The real page count and page sizes, after the page tree was walked (nil: cancelled).
    /// The page sizes read for `reader`: applied if it is still the one shown (a new version
    /// may have replaced it meanwhile).
    private func pageSizesRead(_ sizes: PageSizes?, for reader: Reader?) {
        guard let reader, reader === self.reader, let sizes else { return }
        reader.pageSizesKnown = true
        do {
            try reader.apply(sizes)
        } catch {
            logger.error("cannot use the page sizes: \(error)")
        }
        logger.info(
            "read the sizes of \(sizes.pageCount) pages in \(sizes.milliseconds) ms (\(sizes.updates.count) differ from page 1)\(sizes.failures > 0 ? " (\(sizes.failures) damaged pages keep estimated sizes)" : "")"
        )
        frame.request()
    }

    /// Text blocks and links per page (PDF user space), for smart zoom and links, read for
    /// `reader`: kept if it is still the one shown.
    private func pageTextRead(_ texts: [Int: PageText], for reader: Reader?) {
        guard let reader, reader === self.reader else { return }
        reader.keepPageText(texts, near: reader.view.dominantPage())
        frame.request()
    }

    private func opened(_ pdf: ShownDocument, firstPage: PageInfo) {
        if needsLayout(pdf) {
            // Only the chapters the first page shown needs: the rest after the first frame.
            let through = max(restoredView?.pageIndex ?? 0, policy.startPage)
            layOut(pdf, keeping: -1, through: through) { [unowned self] _ in
                opened(pdf, firstPage: pdf.firstPageInfo())
                frame.request()
            }
            return
        }
        logger.info(
            "opened \(pdf.path): \(pdf.pageCount) pages\(pdf.wasRepaired ? " (damaged, repaired)" : "") at \(elapsedMilliseconds) ms"
        )
        if policy.transition == .curl && !policy.curls {
            logger.warning("a page curl needs horizontal per-spread paging: these pages scroll without it")
        }
        let reader: Reader
        do {
            reader = try Reader(
                document: pdf, firstPage: firstPage,
                configuration: policy.viewConfiguration(rightToLeft: pdf.isRightToLeft),
                viewport: screen.size, budget: policy.tileBudget)
        } catch {
            phase = .failed(.system(error))
            logger.error("\(DocumentFailure.system(error))")
            return
        }
        if policy.startPage > 0 {
            try? reader.view.goToPage(min(policy.startPage, pdf.pageCount - 1))
        }
        install(reader)
        restoreViewIfReady()
    }

    /// Shows `reader` instead of what is shown now (a new version of the document, its first
    /// page rendered: `DocumentReloader`); the old reader's threads stop, its document closes.
    private func replace(with reader: Reader) {
        if needsLayout(reader.document) {
            layOut(reader.document, keeping: reader.view.dominantPage()) { [unowned self] page in
                guard let laidOut = relaidOut(reader, showing: page) else { return }
                replace(with: laidOut)
            }
            return
        }
        loadingTimer?.cancel()
        if let old = self.reader {
            old.stop(before: ContinuousClock.now + .milliseconds(500))
            backend.release(old.document)
        }
        install(reader)
        frame.request()
    }

    func install(_ reader: Reader) {
        phase = .open
        documentsOpened += 1
        reader.onRequest = { [unowned self] wanted in
            logger.trace("asked for \(wanted.count) tiles at \(elapsedMilliseconds) ms")
        }
        reader.deliverTiles(on: loop) { [unowned self] count in
            logger.trace("\(count) tiles arrived at \(elapsedMilliseconds) ms")
            frame.request()
        }
        current.reader = reader
    }

    /// Logs the view state (debug) whenever the view comes to rest somewhere new.
    func logViewStateIfResting(hasShownPage: Bool) {
        guard hasShownPage, let reader, !reader.view.isAnimating, !reader.view.isInteracting else { return }
        let state = reader.view.viewState()
        guard state != lastLoggedState else { return }
        lastLoggedState = state
        logger.debug("view state: \(describe(state))")
    }

    /// "page 5" or "page 5 viewport x y w h" (PDF points).
    private func describe(_ state: ViewState) -> String {
        var text = "page \(state.pageIndex + 1)"
        if let v = state.viewport {
            func f(_ x: Double) -> String { String((x * 10).rounded() / 10) }
            text += " viewport \(f(v.minX)) \(f(v.minY)) \(f(v.width)) \(f(v.height))"
        }
        return text
    }

    // MARK: Reading after the first frame

    /// Page `pages` were shown sharp: read every page's real size (once), and the text and
    /// links of these pages (once each), on the worker.
    func pagesShown(_ pages: [Int]) {
        loadingTimer?.cancel()
        guard let reader else { return }
        loadPageSizesIfNeeded(reader)
        loadPageText(for: pages, reader: reader)
    }

    private func loadPageSizesIfNeeded(_ reader: Reader) {
        guard !reader.pageSizesKnown, !reader.loadingPageSizes else { return }
        reader.loadingPageSizes = true
        let document = reader.document
        let estimate = reader.view.pages.estimate
        let cookie = reader.pageSizesCookie
        worker.submit {
            document.readPageSizes(differingFrom: estimate, cookie: cookie)
        } then: { [unowned self, weak reader] in
            pageSizesRead($0, for: reader)
        }
    }

    private func loadPageText(for pages: [Int], reader: Reader) {
        let missing = pages.filter { reader.pageText[$0] == nil && !reader.pageTextLoading.contains($0) }
        guard !missing.isEmpty else { return }
        reader.pageTextLoading.formUnion(missing)
        let document = reader.document
        worker.submit {
            document.readPageText(pages: missing)
        } then: { [unowned self, weak reader] in
            pageTextRead($0, for: reader)
        }
    }
}
