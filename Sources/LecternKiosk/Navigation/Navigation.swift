import LecternCore
import LecternLinux
import LecternRender
import Logging

/// Finding one's way through a document, over the pages: the thumbnail bar (with the chrome),
/// the thumbnail grid, the outline panel, and search with its on-screen keyboard; and the
/// title bar's buttons that open them.
///
/// Input comes here before the chrome and the interaction controller: a finger that goes down
/// on an overlay belongs to it until it lifts (`NavigationPart`). Frames ask for the
/// thumbnails to render (`thumbnails(for:)`) and then for the overlays to draw
/// (`overlays(for:plan:)`), both pure reads of the state here.
final class Navigation {
    let loop: EventLoop
    /// The reader on screen.
    let current: CurrentReader
    let screen: Screen
    let chrome: Chrome
    private let logger: Logger
    let bar: ThumbnailBar
    let grid: ThumbnailGrid
    let outline: OutlinePanel
    let search: Search
    /// The part each touch (or -1: the pointer's button) went down on.
    private var claims: [Int: any NavigationPart] = [:]
    /// Where the pointer is (`InputRouter` keeps it).
    let pointer: Pointer
    private var pinch = PinchToGrid()
    private var titleButtons: [(label: String, name: String, action: (Reader) -> Void)] = []
    /// The pages of the thumbnails the last frame laid out (before clipping).
    private var thumbnailPages: [Int] = []
    /// Asks the components of the title bar's buttons, the thumbnails and pinch-to-grid before
    /// they act (the bar and the grid share it).
    var gate = ChromeGate() {
        didSet {
            bar.gate = gate
            grid.gate = gate
        }
    }
    /// Overlays above these that take touches and clicks first, in order (the annotation bar
    /// and its keyboard, the selection's QR-code button).
    var partsAbove: [(Point) -> (any NavigationPart)?] = []

    init(
        loop: EventLoop, frame: FrameRequest, pointer: Pointer, current: CurrentReader, screen: Screen,
        chrome: Chrome, logger: Logger
    ) {
        self.loop = loop
        self.pointer = pointer
        self.current = current
        self.screen = screen
        self.chrome = chrome
        self.logger = logger
        bar = ThumbnailBar(screen: screen)
        grid = ThumbnailGrid(screen: screen)
        outline = OutlinePanel(loop: loop, frame: frame, screen: screen, logger: logger)
        search = Search(loop: loop, frame: frame, current: current, screen: screen, logger: logger)
        search.coveredBottom = { [unowned self] width, height in
            showsBar ? height - Scene.ThumbnailBar.box(width: width, height: height, metrics: screen.metrics).y : 0
        }
    }

    /// Back to nothing open (the idle reset).
    func reset() {
        claims = [:]
        bar.hide()
        grid.close()
        outline.close()
        search.close()
    }

    /// Stops the search's work (shutdown).
    func close() {
        reset()
        outline.shutdown()
        search.shutdown()
    }

    /// What the overlays show, for `KioskStatus`.
    var status: NavigationStatus {
        var status = NavigationStatus()
        status.isThumbnailBarShown = showsBar
        status.isGridOpen = grid.isOpen
        status.hasOutline = outline.hasEntries
        status.isOutlineOpen = outline.isOpen
        status.outline = outline.visibleTitles
        status.thumbnailsInFrame = thumbnailPages.count
        status.thumbnailPages = thumbnailPages
        status.barOffset = bar.scroll.offset
        status.gridOffset = grid.scroll.offset
        status.outlineOffset = outline.scroll.offset
        status.search = current.reader.flatMap { search.status(for: $0) }
        status.keyboardKeys = search.keyboard?.layout.keys.map(\.label) ?? []
        status.titleButtons = current.reader.map(buttons(for:)) ?? []
        return status
    }

    /// Whether work for the overlays is under way off the loop's thread (a search).
    var isBusy: Bool { search.isBusy || outline.isBusy }

    /// Whether a finger or the pointer's button is on an overlay.
    var isTracking: Bool { !claims.isEmpty }

    /// Whether something in the overlays moves with the clock (a flick of the bar, grid, outline).
    var isAnimating: Bool { bar.scroll.isFlinging || grid.scroll.isFlinging || outline.scroll.isFlinging }

    /// Moves flicks on to `now`; returns whether any still moves.
    func advance(to now: Double) -> Bool {
        let moving = [bar.advance(to: now), grid.advance(to: now), outline.advance(to: now)]
        return moving.contains(true)
    }

    /// The grid covers the screen: the pages under it need not be drawn or rendered.
    var coversPages: Bool { grid.isOpen }

    /// Whether the thumbnail bar shows: with the chrome, unless a panel or the keyboard covers it.
    private var showsBar: Bool { chrome.isVisible && !grid.isOpen && !search.isEditing }

    // MARK: Frames

    /// The title bar's buttons for the open document, and what they do.
    func buttons(for reader: Reader) -> [String] {
        titleButtons = [(tr("Pages"), "pages", { [unowned self] in grid.open(for: $0) })]
        if outline.hasEntries {
            titleButtons.append((tr("Contents"), "contents", { [unowned self] _ in outline.toggle() }))
        }
        titleButtons.append((tr("Search"), "search", { [unowned self] _ in search.open() }))
        // The language button, in the language a tap switches to (its own name).
        if let label = chrome.language.buttonLabel {
            titleButtons.append((label, "language", { [unowned self] _ in chrome.language.switchToNext() }))
        }
        return titleButtons.map(\.label)
    }

    /// The thumbnails the next frame shows, for the tile planner. Brings the bar and grid up
    /// to date with the screen and the reader first.
    func thumbnails(for reader: Reader) -> [TilePlanner.Thumbnail] {
        outline.load(for: reader)
        outline.update()
        let thumbnails: [TilePlanner.Thumbnail]
        if grid.isOpen {
            grid.update(for: reader)
            thumbnails = grid.placements(for: reader).thumbnails
        } else if showsBar {
            bar.update(for: reader)
            thumbnails = bar.placements(for: reader).thumbnails
        } else {
            bar.hide()
            thumbnails = []
        }
        // Every thumbnail laid out, on screen or not: what a frame costs.
        thumbnailPages = thumbnails.map(\.page)
        return thumbnails
    }

    /// The overlays of the next frame, given its plan (which drew the thumbnails).
    func overlays(for reader: Reader, plan: TilePlanner.Plan) -> Scene.Overlays {
        var overlays = Scene.Overlays()
        if grid.isOpen {
            overlays.grid = grid.scene(for: reader, items: plan.thumbnails)
            return overlays
        }
        overlays.highlights = search.highlights(in: plan, reader: reader)
        if showsBar {
            overlays.thumbnailBar = Scene.ThumbnailBar(
                items: plan.thumbnails, current: bar.placements(for: reader).current)
        }
        overlays.outline = outline.scene(for: reader)
        overlays.search = search.bar
        overlays.keyboard = search.keyboard
        return overlays
    }

    // MARK: Input

    /// Handles `event` if it belongs to an overlay; returns whether it did.
    func handle(_ event: InputEvent, reader: Reader) -> Bool {
        if !grid.isOpen, pinch.observe(event, zoomScale: reader.view.currentZoomScale),
            gate.allows(ChromeInteractionContext(control: "pinchToGrid"), reader.view.viewBounds.center)
        {
            logger.debug("pinched the page smaller: the thumbnail grid")
            grid.open(for: reader)
        }
        switch event.kind {
        case .touchDown(let id, let location):
            return begin(id, at: location, time: event.time, reader: reader)
        case .touchMotion(let id, let location):
            guard let part = claims[id] else { return false }
            part.touchMoved(id, to: location, time: event.time, reader: reader)
            return true
        case .touchUp(let id):
            guard let part = claims.removeValue(forKey: id) else { return false }
            part.touchEnded(id, time: event.time, reader: reader)
            return true
        case .touchCancel:
            for (id, part) in claims where id >= 0 { part.touchCancelled(id, reader: reader) }
            claims = claims.filter { $0.key < 0 }
            return false
        case .pointerEnter(let location), .pointerMotion(let location):
            guard let part = claims[-1] else { return false }
            part.touchMoved(-1, to: location, time: event.time, reader: reader)
            return true
        case .pointerLeave:
            claims.removeValue(forKey: -1)?.touchCancelled(-1, reader: reader)
            return false
        case .pointerButton(.left, let pressed):
            if pressed, let location = pointer.location {
                return begin(-1, at: location, time: event.time, reader: reader)
            }
            guard !pressed, let part = claims.removeValue(forKey: -1) else { return false }
            part.touchEnded(-1, time: event.time, reader: reader)
            return true
        case .scroll(let delta, let steps):
            // The wheel belongs to the overlay under the pointer (it scrolls a list, and never
            // turns the pages behind); the pages take it only where no overlay is.
            guard let location = pointer.location, let part = part(at: location, reader: reader) else { return false }
            (part as? ScrollingPart)?.scroll(by: delta, steps: steps)
            return true
        case .key(let key, _):
            return search.handle(key, reader: reader) || grid.handle(key) || outline.handle(key)
        default:
            return false
        }
    }

    /// A finger or the pointer went down at `point`: the topmost overlay under it takes it.
    private func begin(_ id: Int, at point: Point, time: Double, reader: Reader) -> Bool {
        guard let part = part(at: point, reader: reader) else { return false }
        claims[id] = part
        part.touchBegan(id, at: point, time: time, reader: reader)
        return true
    }

    private func part(at point: Point, reader: Reader) -> (any NavigationPart)? {
        let size = screen.size
        let (width, height) = (Int(size.width), Int(size.height))
        for above in partsAbove { if let part = above(point) { return part } }
        if let part = search.part(at: point) { return part }
        if grid.isOpen { return grid.closeButton(at: point) ?? grid }
        if outline.isOpen {
            if Scene.OutlinePanel.box(width: width, height: height, metrics: screen.metrics).contains(point) {
                return outline
            }
            // A touch beside the panel closes it (and does nothing else).
            if !Scene.Chrome.titleBar(width: width, height: height, metrics: screen.metrics).contains(point) {
                return TapTarget { [unowned self] _, _ in outline.close() }
            }
        }
        guard chrome.isVisible else { return nil }
        // After the back button to the shelf, when there is one (as the compositor draws them).
        let leading =
            chrome.hasBack
            ? Scene.Chrome.backButton(width: width, height: height, metrics: screen.metrics.leftToRight).maxX : 0
        for index in titleButtons.indices
        where Scene.Chrome.buttonBox(index, after: leading, metrics: screen.metrics).contains(point) {
            let (name, action) = (titleButtons[index].name, titleButtons[index].action)
            return TapTarget { [gate] point, reader in
                if gate.allowsButton(name, at: point) { action(reader) }
            }
        }
        if showsBar, Scene.ThumbnailBar.box(width: width, height: height, metrics: screen.metrics).contains(point) {
            return bar
        }
        return nil
    }
}
