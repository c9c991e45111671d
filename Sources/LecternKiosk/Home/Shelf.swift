import LecternCore
import LecternDocuments
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The home screen when the policy names several documents: their covers (first pages) with
/// titles in a grid that fits the screen (`ShelfLayout`), scrolling when it does not. A tap on
/// a cover opens that document; the chrome's shelf button (or Escape) and the idle reset come
/// back here.
///
/// Covers are read one document at a time on a worker of their own at utility priority (the
/// open document's tiles go first): it opens the file (in a render worker of its own when the
/// reader's documents are drawn in one), reads its title (/Info /Title, else the file name)
/// and renders page 1 at cover size, then closes it. So
/// a shelf of 20 documents keeps 20 small images and at most one document open besides the
/// one being read. A document that cannot be opened gets a cover that says so, and a tap on
/// it does nothing.
final class Shelf {
    /// One document on the shelf.
    struct Entry {
        var path: String
        var title: String
        var cover: RasterImage?
        var pageSize: Size?
        /// Why it cannot be opened (nil: it can, or it is not read yet).
        var failure: String?
        var isRead = false
    }

    /// The document on screen, and the way to show another.
    let shown: any DocumentShowing
    /// The reader on screen.
    let current: CurrentReader
    /// Where covers are opened and drawn (where the reader's documents are).
    let backend: DocumentBackend
    /// The policy in force.
    let policy: PolicyInForce
    let screen: Screen
    private let logger: Logger
    private let worker: BackgroundWork
    private var generation = 0
    private var requested = false
    /// The size covers are rendered at (set by the first layout).
    private var coverBox = (width: 1, height: 1)
    /// The contrast the covers are drawn in: another one reads them again.
    private var coverContrast = Contrast.normal
    private(set) var entries: [Entry] = []
    /// The shelf is on screen (else the open document is).
    private(set) var isShown = false
    /// How far the grid is scrolled down, in pixels.
    private(set) var scroll = 0
    /// The document being opened from the shelf (the shelf stays until its page is drawn).
    private(set) var opening: Int?
    /// The document shown before it (it stays open if the new one fails).
    private var previousPath: String?
    /// A touch or the pointer (-1) on the shelf: where it went down, the scroll then, and
    /// whether it moved far enough to scroll rather than tap.
    private var press: (id: Int, start: Point, scroll: Int, moved: Bool)?
    /// Where the pointer is (`InputRouter` keeps it).
    let pointer: Pointer
    /// Asked for when what the shelf shows changed.
    let frame: FrameRequest

    /// How far a finger moves before a touch scrolls the shelf instead of opening a cover.
    static let slop = 16.0

    init(
        shown: any DocumentShowing, current: CurrentReader, backend: DocumentBackend, policy: PolicyInForce,
        screen: Screen, frame: FrameRequest, pointer: Pointer, loop: EventLoop, logger: Logger
    ) {
        self.pointer = pointer
        self.shown = shown
        self.current = current
        self.backend = backend
        self.frame = frame
        self.policy = policy
        self.screen = screen
        self.logger = logger
        worker = BackgroundWork(label: "lectern.covers", qos: .utility, loop: loop)
        setDocuments(policy.configuration.shelfPaths(in: policy.language))
        policy.observe { [unowned self] _, new in setDocuments(new.shelfPaths(in: Translation.language.code)) }
    }

    /// Stops taking covers (shutdown); a cover being read is abandoned.
    func close() {
        worker.abandon()
        generation += 1
    }

    /// The chrome's language changed: the shelf's versions in it (`[[shelf]] documents`).
    func languageChanged() {
        setDocuments(policy.configuration.shelfPaths(in: Translation.language.code))
    }

    /// Puts `paths` on the shelf (at start, and when the policy changes them); an empty list
    /// (one document) hides it for good.
    func setDocuments(_ paths: [String]) {
        guard paths != entries.map(\.path) else { return }
        generation += 1
        requested = false
        entries = paths.map { Entry(path: $0, title: policy.configuration.shelfTitle(of: $0) ?? fileName($0)) }
        isShown = !paths.isEmpty
        scroll = 0
        opening = nil
        frame.request()
    }

    /// Comes back to the shelf (scrolled to the top after an idle reset).
    func show(scrolledToTop: Bool = false) {
        guard !entries.isEmpty else { return }
        isShown = true
        if scrolledToTop { scroll = 0 }
        press = nil
        frame.request()
    }

    /// The document opened: the shelf gives way to it if it was opened from here.
    func documentOpened() {
        guard opening != nil else { return }
        opening = nil
        previousPath = nil
        isShown = false
        frame.request()
    }

    /// The document asked for could not be shown: its cover says so from now on.
    func documentFailed(_ reason: String) {
        guard let index = opening else { return }
        opening = nil
        entries[index].failure = reason
        if let previousPath { shown.keepShowing(previousPath) }
        frame.request()
    }

    /// Opens document `index`: at once when it is the one open, else on the reloader's worker
    /// (the shelf stays until its first page is drawn).
    func open(_ index: Int) {
        let entry = entries[index]
        guard entry.failure == nil else {
            logger.info("\(entry.path) cannot be opened: its cover says so")
            return
        }
        logger.info("opening \(entry.path) from the shelf")
        if shown.documentPath == entry.path, let reader = current.reader {
            reader.view.stopAnimations()
            try? reader.view.goToPage(min(policy.startPage, reader.view.pages.count - 1))
            isShown = false
            frame.request()
            return
        }
        previousPath = current.reader == nil ? nil : shown.documentPath
        opening = index
        shown.show(path: entry.path, page: policy.startPage)
    }

    /// Whether a cover is still being read.
    var isBusy: Bool { worker.isBusy }

    // MARK: Covers

    /// Asks for every cover, sized for `layout` (the first layout: later sizes scale them), one
    /// after the other.
    private func requestCovers(for layout: ShelfLayout) {
        if requested, coverContrast != screen.contrast {
            // Drawn again in the new contrast; the old covers stay until the new ones arrive.
            generation += 1
            requested = false
        }
        guard !requested else { return }
        requested = true
        coverContrast = screen.contrast
        coverBox = (width: layout.coverWidth, height: layout.coverHeight)
        requestCover(0)
    }

    /// Asks for cover `index`: the document is opened where the reader's are (with the render
    /// worker on, in a worker of its own, under the same deadline), read, and let go.
    private func requestCover(_ index: Int) {
        guard entries.indices.contains(index) else { return }
        let path = entries[index].path, generation = generation, box = coverBox, contrast = coverContrast
        let open = backend.opener(path: path, password: policy.password, startPage: 0)
        worker.submit {
            Self.readCover(open, path: path, box: box, contrast: contrast, index: index, generation: generation)
        } then: { [unowned self] in
            handle($0)
        }
    }

    private func handle(_ result: CoverResult) {
        if let document = result.document { backend.release(document) }
        guard result.generation == generation, entries.indices.contains(result.index) else { return }
        requestCover(result.index + 1)
        var entry = entries[result.index]
        entry.isRead = true
        if let title = result.title, policy.configuration.shelfTitle(of: entry.path) == nil { entry.title = title }
        entry.pageSize = result.pageSize
        entry.cover = result.image
        entry.failure = result.failure
        if let failure = result.failure { logger.error("shelf: \(failure)") }
        entries[result.index] = entry
        frame.request()
    }

    // MARK: What the shelf shows

    /// The grid for a screen of `width` × `height`.
    func layout(width: Int, height: Int) -> ShelfLayout {
        // Titles in the chrome's text size for this screen (`titleLines` lines of it, and room).
        var layout = ShelfLayout(
            screenWidth: width, screenHeight: height, count: entries.count,
            titleHeight: 12 + ShelfLayout.titleLines * screen.metrics.textSize * 5 / 4 + 8)
        // A right-to-left language's shelf runs from the right, as its chrome does.
        layout.isRightToLeft = screen.metrics.mirroredWidth != nil
        return layout
    }

    /// The frame: each visible cover as a page (white until it is rendered, a card saying so
    /// when it cannot be opened) with its title under it; `notice` along the bottom.
    func scene(width: Int, height: Int, notice: String?) -> Scene {
        let layout = layout(width: width, height: height)
        requestCovers(for: layout)
        scroll = layout.clamp(scroll: scroll)
        var scene = Scene(width: width, height: height)
        scene.metrics = screen.metrics
        let screen = PixelBox(x: 0, y: 0, width: width, height: height)
        for index in layout.visibleIndices(scroll: scroll) {
            let entry = entries[index]
            if let failure = entry.failure {
                let box = layout.coverBox(index, scroll: scroll)
                scene.pages.append(
                    Scene.PageItem(
                        page: index, frame: box, clip: screen,
                        layers: [.init(.fill(Palette(self.screen.contrast).card), rect: box.rect)]))
                scene.labels.append(
                    .init(tr("This document cannot be opened"), in: box.insetBy(dx: 12, dy: 24), isError: true))
                logger.trace("shelf: \(entry.path): \(failure)")
            } else {
                let frame = layout.coverFrame(
                    index, pageSize: entry.pageSize ?? Size(width: 3, height: 4), scroll: scroll)
                let layers = entry.cover.map { [Scene.Layer(.image($0), rect: frame.rect)] } ?? []
                scene.pages.append(Scene.PageItem(page: index, frame: frame, clip: screen, layers: layers))
            }
            scene.labels.append(
                .init(entry.title, in: layout.titleBox(index, scroll: scroll), maxLines: ShelfLayout.titleLines))
        }
        scene.banner = notice
        return scene
    }

    /// Scrolls the shelf so that cover `index` (with its title) is wholly on screen (keypad focus).
    func scrollToShow(_ index: Int) {
        let layout = layout(width: screen.width, height: screen.height)
        let box = layout.coverBox(index).union(layout.titleBox(index))
        if box.y < scroll {
            scroll = layout.clamp(scroll: box.y - 16)
        } else if box.maxY > scroll + screen.height {
            scroll = layout.clamp(scroll: box.maxY + 16 - screen.height)
        }
        frame.request()
    }

    /// The documents and where their covers are now (`KioskStatus.shelf`).
    var covers: [KioskStatus.ShelfCover] {
        let layout = layout(width: screen.width, height: screen.height)
        return entries.enumerated().map { index, entry in
            KioskStatus.ShelfCover(
                path: entry.path, title: entry.title, hasCover: entry.cover != nil, failure: entry.failure,
                box: layout.coverBox(index, scroll: scroll))
        }
    }

    // MARK: Input

    /// Handles `event` while the shelf is shown (it takes every event then); returns whether it did.
    func handle(_ event: InputEvent) -> Bool {
        guard isShown else { return false }
        switch event.kind {
        case .touchDown(let id, let location) where press == nil:
            press = (id, location, scroll, false)
        case .touchMotion(let id, let location) where press?.id == id:
            drag(to: location)
        case .touchUp(let id) where press?.id == id:
            release()
        case .touchCancel:
            press = nil
        case .pointerEnter(let location), .pointerMotion(let location):
            if press?.id == -1 { drag(to: location) }
        case .pointerButton(.left, true) where press == nil:
            press = (-1, pointer.location ?? .zero, scroll, false)
        case .pointerButton(.left, false) where press?.id == -1:
            release()
        case .scroll(let delta, _):
            scroll += Int(delta.y.rounded())
            frame.request()
        default:
            break
        }
        return true
    }

    private func drag(to location: Point) {
        guard var press else { return }
        let dy = location.y - press.start.y
        if !press.moved, abs(dy) < Self.slop, abs(location.x - press.start.x) < Self.slop { return }
        press.moved = true
        self.press = press
        scroll = press.scroll - Int(dy.rounded())
        frame.request()
    }

    private func release() {
        defer { press = nil }
        guard let press, !press.moved, opening == nil, case let size = screen.size,
            let index = layout(width: Int(size.width), height: Int(size.height)).index(at: press.start, scroll: scroll)
        else { return }
        open(index)
    }
}

extension PixelBox {
    /// The same box as a `Rect` (for a scene's layers).
    fileprivate var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}
