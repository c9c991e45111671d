import LecternPDF

/// The hits of one search as they arrive (pages are searched from the reader's page on, then
/// from the start), kept in document order, with the hit next/previous is on.
struct SearchResults {
    /// A hit's place: its page, and its index among that page's hits.
    struct Position: Equatable {
        var page: Int
        var index: Int
    }

    private(set) var hitsByPage: [Int: [SearchHit]] = [:]
    /// The pages with hits, ascending.
    private(set) var pages: [Int] = []
    private(set) var count = 0
    /// The hit next/previous is on.
    private(set) var current: Position?
    /// How many hits come before `current` in document order.
    private(set) var currentOrdinal: Int?

    /// Adds a page's hits (each page once).
    mutating func add(page: Int, hits: [SearchHit]) {
        guard !hits.isEmpty, hitsByPage[page] == nil else { return }
        hitsByPage[page] = hits
        pages.insert(page, at: insertionIndex(of: page))
        count += hits.count
        if let current, page < current.page { currentOrdinal = (currentOrdinal ?? 0) + hits.count }
    }

    /// Where `page` goes in `pages` (binary search).
    private func insertionIndex(of page: Int) -> Int {
        var low = 0, high = pages.count
        while low < high {
            let mid = (low + high) / 2
            if pages[mid] < page { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Makes `position` the current hit.
    mutating func select(_ position: Position) {
        current = position
        // Once per selection: O(pages with hits).
        var before = position.index
        for page in pages where page < position.page { before += hitsByPage[page]?.count ?? 0 }
        currentOrdinal = before
    }

    /// The first hit on `page` or after it, else the first of all.
    func first(atOrAfter page: Int) -> Position? {
        let index = insertionIndex(of: page)
        let chosen = index < pages.count ? pages[index] : pages.first
        return chosen.map { Position(page: $0, index: 0) }
    }

    /// The hit after the current one (after the last: the first).
    func next() -> Position? {
        guard let current else { return pages.first.map { Position(page: $0, index: 0) } }
        if current.index + 1 < hitsByPage[current.page]?.count ?? 0 {
            return Position(page: current.page, index: current.index + 1)
        }
        let index = insertionIndex(of: current.page + 1)
        return Position(page: index < pages.count ? pages[index] : pages[0], index: 0)
    }

    /// The hit before the current one (before the first: the last).
    func previous() -> Position? {
        guard let current else { return last }
        if current.index > 0 { return Position(page: current.page, index: current.index - 1) }
        let index = insertionIndex(of: current.page)
        guard index > 0 else { return last }
        let page = pages[index - 1]
        return Position(page: page, index: (hitsByPage[page]?.count ?? 1) - 1)
    }

    private var last: Position? {
        pages.last.map { Position(page: $0, index: (hitsByPage[$0]?.count ?? 1) - 1) }
    }
}
