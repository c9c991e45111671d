/// One page's thumbnail: where it goes, in the coordinates of the strip or grid that laid it out.
public struct ThumbnailItem: Hashable, Sendable {
    /// The page index (0-based).
    public var page: Int
    /// The spread the page belongs to.
    public var spread: Int
    /// The page fitted into its cell, keeping its aspect ratio.
    public var frame: Rect

    public init(page: Int, spread: Int, frame: Rect) {
        self.page = page
        self.spread = spread
        self.frame = frame
    }
}

/// What the thumbnail strip and grid share: page cells grouped as the document's spreads are
/// (pairs in double mode, the cover alone), pairs side by side with no gap (like an open book),
/// and each page fitted into its cell. Under right-edge binding a pair is flipped
/// (`Spreads.displayOrder(ofSpread:)`).
public struct ThumbnailCells: Hashable, Sendable {
    /// How the pages are grouped, and the binding.
    public var spreads: Spreads
    /// The cell one page is fitted into.
    public var pageCell: Size

    public init(spreads: Spreads, pageCell: Size) {
        self.spreads = spreads
        self.pageCell = pageCell
    }

    /// The most pages a spread holds: the width of a grid cell in page cells.
    public var pagesPerSpread: Int { spreads.typicalPagesPerSpread }

    /// The thumbnails of `spread`, left to right on screen, for a spread whose `pagesPerSpread`
    /// page cells start at `origin`; a spread of one page sits in the middle of its cell.
    ///
    /// - Parameters:
    ///   - width: the spread's cell width (nil: just its pages, no centring).
    ///   - pageSize: the displayed size of a page (asked only for this spread's pages).
    public func items(
        ofSpread spread: Int, origin: Point, width: Double? = nil, pageSize: (Int) -> Size
    ) -> [ThumbnailItem] {
        let order = spreads.displayOrder(ofSpread: spread)
        let pagesWidth = Double(order.count) * pageCell.width
        var x = origin.x + ((width ?? pagesWidth) - pagesWidth) / 2
        var items: [ThumbnailItem] = []
        items.reserveCapacity(order.count)
        for (index, page) in order.enumerated() {
            let cell = Rect(x: x, y: origin.y, width: pageCell.width, height: pageCell.height)
            let fitted = cell.aspectFit(pageSize(page))
            // Pages of a pair meet at the gutter, as an open book's do.
            var frame = fitted
            if order.count == 2 {
                frame.origin.x = index == 0 ? cell.maxX - fitted.width : cell.minX
            }
            items.append(ThumbnailItem(page: page, spread: spread, frame: frame))
            x += pageCell.width
        }
        return items
    }
}

/// The thumbnail bar: the spreads in one row, left to right in reading order, or right to left
/// under right-edge binding. Pure geometry: every query is O(1) in the page count (a spread's
/// place follows from its first page), and laying out a view costs O(spreads in it).
///
/// Strip coordinates: x from the strip's left end on screen, y from its top.
public struct ThumbnailStripLayout: Hashable, Sendable {
    public var cells: ThumbnailCells
    /// The gap between two spreads.
    public var spacing: Double

    public init(spreads: Spreads, pageCell: Size, spacing: Double) {
        cells = ThumbnailCells(spreads: spreads, pageCell: pageCell)
        self.spacing = spacing
    }

    private var spreads: Spreads { cells.spreads }

    /// The length of the whole strip.
    public var contentWidth: Double {
        let count = spreads.spreadCount
        return count == 0 ? 0 : Double(spreads.pageCount) * cells.pageCell.width + Double(count - 1) * spacing
    }

    /// Where `spread` starts in reading order (from the strip's reading start).
    private func readingX(ofSpread spread: Int) -> Double {
        Double(spreads.pageRange(forSpread: spread).lowerBound) * cells.pageCell.width + Double(spread) * spacing
    }

    private func width(ofSpread spread: Int) -> Double {
        Double(spreads.pageRange(forSpread: spread).count) * cells.pageCell.width
    }

    /// The frame of `spread` (its pages' cells) in strip coordinates.
    public func frame(ofSpread spread: Int) -> Rect {
        let start = readingX(ofSpread: spread)
        let width = width(ofSpread: spread)
        let x = spreads.binding.isRightToLeft ? contentWidth - start - width : start
        return Rect(x: x, y: 0, width: width, height: cells.pageCell.height)
    }

    /// The spread whose reading-order span (its pages and the gap after it) holds `x`, measured
    /// from the reading start. O(1): an estimate from the average spread, corrected by at most
    /// a step or two (spreads differ by at most one page).
    private func readingSpread(containing x: Double) -> Int {
        var steps = 0
        return readingSpread(containing: x, steps: &steps)
    }

    /// `readingSpread(containing:)`, counting the corrections made to the estimate in `steps`
    /// (for the tests that show it is O(1)).
    func readingSpread(containing x: Double, steps: inout Int) -> Int {
        let count = spreads.spreadCount
        let average = (contentWidth + spacing) / Double(count)
        var spread = Int(min(max(0, x / average), Double(count - 1)))
        while spread > 0, readingX(ofSpread: spread) > x {
            spread -= 1
            steps += 1
        }
        while spread + 1 < count, readingX(ofSpread: spread + 1) <= x {
            spread += 1
            steps += 1
        }
        return spread
    }

    /// The spreads that overlap `minX..<maxX` of the strip, left to right on screen.
    public func spreads(from minX: Double, to maxX: Double) -> [Int] {
        guard spreads.spreadCount > 0, maxX > 0, minX < contentWidth, maxX > minX else { return [] }
        // In reading coordinates, which run the other way under right-edge binding.
        let (low, high) =
            spreads.binding.isRightToLeft ? (contentWidth - maxX, contentWidth - minX) : (minX, maxX)
        var first = readingSpread(containing: max(0, low))
        if readingX(ofSpread: first) + width(ofSpread: first) <= low { first += 1 }
        let last = readingSpread(containing: min(contentWidth, high) - 1e-9)
        guard first <= last else { return [] }
        return spreads.displayOrder(ofSpreads: first..<(last + 1))
    }

    /// The spread under `x` of the strip (nil in a gap or past the ends).
    public func spread(atX x: Double) -> Int? {
        guard spreads.spreadCount > 0, x >= 0, x < contentWidth else { return nil }
        let reading = spreads.binding.isRightToLeft ? contentWidth - x : x
        let spread = readingSpread(containing: reading)
        return frame(ofSpread: spread).minX <= x && x < frame(ofSpread: spread).maxX ? spread : nil
    }

    /// The thumbnails of the spreads overlapping `minX..<maxX`, left to right on screen, in strip
    /// coordinates. Asks `pageSize` only for their pages.
    public func items(from minX: Double, to maxX: Double, pageSize: (Int) -> Size) -> [ThumbnailItem] {
        spreads(from: minX, to: maxX).flatMap { spread in
            cells.items(ofSpread: spread, origin: frame(ofSpread: spread).origin, pageSize: pageSize)
        }
    }
}

/// The thumbnail grid: the spreads in rows, each row left to right in reading order, or right to
/// left under right-edge binding (the first spread of a row at its right end), as many columns as
/// fit the width. Pure geometry, O(1) per query; a view costs O(spreads in it).
///
/// Grid coordinates: from the top-left of the grid's content (y grows down the document).
public struct ThumbnailGridLayout: Hashable, Sendable {
    public var cells: ThumbnailCells
    /// The width the grid fills.
    public var width: Double
    /// The gap between two cells, across and down.
    public var spacing: Double
    /// Room under each cell for its label.
    public var labelHeight: Double
    /// The margin around the whole grid.
    public var margin: Double

    public init(spreads: Spreads, pageCell: Size, width: Double, spacing: Double, labelHeight: Double, margin: Double) {
        cells = ThumbnailCells(spreads: spreads, pageCell: pageCell)
        self.width = width
        self.spacing = spacing
        self.labelHeight = labelHeight
        self.margin = margin
    }

    private var spreads: Spreads { cells.spreads }

    /// A cell's size: a spread's pages and its label.
    public var cellSize: Size {
        Size(width: Double(cells.pagesPerSpread) * cells.pageCell.width, height: cells.pageCell.height + labelHeight)
    }

    /// How many spreads a row holds (at least one).
    public var columns: Int {
        max(1, Int((width - 2 * margin + spacing) / (cellSize.width + spacing)))
    }

    public var rows: Int { (spreads.spreadCount + columns - 1) / columns }

    /// The height of the whole grid.
    public var contentHeight: Double {
        rows == 0 ? 0 : 2 * margin + Double(rows) * (cellSize.height + spacing) - spacing
    }

    /// Where the columns start: the grid is centred across the width.
    private var left: Double {
        let used = Double(columns) * (cellSize.width + spacing) - spacing
        return max(margin, (width - used) / 2)
    }

    /// The cell of `spread` (its pages and label below) in grid coordinates.
    public func frame(ofSpread spread: Int) -> Rect {
        let row = spread / columns
        var column = spread % columns
        if spreads.binding.isRightToLeft { column = columns - 1 - column }
        return Rect(
            x: left + Double(column) * (cellSize.width + spacing),
            y: margin + Double(row) * (cellSize.height + spacing),
            width: cellSize.width, height: cellSize.height)
    }

    /// The rows that overlap `minY..<maxY`.
    public func rows(from minY: Double, to maxY: Double) -> Range<Int> {
        let pitch = cellSize.height + spacing
        let first = max(0, Int(((minY - margin - cellSize.height) / pitch).rounded(.down)) + 1)
        let last = min(rows, Int(((maxY - margin) / pitch).rounded(.up)))
        return first < last ? first..<last : 0..<0
    }

    /// The spreads of the rows overlapping `minY..<maxY`, row by row, each left to right on screen.
    public func spreads(from minY: Double, to maxY: Double) -> [Int] {
        rows(from: minY, to: maxY).flatMap { row in
            spreads.displayOrder(ofSpreads: (row * columns)..<min(spreads.spreadCount, (row + 1) * columns))
        }
    }

    /// The spread whose cell holds `point` (nil between cells).
    public func spread(at point: Point) -> Int? {
        let pitch = Size(width: cellSize.width + spacing, height: cellSize.height + spacing)
        guard point.x >= left, point.y >= margin else { return nil }
        let row = Int((point.y - margin) / pitch.height)
        var column = Int((point.x - left) / pitch.width)
        guard column < columns else { return nil }
        if spreads.binding.isRightToLeft { column = columns - 1 - column }
        let spread = row * columns + column
        guard spread < spreads.spreadCount, frame(ofSpread: spread).contains(point) else { return nil }
        return spread
    }

    /// The row of `spread`'s cell, and the offset that puts that row in the middle of a view
    /// `height` high (clamped to the content).
    public func offset(centering spread: Int, height: Double) -> Double {
        let frame = frame(ofSpread: spread)
        return min(max(0, frame.midY - height / 2), max(0, contentHeight - height))
    }

    /// The thumbnails of the spreads in `minY..<maxY`, in grid coordinates. Asks `pageSize` only
    /// for their pages.
    public func items(from minY: Double, to maxY: Double, pageSize: (Int) -> Size) -> [ThumbnailItem] {
        spreads(from: minY, to: maxY).flatMap { spread in
            let cell = frame(ofSpread: spread)
            return cells.items(ofSpread: spread, origin: cell.origin, width: cell.width, pageSize: pageSize)
        }
    }
}
