import LecternCore
import LecternRender

/// The thumbnail grid: every page as a thumbnail over the whole screen, grouped as spreads are,
/// rows right to left under right-edge binding (`ThumbnailGridLayout`), opened on the current
/// spread. A finger scrolls it (a flick keeps it moving); a tap on a page goes there and
/// closes the grid, as do the Close button and Escape.
///
/// Virtualized like the bar: only the rows in view are laid out and their thumbnails asked
/// for, so scrolling 15,000 pages costs per frame what 36 do.
final class ThumbnailGrid: ScrollingPanel {
    let screen: Screen
    private var needsCentring = false

    init(screen: Screen) {
        self.screen = screen
        super.init(axis: .vertical)
    }

    /// Opens the grid on the reader's current spread.
    func open(for reader: Reader) {
        show()
        needsCentring = true
    }

    private var size: (width: Int, height: Int) { (screen.width, screen.height) }

    /// Where the cells scroll.
    private var area: PixelBox {
        Scene.ThumbnailSheet.area(width: size.width, height: size.height, metrics: screen.metrics)
    }

    private func layout(for reader: Reader) -> ThumbnailGridLayout {
        ThumbnailGridLayout(
            spreads: reader.view.spreads, pageCell: Scene.ThumbnailSheet.pageCell, width: Double(area.width),
            spacing: Scene.ThumbnailSheet.spacing, labelHeight: Scene.ThumbnailSheet.labelHeight, margin: 24)
    }

    private func currentSpread(of reader: Reader) -> Int? {
        let view = reader.view
        return view.pages.count > 0 ? view.spreads.spreadIndex(forPage: view.dominantPage()) : nil
    }

    /// Fits the scroll range to the grid and the screen; scrolls to the current spread when
    /// the grid has just opened.
    func update(for reader: Reader) {
        let layout = layout(for: reader)
        let height = Double(area.height)
        scroll.setBounds(0...max(0, layout.contentHeight - height))
        if needsCentring, let current = currentSpread(of: reader) {
            scroll.scroll(to: layout.offset(centering: current, height: height))
        }
        needsCentring = false
    }

    /// Grid coordinates to screen pixels.
    private var origin: Point { Point(x: Double(area.x), y: Double(area.y) - scroll.offset) }

    /// The thumbnails of the rows in view.
    func placements(for reader: Reader) -> (thumbnails: [TilePlanner.Thumbnail], spreads: [Int]) {
        let layout = layout(for: reader)
        let pages = reader.view.pages
        let spreads = layout.spreads(from: scroll.offset, to: scroll.offset + Double(area.height))
        let thumbnails = spreads.flatMap { spread in
            let cell = layout.frame(ofSpread: spread)
            return layout.cells.items(ofSpread: spread, origin: cell.origin, width: cell.width) {
                pages[$0].displaySize
            }
        }.map { item in
            TilePlanner.Thumbnail(page: item.page, frame: item.frame.offsetBy(origin).stablePixels, clip: area)
        }
        return (thumbnails, spreads)
    }

    /// The grid as drawn: the thumbnails the plan has, each spread's label, the current spread.
    func scene(for reader: Reader, items: [Scene.PageItem]) -> Scene.ThumbnailSheet {
        let layout = layout(for: reader)
        let spreads = placements(for: reader).spreads
        let labels = spreads.map { spread -> Scene.ThumbnailSheet.Label in
            let cell = layout.frame(ofSpread: spread).offsetBy(origin)
            return .init(
                text: label(ofSpread: spread, reader: reader), centerX: Int(cell.midX.rounded()),
                top: Int((cell.maxY - Scene.ThumbnailSheet.labelHeight + 8).rounded()))
        }
        var current: PixelBox?
        if let spread = currentSpread(of: reader) {
            // The mark goes around the current spread's thumbnails.
            let cell = layout.frame(ofSpread: spread)
            let boxes = layout.cells.items(ofSpread: spread, origin: cell.origin, width: cell.width) {
                reader.view.pages[$0].displaySize
            }.map { $0.frame.offsetBy(origin).stablePixels }
            if let first = boxes.first {
                let box = boxes.dropFirst().reduce(first) { $0.union($1) }
                current = box.intersection(area).isEmpty ? nil : box
            }
        }
        return Scene.ThumbnailSheet(
            title: trn(
                "%2$s — %1$s page", "%2$s — %1$s pages", count: reader.view.pages.count, fileName(reader.document.path)),
            items: items,
            labels: labels, current: current)
    }

    /// What is written under a spread: "4", "iv", "12–13".
    private func label(ofSpread spread: Int, reader: Reader) -> String {
        let pages = reader.view.spreads.pageRange(forSpread: spread)
        let names = [pages.lowerBound, pages.upperBound - 1].map { reader.document.label(forPage: $0) ?? "\($0 + 1)" }
        return pages.count == 1 ? names[0] : "\(names[0])–\(names[1])"
    }

    // MARK: Keypad focus

    /// Every spread's label and its cell on screen as scrolled now (most are off screen).
    func cells(for reader: Reader) -> [(label: String, box: PixelBox)] {
        let layout = layout(for: reader)
        return (0..<reader.view.spreads.spreadCount).map { spread in
            (label(ofSpread: spread, reader: reader), layout.frame(ofSpread: spread).offsetBy(origin).stablePixels)
        }
    }

    /// The spread the grid opened on (the reader's).
    func openingSpread(of reader: Reader) -> Int? { currentSpread(of: reader) }

    /// Scrolls the grid so that `spread`'s cell is in view (centred when it was not).
    func scrollToShow(spread: Int, reader: Reader) {
        update(for: reader)
        let cell = layout(for: reader).frame(ofSpread: spread)
        let height = Double(area.height)
        guard cell.minY < scroll.offset || cell.maxY > scroll.offset + height else { return }
        scroll.scroll(to: layout(for: reader).offset(centering: spread, height: height))
    }

    // MARK: Input

    /// The Close button under `point`: a button of its own, not part of what scrolls, so a tap
    /// on it closes the grid even while a flick moves the thumbnails (a touch on them only
    /// stops the flick).
    func closeButton(at point: Point) -> (any NavigationPart)? {
        guard isOpen,
            Scene.ThumbnailSheet.closeButton(width: size.width, height: size.height, metrics: screen.metrics).contains(
                point)
        else { return nil }
        return TapTarget { [unowned self] _, _ in close() }
    }

    override func tapped(at tap: Point, reader: Reader) {
        guard area.contains(tap) else { return }
        let point = Point(x: tap.x - origin.x, y: tap.y - origin.y)
        let layout = layout(for: reader)
        guard let spread = layout.spread(at: point) else { return }
        let cell = layout.frame(ofSpread: spread)
        let page =
            layout.cells.items(ofSpread: spread, origin: cell.origin, width: cell.width) {
                reader.view.pages[$0].displaySize
            }
            .first { $0.frame.minX <= point.x && point.x < $0.frame.maxX }?.page
            ?? reader.view.spreads.pageRange(forSpread: spread).lowerBound
        guard gate.allows(ChromeInteractionContext(control: "thumbnailGrid", page: page), tap) else { return }
        reader.view.stopAnimations()
        try? reader.view.goToPage(page)
        close()
    }
}
