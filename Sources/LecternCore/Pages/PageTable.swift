/// The geometries of all pages of a document, some of which may still be estimates.
///
/// Opening a 15,000-page PDF must not wait for every page's boxes: the table answers with
/// `estimate` until a real geometry is recorded, and storage grows only with recorded pages,
/// never with the page count (a damaged file may claim 1.4 billion pages).
public struct PageTable: Sendable, Equatable {
    /// The number of pages.
    public private(set) var count: Int
    /// The geometry assumed for pages whose real geometry is not known yet.
    public private(set) var estimate: PageGeometry
    private var known: [Int: PageGeometry]
    /// Pages below this index are known even without an entry in `known`: they equal
    /// `estimate` (a table built from every page's geometry records only the others).
    private var knownBelow = 0

    /// A table of `count` pages that all use `estimate` until told otherwise.
    public init(count: Int, estimate: PageGeometry) {
        self.count = max(0, count)
        self.estimate = estimate
        self.known = [:]
    }

    /// A table whose geometries are all known.
    public init(_ pages: [PageGeometry]) {
        let fallback = pages.first ?? (try! PageGeometry(size: Size(width: 612, height: 792)))
        self.init(count: pages.count, estimate: fallback)
        for (index, page) in pages.enumerated() where page != fallback {
            known[index] = page
        }
        knownBelow = pages.count
    }

    /// The pages whose real geometry was recorded, ascending; nil when all are known.
    public var knownPages: [Int]? { knownBelow >= count ? nil : known.keys.sorted() }

    /// The pages whose geometry may differ from `estimate`, ascending: every other page's
    /// geometry is `estimate`. Costs O(m log m) in the pages recorded.
    public var recordedPages: [Int] { known.keys.sorted() }

    /// Whether the geometry of `index` is real rather than estimated.
    public func isKnown(_ index: Int) -> Bool { index < knownBelow || known[index] != nil }

    /// The geometry of page `index` (real or estimated).
    public subscript(index: Int) -> PageGeometry {
        precondition(index >= 0 && index < count, "page \(index) out of 0..<\(count)")
        return known[index] ?? estimate
    }

    /// Records the real geometry of a page. Returns whether anything changed.
    @discardableResult
    public mutating func setGeometry(_ geometry: PageGeometry, forPage index: Int) throws(DocumentViewError) -> Bool {
        guard index >= 0, index < count else { throw .pageOutOfRange(page: index, pageCount: count) }
        let old = self[index]
        if index < knownBelow {
            if geometry == estimate { known[index] = nil } else { known[index] = geometry }
        } else {
            known[index] = geometry
        }
        return old != geometry
    }

    /// Changes the number of pages (the real count of a document whose page tree claimed
    /// another): the geometries of pages past the new end are forgotten, and pages added at
    /// the end use `estimate` until told otherwise. Costs O(m) in the pages recorded.
    public mutating func setCount(_ newCount: Int) {
        let newCount = max(0, newCount)
        guard newCount != count else { return }
        if newCount < count { known = known.filter { $0.key < newCount } }
        knownBelow = min(knownBelow, newCount)
        count = newCount
    }
}
