/// How a document's pages are grouped into spreads, and where the pages of one spread sit in
/// it: the page↔spread conversion an integrator may supply in place of a `SpreadMode`.
///
/// The three modes are strategies themselves (`SpreadMode` conforms), so a custom strategy
/// can start from one and change what it needs. The conversions must agree: for every page
/// `p`, `pageRange(forSpread: spreadIndex(forPage: p)).contains(p)`, and the ranges of
/// consecutive spreads follow each other without gaps.
public protocol SpreadingStrategy: Sendable {
    /// The number of spreads of a document of `pageCount` pages (0 for no pages).
    func spreadCount(pageCount: Int) -> Int
    /// The spread that holds `page`, in `0..<spreadCount(pageCount:)`.
    func spreadIndex(forPage page: Int, pageCount: Int) -> Int
    /// The pages of `spread`, in reading order.
    func pageRange(forSpread spread: Int, pageCount: Int) -> Range<Int>
    /// The number of pages most spreads hold (what layouts assume for spreads they have not
    /// measured, and the thumbnail bar's cell).
    var typicalPagesPerSpread: Int { get }
    /// The spreads that may differ from the typical spread in their page count: layouts measure
    /// these. The default scans every spread; a strategy with few exceptions should list them.
    func irregularSpreads(pageCount: Int) -> [Int]
    /// The frames of a spread's pages in spread space (origin top-left, y down), given their
    /// displayed sizes from left to right on screen. Each frame must keep its page's aspect
    /// ratio. The default puts them side by side, scaled to the tallest page's height.
    func frames(ofPagesSized sizes: [Size]) -> [Rect]
}

extension SpreadingStrategy {
    public func irregularSpreads(pageCount: Int) -> [Int] {
        (0..<spreadCount(pageCount: pageCount)).filter {
            pageRange(forSpread: $0, pageCount: pageCount).count != typicalPagesPerSpread
        }
    }

    public func frames(ofPagesSized sizes: [Size]) -> [Rect] { Self.sideBySide(sizes) }

    /// Pages scaled to the tallest one's height, side by side: the built-in arrangement.
    public static func sideBySide(_ sizes: [Size]) -> [Rect] {
        var height = 0.0
        for size in sizes { height = max(height, size.height) }
        var x = 0.0
        return sizes.map { size in
            let width = size.width * (height / size.height)
            defer { x += width }
            return Rect(x: x, y: 0, width: width, height: height)
        }
    }
}

extension SpreadMode: SpreadingStrategy {
    public func spreadCount(pageCount: Int) -> Int {
        guard pageCount > 0 else { return 0 }
        switch self {
        case .single: return pageCount
        case .double: return (pageCount + 1) / 2
        case .cover: return (pageCount + 2) / 2
        }
    }

    public func spreadIndex(forPage page: Int, pageCount: Int) -> Int {
        switch self {
        case .single: return page
        case .double: return page / 2
        case .cover: return page == 0 ? 0 : (page + 1) / 2
        }
    }

    public func pageRange(forSpread spread: Int, pageCount: Int) -> Range<Int> {
        switch self {
        case .single: return spread..<(spread + 1)
        case .double: return (2 * spread)..<min(2 * spread + 2, pageCount)
        case .cover: return spread == 0 ? 0..<1 : (2 * spread - 1)..<min(2 * spread + 1, pageCount)
        }
    }

    public var typicalPagesPerSpread: Int { self == .single ? 1 : 2 }

    /// Only the first and the last spread may hold fewer pages.
    public func irregularSpreads(pageCount: Int) -> [Int] {
        let count = spreadCount(pageCount: pageCount)
        return count == 0 ? [] : count == 1 ? [0] : [0, count - 1]
    }
}

/// A named spreading strategy: two are the same when their names are, so a view's spreads
/// can be compared and hashed.
public struct CustomSpreading: Hashable, Sendable {
    /// The name that identifies the strategy.
    public let name: String
    /// The strategy.
    public let strategy: any SpreadingStrategy

    /// Names `strategy`.
    public init(name: String, _ strategy: any SpreadingStrategy) {
        self.name = name
        self.strategy = strategy
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
