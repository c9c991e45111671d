/// A document's outline as a list a visitor opens and closes: entries in reading order, each
/// before its children, nested by `depth`. Which entries show follows from which are expanded:
/// the top level always, the children of an expanded entry whose ancestors are expanded too.
public struct OutlineTree: Hashable, Sendable {
    /// One entry.
    public struct Entry: Hashable, Sendable {
        public var title: String
        /// The page it leads to (0-based), nil for none.
        public var page: Int?
        public var depth: Int
        public init(title: String, page: Int?, depth: Int) {
            self.title = title
            self.page = page
            self.depth = depth
        }
    }

    /// The entries, each before its children.
    public let entries: [Entry]

    /// Entries whose depth jumps by more than one below their predecessor are taken as one
    /// level deeper than it (a malformed outline still nests).
    public init(_ entries: [Entry]) {
        var fixed: [Entry] = []
        fixed.reserveCapacity(entries.count)
        for var entry in entries {
            entry.depth = max(0, min(entry.depth, (fixed.last?.depth ?? -1) + 1))
            fixed.append(entry)
        }
        self.entries = fixed
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Whether entry `index` has children.
    public func hasChildren(_ index: Int) -> Bool {
        index + 1 < entries.count && entries[index + 1].depth > entries[index].depth
    }

    /// The entries that show when those in `expanded` are open, in order. O(entries).
    public func visibleEntries(expanded: Set<Int>) -> [Int] {
        var visible: [Int] = []
        // Entries deeper than this are hidden (a closed ancestor); Int.max: none is.
        var hiddenBelow = Int.max
        for (index, entry) in entries.enumerated() {
            if entry.depth > hiddenBelow { continue }
            hiddenBelow = Int.max
            visible.append(index)
            if hasChildren(index) && !expanded.contains(index) { hiddenBelow = entry.depth }
        }
        return visible
    }

    /// The entry of `visible` that holds `page`: the one leading to the latest page at or before
    /// it (the last such entry on a tie: the most specific). Nil before the first.
    public func entry(forPage page: Int, among visible: [Int]) -> Int? {
        var best: (index: Int, page: Int)?
        for index in visible {
            guard let target = entries[index].page, target <= page else { continue }
            if best == nil || target >= best!.page { best = (index, target) }
        }
        return best?.index
    }
}
