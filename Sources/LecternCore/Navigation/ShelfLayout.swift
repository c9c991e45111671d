/// The shelf's grid: where each document's cover and title go on a screen, how far the grid
/// scrolls, and which cover a point is on. Whole pixels, so covers are drawn 1:1.
///
/// The covers are as large as they can be (up to `maximumCoverWidth`) with the whole grid on
/// screen; when even covers of `minimumCoverWidth` do not fit, the grid keeps that size, takes
/// as many columns as fit across, and scrolls vertically. Each cover sits in a box of the same
/// size (`coverAspect`), its title below.
public struct ShelfLayout: Equatable, Sendable {
    /// Space around the grid and between its cells.
    public static let margin = 32
    public static let spacing = 32
    /// The room under each cover for its title (`titleLines` lines) at the chrome's standard
    /// text size; larger text asks for more (`titleHeight`).
    public static let standardTitleHeight = 72
    /// The lines a title may take; the last one ends with "…" when the title needs more.
    public static let titleLines = 2
    public static let minimumCoverWidth = 160
    public static let maximumCoverWidth = 360
    /// A cover box's height over its width: a portrait page's.
    public static let coverAspect = 4.0 / 3.0

    public let screenWidth: Int
    public let screenHeight: Int
    public let count: Int
    /// The room under each cover for its title.
    public let titleHeight: Int
    public let columns: Int
    /// The size of every cover's box.
    public let coverWidth: Int
    public let coverHeight: Int
    /// The grid's whole height, margins included (more than the screen's when it scrolls).
    public let contentHeight: Int
    /// The covers run from the right (a right-to-left language's chrome): the grid mirrored.
    public var isRightToLeft = false
    /// Where the grid's first column starts, and its first row when it fits on screen.
    private let originX: Int
    private let originY: Int

    public init(screenWidth: Int, screenHeight: Int, count: Int, titleHeight: Int = Self.standardTitleHeight) {
        let width = max(1, screenWidth), height = max(1, screenHeight)
        let count = max(0, count)
        let titleHeight = max(Self.standardTitleHeight, titleHeight)
        self.titleHeight = titleHeight
        self.screenWidth = width
        self.screenHeight = height
        self.count = count
        let m = Self.margin, s = Self.spacing
        func rows(_ columns: Int) -> Int { max(1, (count + columns - 1) / columns) }
        func across(_ columns: Int) -> Int { (width - 2 * m - (columns - 1) * s) / columns }
        func down(_ columns: Int) -> Int {
            let rows = rows(columns)
            let cell = Double(height - 2 * m - (rows - 1) * s) / Double(rows) - Double(titleHeight)
            return Int((cell / Self.coverAspect).rounded(.down))
        }
        // The column count that gives the largest covers with everything on screen.
        var best: (columns: Int, width: Int)?
        for columns in 1...max(1, count) {
            let size = min(Self.maximumCoverWidth, across(columns), down(columns))
            if size >= Self.minimumCoverWidth, size > (best?.width ?? 0) { best = (columns, size) }
        }
        if let best {
            columns = best.columns
            coverWidth = best.width
        } else {
            // It does not fit: covers of the minimum size (or less on a narrow screen), scrolling.
            let fitting = (width - 2 * m + s) / (Self.minimumCoverWidth + s)
            columns = max(1, min(max(1, count), fitting))
            coverWidth = max(1, min(Self.minimumCoverWidth, across(columns)))
        }
        coverHeight = Int((Double(coverWidth) * Self.coverAspect).rounded())
        let rowCount = rows(columns)
        contentHeight = 2 * m + rowCount * (coverHeight + titleHeight) + (rowCount - 1) * s
        let gridWidth = columns * coverWidth + (columns - 1) * s
        originX = (width - gridWidth) / 2
        originY = contentHeight <= height ? (height - contentHeight) / 2 + m : m
    }

    /// How far the grid scrolls down at most.
    public var maximumScroll: Int { max(0, contentHeight - screenHeight) }

    /// `scroll` limited to what the grid has.
    public func clamp(scroll: Int) -> Int { min(max(0, scroll), maximumScroll) }

    /// The box of cover `index` on screen, with the grid scrolled by `scroll`.
    public func coverBox(_ index: Int, scroll: Int = 0) -> PixelBox {
        let box = leftToRightBox(index, scroll: scroll)
        guard isRightToLeft else { return box }
        return PixelBox(x: screenWidth - box.maxX, y: box.y, width: box.width, height: box.height)
    }

    /// Cover `index`'s box as a left-to-right grid places it.
    private func leftToRightBox(_ index: Int, scroll: Int) -> PixelBox {
        let row = index / columns, column = index % columns
        return PixelBox(
            x: originX + column * (coverWidth + Self.spacing),
            y: originY + row * (coverHeight + titleHeight + Self.spacing) - scroll,
            width: coverWidth, height: coverHeight)
    }

    /// Where a page of `pageSize` (any unit) goes in cover `index`'s box: as large as fits, centred
    /// across and standing on the box's bottom edge, as books on a shelf.
    public func coverFrame(_ index: Int, pageSize: Size, scroll: Int = 0) -> PixelBox {
        let box = coverBox(index, scroll: scroll)
        guard pageSize.width > 0, pageSize.height > 0 else { return box }
        let scale = min(Double(box.width) / pageSize.width, Double(box.height) / pageSize.height)
        let width = max(1, Int((pageSize.width * scale).rounded())),
            height = max(1, Int((pageSize.height * scale).rounded()))
        return PixelBox(x: box.x + (box.width - width) / 2, y: box.maxY - height, width: width, height: height)
    }

    /// The room for cover `index`'s title, under its box.
    public func titleBox(_ index: Int, scroll: Int = 0) -> PixelBox {
        let box = coverBox(index, scroll: scroll)
        return PixelBox(x: box.x, y: box.maxY + 12, width: box.width, height: titleHeight - 12)
    }

    /// The cover whose box or title is under `point` (screen pixels), if any.
    public func index(at point: Point, scroll: Int = 0) -> Int? {
        guard count > 0 else { return nil }
        var x = Int(point.x.rounded(.down))
        let y = Int(point.y.rounded(.down))
        // Right to left: where the point lies in the left-to-right grid it mirrors.
        if isRightToLeft { x = screenWidth - 1 - x }
        let first = leftToRightBox(0, scroll: scroll)
        let column = (x - first.x) / (coverWidth + Self.spacing)
        let row = (y - first.y) / (coverHeight + titleHeight + Self.spacing)
        guard x >= first.x, y >= first.y, column < columns else { return nil }
        let index = row * columns + column
        guard index < count else { return nil }
        let box = leftToRightBox(index, scroll: scroll)
        let cell = PixelBox(x: box.x, y: box.y, width: box.width, height: box.height + titleHeight)
        return x < cell.maxX && y < cell.maxY ? index : nil
    }

    /// The covers at least partly on screen with the grid scrolled by `scroll`, in order.
    public func visibleIndices(scroll: Int) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let rowHeight = coverHeight + titleHeight + Self.spacing
        let top = max(0, (scroll - originY + Self.spacing) / rowHeight)
        let bottom = (scroll + screenHeight - originY) / rowHeight
        return min(count, top * columns)..<min(count, (bottom + 1) * columns)
    }
}
