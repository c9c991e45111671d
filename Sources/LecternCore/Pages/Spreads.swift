/// The partition of a document's pages into spreads, and the geometry of each spread.
///
/// `spreadIndex(forPage:)` and `pageRange(forSpread:)` are the only conversions between
/// pages and spreads; both are O(1).
public struct Spreads: Hashable, Codable, Sendable {
    /// How pages are grouped.
    public var mode: SpreadMode
    /// The binding edge, which decides the on-screen order of a spread's pages.
    public var binding: PageBinding
    /// The number of pages in the document.
    public var pageCount: Int

    /// Creates the spreads of a document.
    public init(pageCount: Int, mode: SpreadMode, binding: PageBinding = .unknown) {
        self.pageCount = max(0, pageCount)
        self.mode = mode
        self.binding = binding
    }

    /// The number of spreads.
    public var spreadCount: Int {
        guard pageCount > 0 else { return 0 }
        switch mode {
        case .single: return pageCount
        case .double: return (pageCount + 1) / 2
        case .cover: return (pageCount + 2) / 2
        }
    }

    /// The spread that holds `page`. The page must be in `0..<pageCount`.
    public func spreadIndex(forPage page: Int) -> Int {
        precondition(page >= 0 && page < pageCount, "page \(page) out of 0..<\(pageCount)")
        switch mode {
        case .single: return page
        case .double: return page / 2
        case .cover: return page == 0 ? 0 : (page + 1) / 2
        }
    }

    /// The pages of `spread`, in reading order. The spread must be in `0..<spreadCount`.
    public func pageRange(forSpread spread: Int) -> Range<Int> {
        precondition(spread >= 0 && spread < spreadCount, "spread \(spread) out of 0..<\(spreadCount)")
        switch mode {
        case .single: return spread..<(spread + 1)
        case .double: return (2 * spread)..<min(2 * spread + 2, pageCount)
        case .cover: return spread == 0 ? 0..<1 : (2 * spread - 1)..<min(2 * spread + 1, pageCount)
        }
    }

    /// The pages of `spread` from left to right on screen (reversed under right-edge binding).
    public func displayOrder(ofSpread spread: Int) -> [Int] {
        binding.displayOrder(Array(pageRange(forSpread: spread)))
    }

    /// The spreads in on-screen order for a horizontal strip or a grid row.
    public func displayOrder(ofSpreads spreads: Range<Int>) -> [Int] {
        binding.displayOrder(Array(spreads))
    }

    /// Lays out the pages of `spread` in spread space.
    ///
    /// Pages are scaled to the height of the tallest displayed page and placed side by side
    /// in display order, so they share a vertical centre. Spread space has its origin at the
    /// spread's top-left corner, y down, in points of that common scale.
    public func geometry(ofSpread spread: Int, pages: PageTable) -> SpreadGeometry {
        let order = displayOrder(ofSpread: spread)
        var height = 0.0
        for page in order { height = max(height, pages[page].displaySize.height) }
        var x = 0.0
        var slots: [SpreadGeometry.Slot] = []
        slots.reserveCapacity(order.count)
        for page in order {
            let size = pages[page].displaySize
            let scale = height / size.height
            slots.append(
                .init(page: page, frame: Rect(x: x, y: 0, width: size.width * scale, height: height), scale: scale))
            x += size.width * scale
        }
        return SpreadGeometry(spread: spread, size: Size(width: x, height: height), slots: slots)
    }
}

/// Where each page of one spread sits in spread space.
public struct SpreadGeometry: Hashable, Sendable {
    /// One page's place in its spread.
    public struct Slot: Hashable, Sendable {
        /// The page index.
        public var page: Int
        /// The page's displayed frame in spread space.
        public var frame: Rect
        /// Spread-space units per page display point.
        public var scale: Double
    }

    /// The spread index.
    public var spread: Int
    /// The natural size of the spread in spread space.
    public var size: Size
    /// The pages from left to right on screen.
    public var slots: [Slot]

    /// The slot of `page`, if the page belongs to this spread.
    public func slot(forPage page: Int) -> Slot? { slots.first { $0.page == page } }
}

extension Spreads {
    /// The natural size of `spread` in spread space, without building its slots.
    public func size(ofSpread spread: Int, pages: PageTable) -> Size {
        // Lazily: this runs for every spread on screen, every frame.
        Self.size(ofPagesSized: pageRange(forSpread: spread).lazy.map { pages[$0].displaySize })
    }

    /// The natural size of a spread of pages with these displayed sizes (in any order): the
    /// pages scaled to the tallest one's height, side by side.
    static func size(ofPagesSized sizes: some Collection<Size>) -> Size {
        var height = 0.0
        for size in sizes { height = max(height, size.height) }
        var width = 0.0
        for size in sizes { width += size.width * (height / size.height) }
        return Size(width: width, height: height)
    }
}
