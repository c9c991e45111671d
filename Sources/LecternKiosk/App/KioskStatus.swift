import LecternCore
import LecternRender

/// What the app shows and does now (`KioskApp.status`).
public struct KioskStatus: Sendable {
    public enum Document: Equatable, Sendable {
        case opening
        case open(pageCount: Int)
        /// It cannot be shown; the message on screen.
        case failed(String)
    }

    public var document = Document.opening
    /// Why the document cannot be shown, in full, as the log says it (the path, MuPDF's words).
    public var documentError: String?
    /// The app was asked to stop (its loop ends after this turn).
    public var isStopping = false
    /// Where the reader is (nil until the document is open).
    public var viewState: ViewState?
    /// The zoom of the dominant spread (or the document).
    public var zoomScale = 1.0
    /// Whether the open document is bound on the right edge (read right to left).
    public var readsRightToLeft = false
    /// The document view's scroll offset (see `DocumentView.contentOffset`).
    public var contentOffset = Point.zero
    public var isUserInterfaceVisible = false
    public var notice: String?
    /// The page number or label typed so far.
    public var pageEntry = ""
    /// Where the reader is, as the title bar says it: "Page 4 of 320", "iv (4 of 320)", "12–13 of 320".
    public var pagePosition = ""
    /// Every page's real size was read (after the first frame), and the real page count.
    public var pageSizesKnown = false
    /// Tile renders started so far: at rest it stops growing.
    public var tileRendersStarted = 0
    public var framesCommitted = 0
    /// The window's size in surface units, as configured (nil before the compositor configured it).
    public var windowSize: Size?
    /// The size the compositor last asked for: larger than `windowSize` when it was too big
    /// for a buffer (each side at most 8192 pixels, at most 8K's area in all).
    public var requestedWindowSize: Size?
    /// The registry names of the outputs the compositor advertises.
    public var outputs: [UInt32] = []
    /// Buffer pixels per surface unit of the last frame (2 on a `wl_output` of scale 2, 1.5
    /// from `wp_fractional_scale_v1`); touches and the window's size are in surface units.
    public var scale = 1.0
    /// Frame buffers allocated, and how many of them the compositor holds (not released yet).
    public var frameBuffers = 0
    public var frameBuffersBusy = 0
    /// Why the last frame dump (`--frame-dump`) could not be written (nil: none failed).
    public var frameDumpError: String?
    /// The pages the last committed frame showed.
    public var pagesOnScreen: [PageOnScreen] = []
    /// The tile cache's budget in bytes, as the last frame's plan resolved it (`cache-mb`, or
    /// automatic: three screens at least).
    public var tileCacheBudget = 0
    /// The thumbnail bar and grid, the outline, search.
    public var navigation = NavigationStatus()
    /// The operator's panel's rows while it is open ("Binding: left to right").
    public var operatorPanel: [String]?
    /// The presenter mirror on a second output (nil: there is none).
    public var mirror: Mirror?
    /// When frames reached the screen, and the last input→present time (`wp_presentation`).
    public var presentations = Presentations()
    /// The visitor's text selection (nil: none).
    public var textSelection: TextSelectionStatus?
    /// The selected annotation, the field being filled, the values shown, the last save.
    public var annotations = AnnotationStatus()
    /// Five-key navigation: the focused item, and what speech was last asked to say.
    public var focus = KeypadFocus()
    /// The language the chrome speaks (`ChromeLanguage`).
    public var language = Language.english

    /// Selected text.
    public struct TextSelectionStatus: Equatable, Sendable {
        /// The pages it spans (0-based).
        public var pages: ClosedRange<Int>
        /// The selected text (lines and pages joined by line feeds).
        public var text: String
        /// The "QR code" button next to it in the last frame, in surface units (nil: not shown).
        public var qrCodeButton: PixelBox?
        /// Whether the last frame showed the button.
        public var showsQRCodeButton: Bool { qrCodeButton != nil }
    }

    /// The presenter mirror.
    public struct Mirror: Equatable, Sendable {
        /// The registry name of the output it is on.
        public var output: UInt32
        /// The dominant page it shows (0-based; nil while it shows no page).
        public var page: Int?
        /// Frames it committed.
        public var frames: Int
    }

    /// A page in the last committed frame.
    public struct PageOnScreen: Equatable, Sendable {
        /// The page index (0-based).
        public var page: Int
        /// The whole page in buffer pixels, drawn at this size (it may extend past the screen).
        public var frame: PixelBox
        /// The part of it on screen.
        public var visible: PixelBox
        /// Drawn from tiles rendered at this size (not a preview or another zoom's tiles).
        public var isSharp: Bool
    }
    /// When the idle reset would fire, on the app's clock.
    public var idleResetDeadline: Double?
    /// The notice's button as drawn in the last frame (surface units): "More time" during the
    /// idle countdown.
    public var noticeButton: PixelBox?
    /// The screen in millimetres and the distance it is read from (nil: its size is not known):
    /// what the chrome's sizes follow, and `problem` when it is too small for them.
    public var physicalScreen: PhysicalScreen?
    /// The chrome's sizes on that screen (surface units).
    public var chromeMetrics = ChromeMetrics.standard
    /// The band at the top of the window, in surface units, while a seated visitor has lowered
    /// the reading area ("Lower the page"; 0: not lowered). Everything else in this status is
    /// below it: a y of 0 is the band's bottom edge.
    public var lowering = 0
    /// The accessibility button (surface units; nil: the policy hides it) and the rows of its
    /// panel when open.
    public var accessibilityButton: PixelBox?
    public var accessibilityPanel: [String]?
    /// Speech (`Narrator`).
    public var speech = Speech()
    /// The audit of the document on screen (`DocumentAudits`; nil: none started yet).
    public var audit: AuditStatus?
    /// Pages taken from the audit's slow pages kept on disk instead of being rendered.
    public var prerenderedPagesServed = 0
    /// The pages whose tiles the reader on screen asked the render worker for, so far (0-based).
    public var pagesRequested: Set<Int> = []
    /// Large print (`LargePrint`; nil: off).
    public var largePrint: LargePrintStatus?
    /// What large print shows.
    public struct LargePrintStatus: Equatable, Sendable {
        /// The font's size and its capital H's height as drawn, in surface units.
        public var pixelSize: Int
        public var capitalHeight: Int
        /// The lines on screen, top to bottom (none while the column is laid out), and the words
        /// marked in them (what a search found).
        public var lines: [String]
        public var marked: [String]
        /// The pieces of the sentence read aloud on the lines on screen, highlighted.
        public var spoken: [String]
        /// Where the column's links are (surface units, on screen or not).
        public var links: [PixelBox]
        /// How far the column is scrolled, and the most it scrolls (surface units).
        public var offset: Double
        public var maximumOffset: Double
        /// The page has no text: the page itself shows.
        public var showsPage: Bool
    }
    /// What speech is doing.
    public struct Speech: Equatable, Sendable {
        /// The document is being read aloud.
        public var isOn = false
        /// The page being read (0-based).
        public var page: Int?
        /// The sentence being spoken.
        public var sentence: String?
        /// What the last request to the speech process said, in order (the page's sentences,
        /// after the orientation or the help when there was one).
        public var queue: [String] = []
        /// Sentences are being said (or wait to be: paused).
        public var isSpeaking = false
        public var isPaused = false
        /// espeak-ng's voice ("gmw/en-US").
        public var voice: String?
        /// The speech process's pid, and how many times it was started again after dying.
        public var pid: Int32?
        public var restarts = 0
        /// Why the output cannot be heard, if it cannot.
        public var outputFailure: String?
        /// The volume in percent of the voice's normal (the policy's until a volume key).
        public var volume = 100
        /// Headphones are in the jack (speech goes to them).
        public var headphonesIn = false
        /// Where speech goes: an ALSA device or a WAV file.
        public var output: String?
        /// Seconds of audio written after the last stop (a key interrupting) was asked for.
        public var audioAfterLastStop: Double?
    }
    /// Accessibility mode: a visitor chose a setting that differs from the operator's default
    /// (for now: more time); the idle reset waits longer, and puts it back.
    public var isAccessibilityInUse = false
    /// An animation or fling is running (it moves with the clock).
    public var isAnimating = false
    /// A finger is down, a button held, or a gesture under way.
    public var isInteracting = false
    /// The opening hours: open or closed, the curtain, the next change.
    public var hours = Hours()
    /// Nothing left to do until something happens: no frame or animation pending, no work on
    /// the worker or the render threads, no state or metrics file being written.
    public var isAtRest = false
    /// Policies applied so far (the policy file read at start is the first).
    public var policyGeneration = 0
    /// Why the last change of the policy file was refused (nil once a valid one applied).
    public var policyError: String?
    /// A followed file (policy, document) changed and is read once its writes stop.
    public var hasPendingFileChanges = false
    /// New versions of the document shown since it opened.
    public var documentReloads = 0
    /// Why the last new version of the document was refused (nil once one was shown).
    public var documentReloadError: String?
    /// New versions of the document refused so far (the version on screen stayed).
    public var documentReloadRefusals = 0
    /// Views written to `state.json` so far (`ViewStateStore`: after the first frame, at most
    /// once a second while the view changes, and on exit).
    public var savedViews = 0
    /// What became of the view saved before this start (`ViewStateStore`).
    public var savedView = SavedViewRestore.nothingSaved
    /// What became of the first frame kept at the last run (`FirstFrame`).
    public var firstFrame = FirstFrameCache.none
    /// Home views kept for the next start so far.
    public var firstFramesKept = 0
    /// Where the control socket listens (nil: it does not).
    public var controlSocket: String?
    /// Metrics files written so far (`KioskMetrics`: every 15 s while `metrics.textfile` is set,
    /// and on exit); counted once the file is in place.
    public var metricsWritten = 0
    /// The shelf (several documents) is the screen.
    public var isShelfShown = false
    /// The shelf's documents, in order, where their covers are with the shelf scrolled as now.
    public var shelf: [ShelfCover] = []
    /// How far the shelf is scrolled down, in pixels.
    public var shelfScroll = 0
    /// Pages turn by themselves (the attract loop).
    public var isAttractRunning = false
    /// Pages the attract loop turned since start.
    public var attractAdvances = 0
    /// When the attract loop turns the page next, on the app's clock.
    public var attractDeadline: Double?
    /// How far the page transition on screen is (nil: none is).
    public var transitionProgress: Double?
    /// The banner along the bottom of the last committed frame (nil: none).
    public var banner: String?
    /// The render worker process (nil: MuPDF draws in this process).
    public var renderWorker: RenderWorker?
    /// The contrast the pages and the chrome are shown in.
    public var contrast = Contrast.normal

    /// What became of the first frame kept at the last run.
    public enum FirstFrameCache: Equatable, Sendable {
        /// None was kept, or none for this start's document and view.
        case none
        /// It was the first frame committed.
        case shown
        /// It was not for this start, or not whole (why, as logged).
        case ignored(String)
    }

    /// What became of the view saved before this start.
    public enum SavedViewRestore: Equatable, Sendable {
        /// None was saved (or `state.persist` is off).
        case nothingSaved
        /// The reader started on it: its page (0-based).
        case restored(page: Int)
        /// It was saved for another document, or another version of this one: the start page.
        case otherDocumentOrVersion
        /// The file could not be read or is not a saved view (as logged): the start page.
        case ignored(String)
    }

    /// The render worker process (`render.process = "on"`).
    public struct RenderWorker: Equatable, Sendable {
        /// The running worker's pid (nil between a death and the restart).
        public var pid: Int32?
        /// Workers started after the first (after a crash or an overrun deadline).
        public var restarts: Int
        /// Pages shown as "This page could not be drawn" (0-based), not asked for again.
        public var failedPages: [Int]
        /// Requests the worker is working on now.
        public var requestsInFlight: Int
        /// Tiles it has drawn (its restarts included).
        public var tilesDrawn: Int
    }

    /// A document on the shelf.
    public struct ShelfCover: Equatable, Sendable {
        public var path: String
        /// Its /Info /Title, else its file name.
        public var title: String
        /// Its first page was drawn as its cover.
        public var hasCover: Bool
        /// Why it cannot be opened (its cover says so), nil when it can.
        public var failure: String?
        /// Its cover's box on screen.
        public var box: PixelBox
    }
}

extension KioskStatus {
    /// The opening hours' part (`OpeningSchedule`, `ClosedKiosk`).
    public struct Hours: Equatable, Sendable {
        /// Open now (always, without `[hours]`).
        public var isOpen = true
        /// The show of the open range (or, closed, of the next one), by its name.
        public var show: String?
        /// The curtain is what the window shows.
        public var isCurtainDown = false
        /// A touch lifted the curtain while closed (`hours.wake`).
        public var isAwake = false
        /// The next change in local time ("2026-11-30 08:00"), and as an instant of the wall clock.
        public var nextChange: String?
        public var nextChangeInstant: Double?
        /// Input events not acted on while closed.
        public var ignoredInput = 0
    }
}

extension KioskApp {
    /// What the app shows and does now, for tests and diagnostics.
    public var status: KioskStatus {
        guard let parts else { return KioskStatus() }
        var status = KioskStatus()
        switch parts.session.phase {
        case .opening: status.document = .opening
        case .open: status.document = .open(pageCount: parts.session.reader?.view.pages.count ?? 0)
        case .failed(let failure):
            status.document = .failed(failure.onScreen)
            status.documentError = failure.description
        }
        if let reader = parts.session.reader {
            status.viewState = reader.view.viewState()
            status.zoomScale = reader.view.currentZoomScale
            status.readsRightToLeft = reader.view.configuration.pageBinding == .rightEdge
            status.contentOffset = reader.view.contentOffset
            status.tileRendersStarted = reader.scheduler.startedCount
            status.pageSizesKnown = reader.pageSizesKnown
            status.tileCacheBudget = reader.cache.budget
            status.pagePosition = parts.chrome.positionText(for: reader)
        }
        status.isStopping = loop.isStopping
        status.audit = parts.operations.audits.status
        status.prerenderedPagesServed = parts.operations.audits.prerendered?.served.load(ordering: .relaxed) ?? 0
        status.pagesRequested = parts.session.reader?.pagesRequested ?? []
        status.isUserInterfaceVisible = parts.chrome.isVisible
        status.notice = parts.chrome.notice
        status.pageEntry = parts.chrome.pageEntry
        status.framesCommitted = parts.presenter.frameCount
        (status.frameBuffers, status.frameBuffersBusy) = parts.presenter.buffers
        status.windowSize = parts.presenter.windowSize.map { Size(width: Double($0.width), height: Double($0.height)) }
        status.requestedWindowSize = parts.presenter.requestedWindowSize.map {
            Size(width: Double($0.width), height: Double($0.height))
        }
        status.outputs = parts.display.outputs.keys.sorted()
        status.pagesOnScreen = parts.presenter.pagesOnScreen
        status.banner = parts.presenter.banner
        status.frameDumpError = parts.presenter.frameDumpError
        status.scale = parts.presenter.committedScale.factor
        status.idleResetDeadline = parts.idle.deadline
        status.noticeButton = parts.chrome.noticeAction == nil ? nil : parts.chrome.drawnNoticeButton
        status.isAccessibilityInUse = parts.idle.accessibility.isInUse
        status.speech = parts.presenter.narrator.status
        status.largePrint = parts.presenter.largePrint.status
        let panel = parts.presenter.panel.scene
        status.accessibilityButton = panel?.buttonBox(height: parts.session.screen.height)
        status.accessibilityPanel = panel?.rows
        status.physicalScreen = parts.session.screen.physical(parts.policy.configuration)
        status.chromeMetrics = parts.session.screen.metrics
        status.lowering = parts.session.screen.lowering
        status.isAnimating =
            parts.session.reader?.view.isAnimating ?? false || parts.presenter.transitions.isAnimating
            || parts.navigation.isAnimating
        status.navigation = parts.navigation.status
        status.operatorPanel = parts.operatorPanel.status
        status.mirror = parts.mirror.status
        status.presentations = parts.presenter.presentationStatus
        status.textSelection = parts.selectedText.status
        status.isInteracting = parts.input.isInteracting
        status.isAtRest =
            !parts.presenter.isPending && !parts.session.isBusy && !parts.reloader.isBusy && !parts.home.isBusy
            && !parts.navigation.isBusy && !parts.presenter.largePrint.isBusy && !parts.mirror.isBusy
            && !parts.annotations.isBusy && !parts.operations.isBusy && !parts.presenter.firstFrame.isBusy
        status.annotations = parts.annotations.status(reader: parts.session.reader)
        status.focus = parts.focus.status
        status.language = parts.chrome.language.current
        status.renderWorker = parts.backend.workerStatus.map {
            KioskStatus.RenderWorker(
                pid: $0.pid, restarts: $0.restarts, failedPages: $0.failedPages, requestsInFlight: $0.requestsInFlight,
                tilesDrawn: $0.tilesDrawn)
        }
        status.contrast = parts.contrast.contrast
        status.documentReloads = parts.reloader.reloads
        status.documentReloadError = parts.reloader.lastError
        status.documentReloadRefusals = parts.reloader.refusals
        status.policyGeneration = parts.policy.generation
        status.policyError = parts.policy.lastError?.description
        status.hasPendingFileChanges = parts.files.hasPendingChanges
        status.savedViews = parts.operations.store.writes
        status.savedView = parts.operations.store.restored
        status.firstFrame = parts.presenter.firstFrame.outcome
        status.firstFramesKept = parts.presenter.firstFrame.writes
        status.controlSocket = parts.operations.socket?.listener.path
        status.metricsWritten = parts.operations.metrics.writes
        parts.home.report(into: &status, transitions: parts.presenter.transitions)
        parts.closed.report(into: &status)
        return status
    }
}
