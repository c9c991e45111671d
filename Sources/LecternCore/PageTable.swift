/// The geometries of all pages of a document, some of which may still be estimates.
///
/// Opening a 15,000-page PDF must not wait for every page's boxes: the table answers with
/// `estimate` until a real geometry is recorded, and storage grows only with known pages.
public struct PageTable: Sendable, Equatable {
    /// The number of pages.
    public let count: Int
    /// The geometry assumed for pages whose real geometry is not known yet.
    public private(set) var estimate: PageGeometry
    private var known: [Int: PageGeometry]

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
        knownAll = true
    }

    private var knownAll = false

    /// The pages whose real geometry was recorded, ascending; nil when all are known.
    public var knownPages: [Int]? { knownAll ? nil : known.keys.sorted() }

    /// Whether the geometry of `index` is real rather than estimated.
    public func isKnown(_ index: Int) -> Bool { knownAll || known[index] != nil }

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
        if knownAll {
            if geometry == estimate { known[index] = nil } else { known[index] = geometry }
        } else {
            known[index] = geometry
        }
        return old != geometry
    }
}
