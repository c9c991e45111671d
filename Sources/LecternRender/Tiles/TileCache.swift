/// Rendered tiles by key, least recently used evicted first, never holding more than its
/// byte budget. Main thread only.
public final class TileCache {
    private final class Node {
        let key: TileKey
        var content: TileContent
        var older: Node?
        var newer: Node?
        init(key: TileKey, content: TileContent) {
            self.key = key
            self.content = content
        }
    }

    private var nodes: [TileKey: Node] = [:]
    /// The page sizes with tiles cached, per page, with how many tiles each has (for fallbacks).
    private var sizes: [Int: [PageSize: Int]] = [:]
    private var oldest: Node?
    private var newest: Node?

    /// The most bytes the cached content may take.
    public var budget: Int {
        didSet { evict(toFit: 0) }
    }
    /// The bytes the cached content takes now (always ≤ `budget`).
    public private(set) var byteCount = 0
    public var count: Int { nodes.count }

    public init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The content for `key`, which becomes the most recently used.
    public func lookup(_ key: TileKey) -> TileContent? {
        guard let node = nodes[key] else { return nil }
        moveToNewest(node)
        return node.content
    }

    /// Whether `key` is cached, without touching its recency.
    public func contains(_ key: TileKey) -> Bool { nodes[key] != nil }

    /// Marks `key` as just used.
    public func touch(_ key: TileKey) {
        if let node = nodes[key] { moveToNewest(node) }
    }

    /// Adds or replaces content, evicting the least recently used until it fits. Content larger
    /// than the whole budget is not kept. Returns whether it was kept.
    @discardableResult
    public func insert(_ content: TileContent, for key: TileKey) -> Bool {
        remove(key)
        let cost = content.byteCount
        guard cost <= budget else { return false }
        evict(toFit: cost)
        let node = Node(key: key, content: content)
        nodes[key] = node
        link(node)
        byteCount += cost
        if key.kind != .preview { sizes[key.page, default: [:]][PageSize(key), default: 0] += 1 }
        return true
    }

    /// Removes `key` if cached.
    public func remove(_ key: TileKey) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        unlink(node)
        byteCount -= node.content.byteCount
        if key.kind != .preview, var perPage = sizes[key.page] {
            let left = (perPage[PageSize(key)] ?? 1) - 1
            perPage[PageSize(key)] = left > 0 ? left : nil
            sizes[key.page] = perPage.isEmpty ? nil : perPage
        }
    }

    /// A page size in pixels (a zoom bucket).
    public struct PageSize: Hashable, Sendable {
        public var width: Int, height: Int
        init(_ key: TileKey) {
            width = key.pageWidth
            height = key.pageHeight
        }
    }

    /// The page sizes that have tiles cached for `page`.
    public func cachedTileSizes(ofPage page: Int) -> [PageSize] {
        sizes[page].map { Array($0.keys) } ?? []
    }

    /// Keys from least to most recently used.
    public var keysByRecency: [TileKey] {
        var keys: [TileKey] = []
        var node = oldest
        while let current = node {
            keys.append(current.key)
            node = current.newer
        }
        return keys
    }

    private func evict(toFit cost: Int) {
        while byteCount + cost > budget, let victim = oldest {
            remove(victim.key)
        }
    }

    private func link(_ node: Node) {
        node.older = newest
        node.newer = nil
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }

    private func unlink(_ node: Node) {
        if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { newer.older = node.older } else { newest = node.older }
        node.older = nil
        node.newer = nil
    }

    private func moveToNewest(_ node: Node) {
        guard newest !== node else { return }
        unlink(node)
        link(node)
    }
}
