import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The outline (bookmarks) in a panel along the left edge, opened by the title bar's Contents
/// button (there is none when the document has no outline). Entries nest, indented; a tap on
/// an entry's triangle opens or closes it, a tap on the entry goes to its page and closes the
/// panel, as do a tap beside the panel and Escape. A finger scrolls a long outline.
///
/// The outline is read once per document on a worker of its own (`fz_load_outline` through
/// the shim), after the page sizes: the page tree is walked by then.
final class OutlinePanel: ScrollingPanel {
    let screen: Screen
    private let logger: Logger
    private let worker: BackgroundWork
    /// The reader whose outline is read (or being read).
    private weak var loadedReader: Reader?
    private(set) var tree = OutlineTree([])
    private var expanded: Set<Int> = []
    /// The entries shown, in order (follows `expanded`).
    private var visible: [Int] = []
    /// Asked for when the outline arrived.
    let frame: FrameRequest

    init(loop: EventLoop, frame: FrameRequest, screen: Screen, logger: Logger) {
        self.frame = frame
        self.screen = screen
        self.logger = logger
        worker = BackgroundWork(label: "lectern.outline", qos: .userInitiated, loop: loop)
        super.init(axis: .vertical)
    }

    /// Stops watching the worker (shutdown); a read still running is abandoned.
    func shutdown() {
        worker.abandon()
    }

    var hasEntries: Bool { !tree.isEmpty }

    /// Whether the outline is being read.
    var isBusy: Bool { worker.isBusy }

    /// The visible entries' titles, two spaces of indent a level (for the status).
    var visibleTitles: [String] {
        visible.map { String(repeating: "  ", count: tree.entries[$0].depth) + tree.entries[$0].title }
    }

    /// Reads the reader's outline on the worker, once its page sizes are known.
    func load(for reader: Reader) {
        guard reader !== loadedReader, reader.pageSizesKnown else { return }
        loadedReader = reader
        tree = OutlineTree([])
        visible = []
        let pdf = reader.document, id = ObjectIdentifier(reader)
        worker.submit { [logger] in
            do {
                return try pdf.outline()
            } catch {
                logger.warning("\(error)")
                return []
            }
        } then: { [unowned self] in
            loaded($0, for: id)
        }
    }

    private func loaded(_ entries: [OutlineEntry], for reader: ObjectIdentifier) {
        guard let current = loadedReader, ObjectIdentifier(current) == reader else { return }
        tree = OutlineTree(entries.map { .init(title: $0.title, page: $0.page, depth: $0.depth) })
        expanded = Set(entries.indices.filter { entries[$0].isOpen })
        visible = tree.visibleEntries(expanded: expanded)
        if !entries.isEmpty { logger.info("the outline has \(entries.count) entries") }
        frame.request()
    }

    /// Opens or closes the panel.
    func toggle() {
        if isOpen { close() } else if !tree.isEmpty { show() }
    }

    private var box: PixelBox {
        Scene.OutlinePanel.box(width: screen.width, height: screen.height, metrics: screen.metrics)
    }

    /// Fits the scroll range to the entries shown and the screen (before each frame).
    func update() {
        let rowHeight = Double(Scene.OutlinePanel.rowHeight(screen.metrics))
        scroll.setBounds(0...max(0, Double(visible.count) * rowHeight - Double(box.height)))
    }

    /// The panel as drawn: the rows in view.
    func scene(for reader: Reader) -> Scene.OutlinePanel? {
        guard isOpen else { return nil }
        let rowHeight = Double(Scene.OutlinePanel.rowHeight(screen.metrics))
        let first = max(0, Int(scroll.offset / rowHeight))
        let last = min(visible.count, Int(((scroll.offset + Double(box.height)) / rowHeight).rounded(.up)))
        let current = tree.entry(forPage: reader.view.dominantPage(), among: visible)
        let rows = (first..<max(first, last)).map { row -> Scene.OutlinePanel.Row in
            let index = visible[row]
            let entry = tree.entries[index]
            let disclosure: Scene.OutlinePanel.Disclosure =
                tree.hasChildren(index) ? (expanded.contains(index) ? .open : .closed) : .none
            return .init(
                title: entry.title, page: entry.page.map { reader.document.label(forPage: $0) ?? "\($0 + 1)" } ?? "",
                depth: entry.depth, disclosure: disclosure, isCurrent: index == current,
                y: box.y + Int((Double(row) * rowHeight - scroll.offset).rounded()))
        }
        return Scene.OutlinePanel(rows: rows)
    }

    // MARK: Input

    override func tapped(at tap: Point, reader: Reader) {
        let row = Int((tap.y - Double(box.y) + scroll.offset) / Double(Scene.OutlinePanel.rowHeight(screen.metrics)))
        guard row >= 0, row < visible.count else { return }
        let index = visible[row]
        let entry = tree.entries[index]
        let triangleEnd = Scene.OutlinePanel.disclosureEnd(in: box, depth: entry.depth, metrics: screen.metrics)
        let onTriangle = screen.metrics.mirroredWidth == nil ? tap.x < Double(triangleEnd) : tap.x > Double(triangleEnd)
        if tree.hasChildren(index), onTriangle || entry.page == nil {
            return toggle(row: row)
        }
        guard let page = entry.page, page < reader.view.pages.count else { return }
        logger.debug("outline: \(entry.title) → page \(page + 1)")
        reader.view.stopAnimations()
        try? reader.view.goToPage(page)
        close()
    }

    // MARK: Keypad focus

    /// The entries shown, in order: the title, the page's label, and whether it opens (nil: it
    /// has no entries under it).
    func rows(for reader: Reader) -> [(title: String, page: String, isOpen: Bool?)] {
        visible.map { index in
            let entry = tree.entries[index]
            return (
                entry.title, entry.page.map { reader.document.label(forPage: $0) ?? "\($0 + 1)" } ?? "",
                tree.hasChildren(index) ? expanded.contains(index) : nil
            )
        }
    }

    /// Row `row`'s box on screen, as scrolled now.
    func rowBox(_ row: Int) -> PixelBox {
        let height = Scene.OutlinePanel.rowHeight(screen.metrics)
        return PixelBox(
            x: box.x, y: box.y + Int((Double(row * height) - scroll.offset).rounded()), width: box.width,
            height: height)
    }

    /// Scrolls the panel so that row `row` is wholly in view.
    func scrollToShow(row: Int) {
        update()
        let height = Double(Scene.OutlinePanel.rowHeight(screen.metrics))
        let top = Double(row) * height
        if top < scroll.offset {
            scroll.scroll(to: top)
        } else if top + height > scroll.offset + Double(box.height) {
            scroll.scroll(to: top + height - Double(box.height))
        }
    }

    /// Opens or closes the entries under row `row`'s entry.
    func toggle(row: Int) {
        guard visible.indices.contains(row), tree.hasChildren(visible[row]) else { return }
        let index = visible[row]
        if expanded.contains(index) { expanded.remove(index) } else { expanded.insert(index) }
        visible = tree.visibleEntries(expanded: expanded)
        update()
        frame.request()
    }
}
