/// The partition of a document's pages into spreads, and the geometry of each spread.
///
/// `spreadIndex(forPage:)` and `pageRange(forSpread:)` are the only conversions between
/// pages and spreads; both are O(1) for the built-in modes. A `custom` strategy, when set,
/// replaces the mode.
public struct Spreads: Hashable, Codable, Sendable {
    /// How pages are grouped.
    public var mode: SpreadMode
    /// The binding edge, which decides the on-screen order of a spread's pages.
    public var binding: PageBinding
    /// The number of pages in the document.
    public var pageCount: Int
    /// An integrator's grouping, in place of `mode` (not persisted).
    public var custom: CustomSpreading?

    private enum CodingKeys: String, CodingKey { case mode, binding, pageCount }

    /// Creates the spreads of a document.
    public init(pageCount: Int, mode: SpreadMode, binding: PageBinding = .unknown, custom: CustomSpreading? = nil) {
        self.pageCount = max(0, pageCount)
        self.mode = mode
        self.binding = binding
        self.custom = custom
    }

    /// The strategy in force: the custom one, or the mode.
    public var strategy: any SpreadingStrategy { custom?.strategy ?? mode }

    /// The number of pages most spreads hold.
    public var typicalPagesPerSpread: Int { custom?.strategy.typicalPagesPerSpread ?? mode.typicalPagesPerSpread }

    /// The number of spreads.
    public var spreadCount: Int {
        if let custom { return custom.strategy.spreadCount(pageCount: pageCount) }
        return mode.spreadCount(pageCount: pageCount)
    }

    /// The spread that holds `page`. The page must be in `0..<pageCount`.
    public func spreadIndex(forPage page: Int) -> Int {
        precondition(page >= 0 && page < pageCount, "page \(page) out of 0..<\(pageCount)")
        if let custom { return custom.strategy.spreadIndex(forPage: page, pageCount: pageCount) }
        return mode.spreadIndex(forPage: page, pageCount: pageCount)
    }

    /// The pages of `spread`, in reading order. The spread must be in `0..<spreadCount`.
    public func pageRange(forSpread spread: Int) -> Range<Int> {
        precondition(spread >= 0 && spread < spreadCount, "spread \(spread) out of 0..<\(spreadCount)")
        if let custom { return custom.strategy.pageRange(forSpread: spread, pageCount: pageCount) }
        return mode.pageRange(forSpread: spread, pageCount: pageCount)
    }

    /// The spreads that may differ from the typical one in their page count.
    public var irregularSpreads: [Int] { strategy.irregularSpreads(pageCount: pageCount) }

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
    /// Pages are placed in display order by the strategy's `frames(ofPagesSized:)`: by default
    /// scaled to the height of the tallest displayed page and side by side, so they share a
    /// vertical centre. Spread space has its origin at the spread's top-left corner, y down,
    /// in points of that common scale.
    public func geometry(ofSpread spread: Int, pages: PageTable) -> SpreadGeometry {
        let order = displayOrder(ofSpread: spread)
        let sizes = order.map { pages[$0].displaySize }
        let frames = custom.map { $0.strategy.frames(ofPagesSized: sizes) } ?? SpreadMode.sideBySide(sizes)
        var slots: [SpreadGeometry.Slot] = []
        slots.reserveCapacity(order.count)
        for (index, page) in order.enumerated() {
            let frame = frames[index]
            slots.append(.init(page: page, frame: frame, scale: frame.height / sizes[index].height))
        }
        return SpreadGeometry(spread: spread, size: Self.bounds(of: frames), slots: slots)
    }

    /// The size of the area `frames` cover from the spread's origin.
    static func bounds(of frames: [Rect]) -> Size {
        var size = Size.zero
        for frame in frames { size = Size(width: max(size.width, frame.maxX), height: max(size.height, frame.maxY)) }
        return size
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
        if let custom {
            let sizes = displayOrder(ofSpread: spread).map { pages[$0].displaySize }
            return Self.bounds(of: custom.strategy.frames(ofPagesSized: sizes))
        }
        // Lazily: this runs for every spread on screen, every frame.
        return Self.size(ofPagesSized: pageRange(forSpread: spread).lazy.map { pages[$0].displaySize })
    }

    /// The natural size of a typical spread whose pages all have `size`.
    func typicalSize(ofPagesSized size: Size) -> Size {
        let sizes = Array(repeating: size, count: typicalPagesPerSpread)
        if let custom { return Self.bounds(of: custom.strategy.frames(ofPagesSized: sizes)) }
        return Self.size(ofPagesSized: sizes)
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
