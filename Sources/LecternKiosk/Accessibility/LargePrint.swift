import LecternCore
import LecternDocuments
import LecternLinux
import LecternRender
import Logging

/// Large print (issue 30): instead of the page, its text in one column that scrolls vertically,
/// in reading order (`ReadingOrder`: the left column before the right), at a size that can be
/// read from the viewing distance (EN 301 549 5.1.4: a capital H of 0.7°, 7.3 mm at 600 mm;
/// the screen's millimetres from `Screen.physical`), or larger in steps (the panel's "Text size
/// +/−"), with the page's pictures between its paragraphs, as wide as the column. Page turns
/// (Left and Right, the page-turn zones) show the next page's large print; drags, the wheel and
/// Up, Down, Page Up, Page Down, Home, End scroll; a tap on a link's underlined words follows
/// it; a tap between the zones shows or hides the chrome. What a search finds is marked in the
/// column. A page with no text (a scan) shows the page itself, zoomed to its width, with a notice.
///
/// The column is laid out by the render worker (`ShownDocument.reflow`: reading order, line
/// breaks measured with the file of the font this process draws with, links, where the pictures
/// go; kept there per page and size), and the pictures' pixels are tiles of the page at the
/// column's size; both are waited for on a thread of this part's own, off the loop, and the
/// columns kept per page, size, width and contrast (the last `cacheSize`). The column is drawn
/// with fcft by the frame compositor, a screenful at a time (`Scene.LargePrint`).
final class LargePrint {
    let policy: PolicyInForce
    let current: CurrentReader
    let session: DocumentSession
    let screen: Screen
    let pointer: Pointer
    /// A tap between the page-turn zones shows or hides it, as on a page.
    let chrome: Chrome
    let frame: FrameRequest
    private let logger: Logger
    /// Where the worker's columns and the pictures' tiles are waited for.
    private let work: BackgroundWork
    /// The font files the worker measures with, kept open.
    private let fonts = OpenFontFiles()

    /// Large print is shown.
    private(set) var isOn: Bool
    /// The visitor's text size: an index into `sizes`.
    private(set) var sizeStep = 0
    /// Each text size as a multiple of the smallest readable from the viewing distance.
    static let sizes = [1.0, 1.25, 1.5, 2.0, 2.5]
    /// How many laid-out columns are kept.
    static let cacheSize = 8
    /// The notice shown over a page that has no text.
    static var noTextNotice: String { tr("This page has no text to enlarge: showing it zoomed.") }

    /// Which column: the page, the capital H's height and the column's width (surface units),
    /// the scale it was measured at, the contrast its pictures are drawn in, and the reader it
    /// is of (a new version of the document has its own).
    struct ColumnKey: Hashable {
        var page: Int
        var capitalHeight: Int
        var width: Int
        var scale: Double
        var contrast: Contrast
        var reader: ObjectIdentifier
    }

    private var columns: [ColumnKey: LargePrintColumn] = [:]
    /// The pixels of each column's figures, by the figure's index.
    private var pictures: [ColumnKey: [RasterImage?]] = [:]
    /// The keys of `columns`, least recently used first.
    private var recent: [ColumnKey] = []
    private var reflowing: Set<ColumnKey> = []
    /// The column shown, and how far it is scrolled (surface units).
    private(set) var shown: (key: ColumnKey, column: LargePrintColumn)?
    var offset = 0.0
    /// The search query the column was last scrolled to (a new one scrolls to its first hit).
    private var revealed: (query: String, page: Int, hit: Int?)?
    /// The touch (or -1: the pointer) dragging the column: where it was, how far it went.
    var drag: (id: Int, start: Point, last: Point, moved: Bool)?
    /// The search: what is searched for, and the hit the search is at.
    var search: () -> (query: String, current: (page: Int, index: Int)?)? = { nil }
    /// Follows a link tapped in the column, as a tap on the page would.
    var follow: ((LinkTarget) -> Void)?
    /// The sentence read aloud and its page (`Narrator`): highlighted, and kept on screen.
    var spoken: () -> (page: Int, text: String)? = { nil }
    /// The sentence read aloud the column last scrolled to.
    private var keptInView: String?

    init(
        policy: PolicyInForce, current: CurrentReader, session: DocumentSession, screen: Screen, pointer: Pointer,
        chrome: Chrome, frame: FrameRequest, loop: EventLoop, logger: Logger
    ) {
        self.chrome = chrome
        self.policy = policy
        self.current = current
        self.session = session
        self.screen = screen
        self.pointer = pointer
        self.frame = frame
        self.logger = logger
        work = BackgroundWork(label: "lectern.large-print", qos: .userInitiated, loop: loop)
        isOn = policy.largePrint
        session.visitorCapitalHeight = { [unowned self] in isOn ? capitalHeight : nil }
        // A new default applies at once unless a visitor chose otherwise meanwhile.
        policy.observe { [unowned self] old, new in
            if new.largePrint != old.largePrint, isOn == old.largePrint { set(on: new.largePrint) }
        }
    }

    /// Forgets the column being laid out (shutdown).
    func close() { work.abandon() }

    /// A column is being laid out.
    var isBusy: Bool { work.isBusy }
    /// What the last frame showed of the column (status).
    private(set) var lastScene: Scene.LargePrint?

    /// Whether a visitor chose other than the operator's default (accessibility mode).
    var isVisitorChoice: Bool { isOn != policy.largePrint || sizeStep != 0 }

    /// Turns large print on or off (the accessibility panel).
    func set(on: Bool) {
        guard on != isOn else { return }
        isOn = on
        logger.info("large print: \(on ? "on" : "off")")
        layOutBook()
        frame.request()
    }

    /// One text size larger (`by: 1`) or smaller (`by: -1`); never below the smallest readable.
    func changeSize(by steps: Int) {
        let step = min(max(sizeStep + steps, 0), Self.sizes.count - 1)
        guard step != sizeStep else { return }
        // Keep the same part of the text at the top: the same share of the column.
        let share = shown.map { offset / Double(max(1, $0.column.height)) } ?? 0
        sizeStep = step
        pendingShare = share
        logger.info("large print: text size \(Self.sizes[step])×")
        layOutBook()
        frame.request()
    }

    /// A book (EPUB, FB2, XHTML) is its own large print: laid out again in pages of type whose
    /// capital H is `capitalHeight` (the sizes in millimetres apply; Text size + and − re-lay it),
    /// or at the policy's type size again when large print goes off. Its pages show, not a column.
    private func layOutBook() {
        session.layOutShownBookIfNeeded()
    }

    /// The document shown is a book: large print lays it out (`layOutBook`) instead of a column.
    var showsBook: Bool { current.reader?.document.isReflowable == true }
    /// The share of the column to scroll to when the next column of the page shows (a new size).
    private var pendingShare: Double?

    /// Back to the operator's default (the idle reset).
    func reset() {
        sizeStep = 0
        // The next visitor starts at the column's top.
        shown = nil
        offset = 0
        set(on: policy.largePrint)
        layOutBook()
    }

    // MARK: The column on screen

    /// The capital H's height the text needs, in surface units: what the viewing distance asks,
    /// times the visitor's size. Without the screen's millimetres, 96 dots per inch are assumed.
    var capitalHeight: Int {
        let physical = screen.physical(policy.configuration)
        let perMillimetre = physical.map { screen.size.width / $0.width } ?? 96 / 25.4
        let distance = Double(policy.viewingDistanceMillimetres)
        let millimetres = PhysicalScreen(width: 1, height: 1, viewingDistance: distance)?.minimumCapitalHeight ?? 7.4
        return Int((millimetres * perMillimetre * Self.sizes[sizeStep]).rounded(.up))
    }

    /// The margin around the column: a capital H's height at least, 24 units at least.
    var margin: Int { max(24, capitalHeight) }
    /// Where the column starts: clear of the accessibility button, which stays at the bottom
    /// left over whatever scrolls under it.
    var left: Int {
        let button =
            policy.accessibilityButton
            ? Scene.Accessibility(metrics: screen.metrics).buttonBox(height: 0).maxX + 16 : 0
        return max(margin, button)
    }

    /// What the frame shows of large print for `reader`: the lines of the column on screen (none
    /// while it is being laid out); nil when large print is off or the page has no text (the page
    /// shows, with `notice`).
    func scene(for reader: Reader) -> Scene.LargePrint? {
        if isOn && reader.document.isReflowable {
            shown = nil
            showsNoText = false
        }
        lastScene = isOn && !reader.document.isReflowable ? column(for: reader) : nil
        return lastScene
    }

    private func column(for reader: Reader) -> Scene.LargePrint? {
        let page = reader.view.dominantPage()
        let key = ColumnKey(
            page: page, capitalHeight: capitalHeight, width: screen.width - left - margin, scale: screen.scale.factor,
            contrast: screen.contrast, reader: ObjectIdentifier(reader))
        let area = PixelBox(x: 0, y: 0, width: screen.width, height: screen.height)
        guard let column = columns[key] else {
            showsNoText = false
            request(key, reader: reader)
            return Scene.LargePrint(pixelSize: 16, lines: [], area: area)
        }
        use(key)
        showsNoText = column.lines.isEmpty
        guard !showsNoText else {
            zoom(into: page, of: reader)
            return nil
        }
        zoomedPage = nil
        if shown?.key != key {
            let share = shown?.key.page == page ? pendingShare : nil
            offset = (share ?? 0) * Double(column.height)
            pendingShare = nil
        }
        shown = (key, column)
        revealSearch(in: column, page: page)
        let sentence = spoken().flatMap { $0.page == page ? $0.text : nil }
        let spoken = sentence.map { column.pieces(of: $0) } ?? []
        keepInView(sentence, pieces: spoken, of: column)
        offset = min(max(0, offset), maximumOffset)
        let search = search()
        let occurrences = search.map { column.occurrences(of: $0.query) } ?? []
        let currentHit = search?.current.flatMap { $0.page == page && $0.index < occurrences.count ? $0.index : nil }
        let top = margin - Int(offset.rounded())
        var lines: [Scene.LargePrint.Line] = []
        for (index, line) in column.lines.enumerated()
        where top + line.top + column.lineAdvance > 0 && top + line.top < screen.height {
            let marks = occurrences.enumerated().filter { $0.element.line == index }
            lines.append(
                Scene.LargePrint.Line(
                    text: line.text, x: left, baseline: top + line.top + column.ascent,
                    marks: marks.map(\.element.range),
                    current: marks.first { $0.offset == currentHit }?.element.range,
                    links: column.links.filter { $0.line == index }.map(\.range),
                    spoken: spoken.first { $0.line == index }?.range))
        }
        var scene = Scene.LargePrint(pixelSize: column.pixelSize, lines: lines, area: area)
        let images = pictures[key] ?? []
        scene.figures = column.figures.compactMap { figure in
            guard top + figure.top + figure.height > 0, top + figure.top < screen.height,
                let image = images.indices.contains(figure.index) ? images[figure.index] : nil
            else { return nil }
            return Scene.LargePrint.Figure(
                image: image, rect: PixelBox(x: left, y: top + figure.top, width: figure.width, height: figure.height)
            )
        }
        return scene
    }

    /// The page on screen has no text: it shows instead of its large print.
    private(set) var showsNoText = false
    /// Large print covers the page (it is on, and the page has text or is being laid out).
    var coversPage: Bool { isOn && !showsNoText && !showsBook }

    /// The page with no text zoomed in last (once per visit: the visitor may zoom out).
    private var zoomedPage: Int?

    /// Zooms the page with no text in to its width, at its top.
    private func zoom(into page: Int, of reader: Reader) {
        guard zoomedPage != page else { return }
        zoomedPage = page
        let geometry = reader.view.pages[page]
        let size = geometry.displaySize
        let top = Rect(
            x: 0, y: 0, width: size.width, height: min(size.height, size.width * screen.size.height / screen.size.width)
        )
        reader.view.zoom(toRect: reader.view.pageToContent(page: page).apply(to: geometry.displayToPage.apply(to: top)))
        frame.request()
    }

    /// The notice over the page when large print is on and the page has no text.
    var notice: String? { isOn && showsNoText ? Self.noTextNotice : nil }

    /// The most the column scrolls: its end at the bottom of the screen, a margin below it.
    var maximumOffset: Double {
        guard let column = shown?.column else { return 0 }
        return Double(max(0, column.height + 2 * margin - screen.height))
    }

    /// Scrolls the column to a new sentence read aloud when it is not all on screen.
    private func keepInView(_ sentence: String?, pieces: [(line: Int, range: Range<Int>)], of column: LargePrintColumn)
    {
        guard sentence != keptInView else { return }
        keptInView = sentence
        guard let first = pieces.first, let last = pieces.last else { return }
        let top = Double(column.lines[first.line].top),
            bottom = Double(column.lines[last.line].top + column.lineAdvance)
        if top < offset - Double(margin) || bottom > offset + Double(screen.height - margin) {
            offset = top - Double(screen.height) / 4
        }
    }

    /// Scrolls the column to show the hit the search is at (or the first on the page) once per
    /// query and page.
    private func revealSearch(in column: LargePrintColumn, page: Int) {
        guard let search = search(), !search.query.isEmpty else { return revealed = nil }
        let hit = search.current.flatMap { $0.page == page ? $0.index : nil }
        guard revealed.map({ $0 != (search.query, page, hit) }) ?? true else { return }
        revealed = (search.query, page, hit)
        let occurrences = column.occurrences(of: search.query)
        guard let found = occurrences.indices.contains(hit ?? 0) ? occurrences[hit ?? 0] : occurrences.first else {
            return
        }
        // Just below the search bar: the on-screen keyboard may cover the lower half.
        let top = Double(column.lines[found.line].top + margin)
        if top < offset + Double(screen.metrics.barHeight)
            || top + Double(column.lineAdvance) > offset + Double(screen.height) / 2
        {
            offset = top - Double(screen.metrics.barHeight + margin / 2)
        }
    }

    /// Asks the render worker for the column `key` names, off the loop: the worker lays it out
    /// (`ShownDocument.reflow`) measuring with the file of the font this process draws it with;
    /// then the pictures' pixels are drawn. A page whose column cannot be laid out shows as one
    /// with no text (zoomed, with the notice).
    private func request(_ key: ColumnKey, reader: Reader) {
        guard !reflowing.contains(key) else { return }
        // The page's links' targets (a tap on their words), read as for a page shown.
        if reader.pageText[key.page] == nil { session.pagesShown([key.page]) }
        reflowing.insert(key)
        let rightToLeft = reader.readingOrder(of: key.page).rightToLeft
        let (document, displaySize) = (reader.document, reader.view.pages[key.page].displaySize)
        let (logger, fonts) = (logger, fonts)
        let started = ContinuousClock.now
        work.submit {
            guard
                let font = LargePrintColumn.font(
                    capitalHeight: Double(key.capitalHeight), scale: key.scale, logger: logger),
                let file = fonts.file(of: font, logger: logger)
            else { return (LargePrintColumn.empty, []) }
            let request = ReflowRequest(
                page: key.page, width: key.width, scale: key.scale, font: file.font, metrics: font.metrics,
                rightToLeft: rightToLeft)
            switch document.reflow(request, font: file.opened) {
            case .success(let reflowed):
                return (
                    reflowed.column,
                    Self.pictures(
                        of: reflowed, page: key.page, document: document, displaySize: displaySize, scale: key.scale,
                        contrast: key.contrast)
                )
            case .failure(let error):
                logger.error("\(error.message)")
                return (LargePrintColumn.empty, [])
            }
        } then: { [unowned self] (column: LargePrintColumn, images: [RasterImage?]) in
            reflowing.remove(key)
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
            logger.info(
                "large print of page \(key.page + 1): \(column.lines.count) lines at \(column.pixelSize) px (capital H \(column.capitalHeight)), laid out in \(Int(milliseconds.rounded())) ms"
            )
            columns[key] = column
            pictures[key] = images
            use(key)
            frame.request()
        }
    }

    /// Marks `key` as the most recently used, and forgets the least recently used past `cacheSize`.
    private func use(_ key: ColumnKey) {
        recent.removeAll { $0 == key }
        recent.append(key)
        while recent.count > Self.cacheSize {
            let key = recent.removeFirst()
            columns[key] = nil
            pictures[key] = nil
        }
    }
}
