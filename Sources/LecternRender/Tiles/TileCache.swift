import LecternCore

/// Rendered tiles by key, least recently used evicted first. Main thread only.
///
/// What the screen shows is pinned (`pin(_:)`): a pinned tile is never evicted, and a pinned
/// tile that arrives is always kept, even when the screen alone needs more than the budget.
/// The budget bounds everything else: unpinned tiles are kept only while the whole cache
/// fits in it, so the cache never holds more than `max(budget, pinned bytes)`.
public final class TileCache {
    /// A tile and when it was last used (`clock`'s value then): every frame uses each tile it
    /// shows, and a stamp costs one store where a recency list's relinking took eight retains
    /// and releases (6 % of a pan's CPU). Eviction, rare, looks for the oldest (`evict`).
    private struct Entry {
        var content: TileContent
        var used: UInt64
        /// Its key is in `pinned` (eviction scans the entries, and asks no set).
        var isPinned: Bool
    }

    private var entries: [TileKey: Entry] = [:]
    /// Counts uses: the next stamp.
    private var clock: UInt64 = 0
    /// The page sizes with tiles cached, per page, with how many tiles each has (for fallbacks).
    private var sizes: [Int: [PageSize: Int]] = [:]
    /// The whole-page renders (previews and thumbnails) cached, by page.
    private var wholePages: [Int: Set<TileKey>] = [:]
    /// The keys the screen shows (see `pin(_:)`).
    public private(set) var pinned: Set<TileKey> = []
    /// Unpinned tiles refused since the pins last changed (see `wasRefused(_:)`).
    private var refused: Set<TileKey> = []

    /// The most bytes the cached content may take, pinned tiles aside.
    public var budget: Int {
        didSet {
            generation += 1
            refused.removeAll()
            evict(toFit: 0)
        }
    }
    /// The bytes the cached content takes now (at most `max(budget, pinnedByteCount)`).
    public private(set) var byteCount = 0
    /// The bytes the cached pinned tiles take.
    public private(set) var pinnedByteCount = 0
    public var count: Int { entries.count }
    /// Counts the changes to what `lookup`, `contains` and `wasRefused` answer (a tile kept,
    /// refused or removed, the pins or the budget changed): a plan made at one generation is
    /// the plan again while it lasts (`TilePlanner`'s moves).
    public private(set) var generation = 0

    public init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The content for `key`, which becomes the most recently used.
    public func lookup(_ key: TileKey) -> TileContent? {
        guard let index = entries.index(forKey: key) else { return nil }
        stamp(index)
        return entries.values[index].content
    }

    /// Whether `key` is cached, without touching its recency.
    public func contains(_ key: TileKey) -> Bool { entries.index(forKey: key) != nil }

    /// Marks `key` as just used; returns whether it is cached.
    @discardableResult
    public func touch(_ key: TileKey) -> Bool {
        guard let index = entries.index(forKey: key) else { return false }
        stamp(index)
        return true
    }

    /// The entry at `index` is the most recently used.
    private func stamp(_ index: Dictionary<TileKey, Entry>.Index) {
        clock += 1
        entries.values[index].used = clock
    }

    /// Replaces the pinned keys: what the screen shows now (cached or on its way). Tiles that
    /// lose their pin become ordinary least-recently-used entries and are evicted if the cache
    /// is over budget without them. Forgets which tiles were refused when the pins change.
    public func pin(_ keys: Set<TileKey>) {
        guard keys != pinned else { return }
        for key in pinned.subtracting(keys) {
            guard let index = entries.index(forKey: key) else { continue }
            pinnedByteCount -= entries.values[index].content.byteCount
            entries.values[index].isPinned = false
        }
        for key in keys.subtracting(pinned) {
            guard let index = entries.index(forKey: key) else { continue }
            pinnedByteCount += entries.values[index].content.byteCount
            entries.values[index].isPinned = true
        }
        pinned = keys
        generation += 1
        refused.removeAll()
        evict(toFit: 0)
    }

    /// Whether `key` was offered and not kept since the pins or the budget last changed:
    /// asking for it again would only render it to be thrown away.
    public func wasRefused(_ key: TileKey) -> Bool { !refused.isEmpty && refused.contains(key) }

    /// Adds or replaces content, evicting unpinned tiles, least recently used first, until it
    /// fits. A pinned key is always kept; an unpinned one only if it fits in the budget
    /// beside the pinned tiles. Returns whether it was kept.
    @discardableResult
    public func insert(_ content: TileContent, for key: TileKey) -> Bool {
        generation += 1
        remove(key)
        let cost = content.byteCount
        let isPinned = pinned.contains(key)
        guard isPinned || pinnedByteCount + cost <= budget else {
            refused.insert(key)
            return false
        }
        evict(toFit: cost)
        clock += 1
        entries[key] = Entry(content: content, used: clock, isPinned: isPinned)
        byteCount += cost
        if isPinned { pinnedByteCount += cost }
        if key.kind == .preview {
            wholePages[key.page, default: []].insert(key)
        } else {
            sizes[key.page, default: [:]][PageSize(key), default: 0] += 1
        }
        return true
    }

    /// Removes `key` if cached.
    public func remove(_ key: TileKey) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        generation += 1
        byteCount -= entry.content.byteCount
        if entry.isPinned { pinnedByteCount -= entry.content.byteCount }
        if key.kind == .preview {
            wholePages[key.page]?.remove(key)
            if wholePages[key.page]?.isEmpty == true { wholePages[key.page] = nil }
        }
        if key.kind != .preview, var perPage = sizes[key.page] {
            let left = (perPage[PageSize(key)] ?? 1) - 1
            perPage[PageSize(key)] = left > 0 ? left : nil
            sizes[key.page] = perPage.isEmpty ? nil : perPage
        }
    }

    /// A page size in pixels (a zoom bucket), in one contrast.
    public struct PageSize: Hashable, Sendable {
        public var width: Int, height: Int
        public var contrast: Contrast
        init(_ key: TileKey) {
            width = key.pageWidth
            height = key.pageHeight
            contrast = key.contrast
        }
    }

    /// The page sizes that have tiles cached for `page` in `contrast`.
    public func cachedTileSizes(ofPage page: Int, contrast: Contrast = .normal) -> [PageSize] {
        sizes[page].map { $0.keys.filter { $0.contrast == contrast } } ?? []
    }

    /// The largest whole-page render of `page` in `contrast` cached (its preview at another size,
    /// or a thumbnail), to show scaled up while the page's tiles render.
    public func largestWholePage(of page: Int, contrast: Contrast = .normal) -> TileKey? {
        wholePages[page]?.filter { $0.contrast == contrast }.max {
            ($0.pageWidth * $0.pageHeight, $0.pageWidth) < ($1.pageWidth * $1.pageHeight, $1.pageWidth)
        }
    }

    /// Keys from least to most recently used.
    public var keysByRecency: [TileKey] {
        entries.sorted { $0.value.used < $1.value.used }.map(\.key)
    }

    /// Evicts unpinned tiles, oldest first, until `cost` more bytes fit in the budget or only
    /// pinned tiles are left. A tile that arrives in a full cache evicts about one: the oldest
    /// is found by a scan (no sort: a 4 GiB cache holds 16,000 tiles); past a few, one sort.
    private func evict(toFit cost: Int) {
        for _ in 0..<4 where byteCount + cost > budget {
            let unpinned = entries.lazy.filter { !$0.value.isPinned }
            guard let oldest = unpinned.min(by: { $0.value.used < $1.value.used })?.key else { return }
            remove(oldest)
        }
        guard byteCount + cost > budget else { return }
        for key in keysByRecency where !pinned.contains(key) {
            remove(key)
            if byteCount + cost <= budget { return }
        }
    }
}
