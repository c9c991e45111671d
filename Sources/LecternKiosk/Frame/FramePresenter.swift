import LecternCore
import LecternLinux
import LecternRender
import LecternWayland
import Logging

/// Frames on the compositor's clock: the fullscreen window, its shm buffers, the Pixman frame
/// compositor and the frame dump.
///
/// Anything that changes what is on screen asks for a frame (`FrameRequest.request()`), which
/// only records it; a frame is drawn at the end of a loop iteration when no frame callback is
/// outstanding (the callback's arrival ends an iteration too). Drawing plans the tiles, builds
/// the scene (a pure function of state: `ReaderScene`), and commits only what changed.
final class FramePresenter {
    let loop: EventLoop
    /// The request for the next frame, which every part that changes the screen sets.
    let frame: FrameRequest
    let session: DocumentSession
    /// The policy in force.
    let policy: PolicyInForce
    let chrome: Chrome
    let shelf: Shelf
    /// The attract loop's page transitions.
    let transitions: TransitionPlayer
    let navigation: Navigation
    let selectedText: SelectedText
    /// Reads the document aloud: it follows the page before each frame, and its sentence is
    /// highlighted.
    let narrator: Narrator
    /// The accessibility button and its panel, drawn over the pages.
    let panel: AccessibilityPanel
    /// The page's text in one column, large, instead of the page.
    let largePrint: LargePrint
    let annotations: Annotations
    /// The screen's size, scale and contrast.
    let screen: Screen
    let window: XdgToplevel
    let pool: ShmBufferPool
    let frameCompositor: FrameCompositor
    /// The pages on a subsurface that pans move (nil: the compositor lacks a protocol for it).
    let panSurface: PanSurface?
    let dumper: FrameDumper?
    let logger: Logger
    /// The home view kept across restarts: shown at the first configure, kept when drawn.
    let firstFrame: FirstFrame

    /// A retry for an animation frame that had nothing new to show.
    private var animationTimer: EventLoop.Timer?
    private lazy var callbackWatchdog = FrameCallbackWatchdog(
        window: window, loop: loop, logger: logger, name: "window")
    private var committedSize: (width: Int, height: Int)?
    /// The scale of the last committed frame.
    private(set) var committedScale = DisplayScale.one
    private var lastSharpPages: [Int] = []
    /// The page whose large print the log said was committed last.
    private var lastLargePrintPage: Int?
    private var firstBufferPrefaulted = false
    /// Frames committed so far.
    private(set) var frameCount = 0
    /// The banner of the last committed frame ("This page could not be drawn."), for status.
    private(set) var banner: String?
    /// A page has been on screen.
    private(set) var hasShownPage = false
    /// The pages the last committed frame showed, where, and whether each was drawn sharp.
    private(set) var pagesOnScreen: [KioskStatus.PageOnScreen] = []
    /// The keypad focus's ring for a frame of the reader and its plan (nil: the shelf) at a scale
    /// (`KeypadFocus`).
    var focusRing: ((Reader?, TilePlanner.Plan?, DisplayScale) -> Scene.FocusRing?)?
    /// The operator's panel while it is open (drawn as the contents panel is).
    var operatorOverlay: (() -> Scene.OutlinePanel?)?
    /// Called when an animation or fling played out (the idle countdown starts then).
    var onAnimationEnd: (() -> Void)?
    /// Called after each commit (systemd hears READY=1 after the first) with the seconds since
    /// the change it shows was asked for (the metrics' frame latency).
    var onCommit: ((_ latency: Double) -> Void)?
    /// Called when a frame that shows what an input did reached the screen, with the seconds
    /// from the input (the compositor's time) to then (`wp_presentation`; the metrics).
    var onPresented: ((_ input: FrameInput.Kind, _ seconds: Double) -> Void)?
    /// Frames the compositor said it presented or discarded, and the last input→present time
    /// (with the percentiles: `presentationStatus`).
    var presentations = KioskStatus.Presentations()
    let display: Display
    let latencies = InputLatencies()
    /// The buffer of the last committed frame: what the screen shows (for a screenshot). Weak:
    /// the pool destroys a buffer of a size no longer wanted.
    private(set) weak var lastCommitted: ShmBuffer?

    init(
        display: Display, loop: EventLoop, frame: FrameRequest, session: DocumentSession, policy: PolicyInForce,
        screen: Screen, chrome: Chrome, navigation: Navigation, annotations: Annotations, shelf: Shelf,
        transitions: TransitionPlayer, selectedText: SelectedText, narrator: Narrator, panel: AccessibilityPanel,
        largePrint: LargePrint, dumper: FrameDumper?, firstFrame: FirstFrame, window: XdgToplevel,
        pool: ShmBufferPool, keptFrame: ShmBuffer?, logger: Logger
    ) {
        self.firstFrame = firstFrame
        self.largePrint = largePrint
        self.narrator = narrator
        self.panel = panel
        self.screen = screen
        self.annotations = annotations
        self.selectedText = selectedText
        self.loop = loop
        self.frame = frame
        self.session = session
        self.policy = policy
        self.chrome = chrome
        self.shelf = shelf
        self.transitions = transitions
        self.navigation = navigation
        self.dumper = dumper
        self.logger = logger
        self.display = display
        self.window = window
        self.pool = pool
        frameCompositor = FrameCompositor(logger: logger)
        panSurface =
            policy.configuration.pansOnSubsurface ? PanSurface(window: window, display: display, logger: logger) : nil
        if !policy.configuration.pansOnSubsurface {
            logger.info("pans: whole frames (render.pans)")
        } else if panSurface == nil {
            logger.info("pans: whole frames (the compositor offers no wl_subcompositor or no wp_viewporter)")
        } else {
            logger.info(
                "pans: the pages on a subsurface at scale 1 (wl_subcompositor, wp_viewporter)\(window.canCommitClear ? "; no chrome: one transparent pixel (wp_single_pixel_buffer_v1)" : "")"
            )
        }
        window.onConfigure = { [unowned self] _, _ in configured() }
        // A policy that gives other millimetres or another mounting: the chrome is sized and
        // placed for them at once.
        policy.observe { [unowned self, unowned display] _, _ in
            guard screen.hasSize else { return }
            measureScreen(display)
            frame.request()
        }
        window.onClose = { [logger] in logger.info("the compositor asked to close the window; a kiosk stays open") }
        // The window moved to a denser screen (or the screen's scale changed): the same layout,
        // drawn with more pixels; the tiles of the new size are rendered for it.
        screen.scale = window.scale
        window.onScaleChange = { [unowned self, unowned screen] in
            screen.scale = self.window.scale
            frame.request()
        }
        // Configured already, the kept frame committed then (`FirstFrame.commitEarly`).
        if window.size != nil { configured(keptFrame: keptFrame) }
    }

    /// Whether a frame is still to be drawn (or an animation to be played out).
    var isPending: Bool {
        if isClosed { return !window.isCurtainDown && window.size != nil }
        return frame.isRequested || (session.reader?.view.isAnimating ?? false) || transitions.isActive
            || navigation.isAnimating
    }

    /// Closed (`ClosedKiosk`): the window shows the curtain and nothing is drawn; the first frame
    /// after is drawn and damaged whole.
    var isClosed = false {
        didSet {
            guard isClosed != oldValue else { return }
            // The curtain replaces the chrome's buffer: the pages' surface starts again after it.
            leavePanning()
            if !isClosed { frameCompositor.forgetLastScene() }
            animationTimer?.cancel()
            frame.request()
        }
    }

    /// Whether the curtain is what the window shows.
    var isCurtainDown: Bool { window.isCurtainDown }

    /// The curtain is on screen: the frame dump shows it (black, the window's size), the log
    /// says so, and a screenshot is refused (nothing of the page is on screen).
    private func curtainCommitted() {
        lastCommitted = nil
        guard let (width, height) = window.bufferSize else { return }
        logger.info("curtain committed \(width)x\(height)")
        guard let dumper else { return }
        let black = [UInt32](repeating: 0xFF00_0000, count: width * height)
        black.withUnsafeBytes {
            dumper.frameCommitted(pixels: $0.baseAddress!, width: width, height: height, stride: width * 4)
        }
    }

    /// Called when the curtain was committed (systemd hears READY=1 then, if no page was shown).
    var onCurtain: (() -> Void)?

    /// Draws a frame if one is needed and the compositor is ready for it (loop idle handler);
    /// closed, the curtain once (again after a resize).
    func drawIfNeeded() {
        if isClosed {
            frame.take()
            frame.dropped()
            if !window.isCurtainDown, window.lowerCurtain() {
                curtainCommitted()
                onCurtain?()
            }
            return
        }
        guard frame.isRequested, !window.isWaitingForFrame, let size = window.size else {
            if frame.isRequested { callbackWatchdog.frameWanted() }
            prefaultFirstBuffer()
            return
        }
        frame.take()
        // Lowered: the reader's frame is the window less the band at its top (`Screen.lowering`).
        draw(size: (size.width, size.height - screen.lowering), scale: window.scale)
        prefaultFirstBuffer()
    }

    /// Draws a frame of `size` surface units at `scale`.
    private func draw(size: (width: Int, height: Int), scale: DisplayScale) {
        let pixels = (width: scale.pixels(size.width), height: scale.pixels(size.height))
        // The shelf hides the document: nothing of it is planned or rendered then.
        let reader = shelf.isShown ? nil : session.reader
        var animating = false
        if let reader, reader.view.isAnimating {
            if policy.transition == .none { reader.view.finishPageTurn() }
            animating = reader.view.advanceAnimations(to: loop.clock.now)
            if !animating { onAnimationEnd?() }
        }
        if navigation.isAnimating {
            let moving = navigation.advance(to: loop.clock.now)
            if !moving { onAnimationEnd?() }
            animating = animating || moving
        }
        narrator.update()
        // Large print covers the pages: none are planned under it.
        let column = reader.flatMap { navigation.coversPages ? nil : largePrint.scene(for: $0) }
        // Pages a pan can move (`PanSurface`) are planned with a margin around the window.
        let margin = reader == nil || column != nil ? nil : panMargin(pixels: pixels, scale: scale)
        let plan = reader.map { reader in
            reader.plan(
                size: pixels, prefetching: hasShownPage && column == nil,
                thumbnails: shelf.isShown ? [] : navigation.thumbnails(for: reader),
                showsPages: shelf.isShown || (!navigation.coversPages && column == nil), transition: policy.transition,
                scale: scale, contrast: screen.contrast, margin: margin ?? (0, 0))
        }
        var next: Scene?
        if shelf.isShown {
            next = shelf.scene(width: size.width, height: size.height, notice: chrome.notice)
            next?.placePages(at: scale)
            next?.overlays.focusRing = focusRing?(nil, nil, scale)
        } else {
            var state = sceneState(size: size, scale: scale, plan: plan)
            state.largePrint = column
            state.notice = state.notice ?? largePrint.notice
            next = state.scene()
        }
        next?.palette = Palette(screen.contrast)
        // Planned with a margin: the scene beyond the window (the pages' surface), and cut to it.
        let planned = margin == nil ? nil : next
        if margin != nil { next = next.map(PanSurface.windowScene) }
        guard let next,
            let scene = transitions.frame(for: next, isSharp: plan?.isSharp ?? true, now: loop.clock.now)
        else { return }
        animating = animating || transitions.isAnimating
        if let margin, let planned, let reader,
            commitPanned(
                planned, window: scene, margin: margin, plan: plan, reader: reader, size: pixels, animating: animating)
        {
            return
        }
        leavePanning()
        guard frameCompositor.damage(for: scene) != nil else {
            // The frame on screen is this scene (its page sizes came, the same).
            if let reader, let buffer = lastCommitted { keepIfHome(scene, plan: plan, reader: reader, in: buffer) }
            // Nothing new to show: an animation still needs to come back next frame time.
            if animating { scheduleAnimationFrame() }
            frame.dropped(keepsInput: animating)  // the animation's timer asks again
            return
        }
        // The band above the scene fills the window: a scene of the window's height (one drawn
        // before the reading area was lowered, still shown by a transition) has none, and the
        // buffer is never taller than the window.
        let windowHeight = scale.pixels(size.height + screen.lowering)
        let band = (height: max(0, windowHeight - scene.pixelHeight), colour: Palette(screen.contrast).background)
        let shown = ShownInput()
        let commit = window.commit(
            scene, drawnBy: frameCompositor, from: pool, below: band, logger: logger,
            presented: { [weak self] in self?.presented($0, showing: shown.input) })
        guard let buffer = commit.buffer else {
            if commit.allBusy { frame.request() }  // a release wakes the loop
            return
        }
        didCommit(
            scene, buffer: buffer, plan: plan, reader: reader, size: pixels, scale: scale, animating: animating,
            shown: shown)
    }

    /// The bookkeeping after `scene` was committed (in `buffer`; nil: by the `PanSurface`).
    func didCommit(
        _ scene: Scene, buffer: ShmBuffer?, plan: TilePlanner.Plan?, reader: Reader?,
        size pixels: (width: Int, height: Int),
        scale: DisplayScale, animating: Bool, shown: ShownInput
    ) {
        shown.input = frame.takeInput()
        transitions.committed(scene)
        firstFrame.replaced()
        banner = scene.banner
        chrome.drawnNoticeButton = frameCompositor.bannerButtonBox(in: scene)
        frameCount += 1
        lastCommitted = buffer
        let latency = frame.shown()
        // An animation's next frame is asked for by this one.
        if animating { frame.request() }
        pagesOnScreen = (shelf.isShown ? [] : scene.pages).map { item in
            KioskStatus.PageOnScreen(
                page: item.page, frame: item.frame, visible: item.frame.intersection(item.clip),
                isSharp: plan?.sharpPages.contains(item.page) ?? false)
        }
        let showsPage = scene.pages.contains { !$0.layers.isEmpty }
        if let column = scene.largePrint, !column.lines.isEmpty, let page = reader?.view.dominantPage(),
            page != lastLargePrintPage
        {
            lastLargePrintPage = page
            logger.info("large print frame committed (page \(page + 1)) at \(session.elapsedMilliseconds) ms")
        }
        logCommit(size: pixels, scale: scale, plan: plan, firstPage: showsPage ? scene.pages.first?.page : nil)
        committedSize = pixels
        committedScale = scale
        if showsPage, !shelf.isShown {
            hasShownPage = true
            session.pagesShown(plan?.sharpPages ?? [])
        }
        if let buffer {
            dumper?.frameCommitted(
                pixels: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
            if let reader { keepIfHome(scene, plan: plan, reader: reader, in: buffer) }
        } else {
            dumpPanned()
        }
        onCommit?(latency)
    }

    /// A configure: the screen's size, and a frame asked for. At the first: the frame kept at
    /// the last run, when it is this window's (`committed` already: `FirstFrame.commitEarly`;
    /// the live frame replaces it once it is sharp: `ReaderScene.showsPartialPages`).
    private func configured(keptFrame committed: ShmBuffer? = nil) {
        guard let size = window.size else { return }
        logger.trace("configured \(size.width)x\(size.height) at \(session.elapsedMilliseconds) ms")
        screen.resize(to: Size(width: Double(size.width), height: Double(size.height)))
        measureScreen(display)
        frame.request()
        guard frameCount == 0, !isClosed, let pixels = window.bufferSize,
            let buffer = committed
                ?? firstFrame.take(width: pixels.width, height: pixels.height, scale: window.scale).flatMap({
                    window.commit($0, from: pool, logger: logger)
                })
        else { return }
        firstFrame.shown()
        frameCompositor.forgetLastScene()
        frameCount += 1
        lastCommitted = buffer
        logger.info("kept first frame committed \(pixels.width)x\(pixels.height) at \(session.elapsedMilliseconds) ms")
        dumper?.frameCommitted(pixels: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
    }

    private func sceneState(
        size: (width: Int, height: Int), scale: DisplayScale, plan: TilePlanner.Plan?
    ) -> ReaderScene {
        let document: ReaderScene.Document
        // The kept first frame stays until the page is sharp: no "Opening…", no partial page.
        let isLate = session.isFirstFrameLate && !firstFrame.isOnScreen
        switch session.phase {
        case .opening:
            document = .opening(title: fileName(session.documentPath), isLate: isLate)
        case .failed(let failure):
            document = .failed(failure)
        case .open:
            document = .open(plan ?? TilePlanner.Plan(), wasRepaired: session.reader?.document.wasRepaired == true)
        }
        var chromeScene = session.reader.flatMap { chrome.scene(for: $0) }
        var overlays = Scene.Overlays()
        var textSelection: Scene.TextSelection?
        if let reader = session.reader, let plan {
            chromeScene?.buttons = navigation.buttons(for: reader)
            overlays = navigation.overlays(for: reader, plan: plan)
            overlays.highlights += narrator.highlights(in: plan, reader: reader)
            textSelection = selectedText.overlay(for: reader, plan: plan, size: size, scale: scale)
            if !navigation.coversPages { annotations.decorate(&overlays, reader: reader, plan: plan) }
            overlays.focusRing = focusRing?(reader, plan, scale)
            if let operatorPanel = operatorOverlay?() { overlays.outline = operatorPanel }
        }
        return ReaderScene(
            width: size.width, height: size.height, scale: scale, metrics: screen.metrics, document: document,
            chrome: chromeScene,
            notice: chrome.notice, noticeAction: chrome.noticeAction, accessibility: panel.scene,
            qrCode: chrome.qrCode, overlays: overlays, textSelection: textSelection,
            showsPartialPages: hasShownPage || isLate || navigation.coversPages,
            waitsForThumbnails: firstFrame.isOnScreen && !session.isFirstFrameLate)
    }

    /// Comes back soon for an animation whose frame showed nothing new. A page turn starts at
    /// the tap, so its first frame, drawn in the same turn of the loop, still shows the old
    /// page; waiting a whole 60 Hz frame for the next try kept the turn still for a frame after
    /// the tap. A quarter frame later the eased turn has moved by pixels. A frame that changes
    /// waits for the compositor's frame callback as usual, so this never outpaces the screen.
    func scheduleAnimationFrame() {
        guard animationTimer?.isScheduled != true else { return }
        animationTimer = loop.schedule(after: 1.0 / 240) { [unowned self] in
            animationTimer = nil
            frame.request()
        }
    }

    /// Logs a commit of a new size or scale, or the first to show a page: `firstPage`, the first
    /// page in the window (not in the margin a `PanSurface` frame is planned with).
    private func logCommit(
        size: (width: Int, height: Int), scale: DisplayScale, plan: TilePlanner.Plan?, firstPage: Int?
    ) {
        if committedSize.map({ $0 != size }) ?? true || scale != committedScale || (firstPage != nil && !hasShownPage) {
            let page = firstPage.map { " (page \($0 + 1))" } ?? ""
            let density = scale == .one ? "" : " at scale \(scale)"
            logger.info(
                "frame committed \(size.width)x\(size.height)\(density)\(page) at \(session.elapsedMilliseconds) ms")
        }
        if let plan, plan.isSharp, plan.sharpPages != lastSharpPages {
            lastSharpPages = plan.sharpPages
            logger.debug(
                "sharp frame committed: pages \(plan.sharpPages.map { String($0 + 1) }.joined(separator: ",")) at \(session.elapsedMilliseconds) ms"
            )
        }
    }

    /// Faults in the first frame's memory while the first page renders (after it was asked
    /// for), instead of page by page as the frame is drawn. Only a new buffer: one that holds a
    /// frame (the shelf, "Opening…") is faulted in already.
    private func prefaultFirstBuffer() {
        guard !hasShownPage, !firstBufferPrefaulted, session.reader != nil, let size = window.bufferSize,
            let buffer = try? pool.acquire(width: size.width, height: size.height)
        else { return }
        firstBufferPrefaulted = true
        if buffer.age == 0 { buffer.prefault() }
    }

    /// Writes the last frame dump and waits for it (shutdown).
    deinit {
        panSurface?.destroy()
    }

    func close() {
        animationTimer?.cancel()
        callbackWatchdog.close()
        window.onConfigure = nil
        window.onScaleChange = nil
        dumper?.flush()
    }
}
