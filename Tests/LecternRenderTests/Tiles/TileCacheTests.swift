import LecternRender
import LecternTestSupport
import Testing

@Suite("Tile cache")
struct TileCacheTests {
    /// Image content costing `side` × `side` × 4 bytes.
    static func image(side: Int) -> TileContent {
        .image(RasterImage(width: side, height: side), isDamaged: false)
    }

    static func tile(_ column: Int, page: Int = 0, width: Int = 1000) -> TileKey {
        TileKey(page: page, pageWidth: width, pageHeight: width * 4 / 3, kind: .tile(column: column, row: 0))
    }

    @Test("lookups make a tile the most recent; eviction takes the least recently used")
    func leastRecentlyUsedOrder() {
        // Room for exactly three 10×10 tiles.
        let cache = TileCache(budget: 3 * 400)
        let a = Self.tile(0), b = Self.tile(1), c = Self.tile(2), d = Self.tile(3)
        for key in [a, b, c] { #expect(cache.insert(Self.image(side: 10), for: key)) }
        #expect(cache.keysByRecency == [a, b, c])
        #expect(cache.lookup(a) != nil)
        #expect(cache.keysByRecency == [b, c, a], "a lookup moves the tile to the newest end")
        #expect(cache.contains(b))
        #expect(cache.keysByRecency == [b, c, a], "contains does not touch")
        cache.touch(b)
        #expect(cache.keysByRecency == [c, a, b])
        cache.insert(Self.image(side: 10), for: d)
        #expect(!cache.contains(c), "the least recently used tile is evicted")
        #expect(cache.keysByRecency == [a, b, d])
        #expect(cache.byteCount == 1200)
        // Replacing a tile makes it the newest and charges only the new content.
        cache.insert(Self.image(side: 5), for: a)
        #expect(cache.keysByRecency == [b, d, a])
        #expect(cache.byteCount == 400 + 400 + 100)
    }

    @Test("a big tile evicts many small ones oldest first, past the pinned ones, one scan at a time and then a sort")
    func manyEvictions() {
        // Room for twelve 10×10 tiles; the ninth and tenth oldest are pinned.
        let cache = TileCache(budget: 12 * 400)
        let keys = (0..<12).map { Self.tile($0) }
        for key in keys { cache.insert(Self.image(side: 10), for: key) }
        // Used again, in this order: 0 becomes the newest, then 5.
        cache.touch(keys[0])
        cache.touch(keys[5])
        cache.pin([keys[1], keys[2]])
        // 2,500 bytes need seven tiles gone: the oldest unpinned ones, 3, 4, 6, 7, 8, 9, 10.
        let big = Self.tile(0, page: 1)
        #expect(cache.insert(Self.image(side: 25), for: big))
        #expect(cache.keysByRecency == [keys[1], keys[2], keys[11], keys[0], keys[5], big])
        #expect(cache.byteCount == 5 * 400 + 2500)
        #expect(cache.pinnedByteCount == 800)
    }

    @Test("content larger than the whole budget is refused and evicts nothing")
    func oversizeRefused() {
        let cache = TileCache(budget: 1000)
        let kept = Self.tile(0), big = Self.tile(1)
        cache.insert(Self.image(side: 10), for: kept)
        #expect(!cache.insert(Self.image(side: 16), for: big), "1024 bytes do not fit in 1000")
        #expect(!cache.contains(big))
        #expect(cache.contains(kept), "a refused insert does not empty the cache first")
        #expect(cache.byteCount == 400)
        #expect(cache.insert(Self.image(side: 15), for: big), "900 bytes fit once the other tile goes")
        #expect(cache.keysByRecency == [big])
        #expect(cache.byteCount == 900)
    }

    @Test("shrinking the budget evicts the oldest tiles until the rest fit")
    func shrinkingBudget() {
        let cache = TileCache(budget: 4000)
        let keys = (0..<4).map { Self.tile($0) }
        for key in keys { cache.insert(Self.image(side: 10), for: key) }
        cache.touch(keys[0])
        cache.budget = 900
        #expect(cache.keysByRecency == [keys[3], keys[0]])
        #expect(cache.byteCount == 800)
        cache.budget = 0
        #expect(cache.count == 0)
        #expect(cache.byteCount == 0)
    }

    @Test("what the screen shows is pinned: never evicted for anything, kept even beyond the budget")
    func pinnedTilesStay() {
        // Room for two 10×10 tiles; the screen shows three.
        let cache = TileCache(budget: 2 * 400)
        let screen = [Self.tile(0), Self.tile(1), Self.tile(2)]
        cache.pin(Set(screen))
        for key in screen { #expect(cache.insert(Self.image(side: 10), for: key), "\(key) is on screen: kept") }
        #expect(cache.byteCount == 1200 && cache.pinnedByteCount == 1200, "over budget by what the screen needs")
        // Something off screen does not fit beside the screen, and evicts nothing.
        let ahead = Self.tile(3)
        #expect(!cache.insert(Self.image(side: 10), for: ahead))
        #expect(cache.wasRefused(ahead), "a refused tile is remembered")
        #expect(Set(cache.keysByRecency) == Set(screen))
        // Shrinking the budget keeps the pinned tiles too.
        cache.budget = 0
        #expect(Set(cache.keysByRecency) == Set(screen))
        cache.budget = 2 * 400
        // The view moves on: tile 0 leaves the screen and is evicted to fit the budget; the
        // refusals are forgotten.
        cache.pin([screen[1], screen[2]])
        #expect(!cache.wasRefused(ahead))
        #expect(!cache.contains(screen[0]))
        #expect(cache.byteCount == 800 && cache.pinnedByteCount == 800)
        // An unpinned tile is kept when the budget has room beside the screen, evicting
        // unpinned tiles only.
        cache.budget = 3 * 400
        #expect(cache.insert(Self.image(side: 10), for: ahead))
        #expect(cache.insert(Self.image(side: 10), for: screen[0]))
        #expect(!cache.contains(ahead), "the older unpinned tile made room")
        #expect(cache.contains(screen[1]) && cache.contains(screen[2]))
    }

    @Test("the page sizes with cached tiles follow inserts, evictions and removals")
    func cachedTileSizes() {
        let cache = TileCache(budget: 5 * 400)
        let small0 = Self.tile(0, width: 600), small1 = Self.tile(1, width: 600)
        let large = Self.tile(0, width: 1200)
        let preview = TileKey(page: 0, pageWidth: 240, pageHeight: 320, kind: .preview)
        let otherPage = Self.tile(0, page: 1, width: 600)
        for key in [small0, large, small1, preview, otherPage] { cache.insert(Self.image(side: 10), for: key) }
        #expect(Set(cache.cachedTileSizes(ofPage: 0).map(\.width)) == [600, 1200], "previews are not tile sizes")
        #expect(cache.cachedTileSizes(ofPage: 1).map(\.width) == [600])
        // Evict small0 (the oldest): page 0 still has a 600 tile (small1).
        cache.insert(Self.image(side: 10), for: Self.tile(5, page: 2))
        #expect(!cache.contains(small0))
        #expect(Set(cache.cachedTileSizes(ofPage: 0).map(\.width)) == [600, 1200])
        // Evict large: only 600 is left.
        cache.insert(Self.image(side: 10), for: Self.tile(6, page: 2))
        #expect(!cache.contains(large))
        #expect(cache.cachedTileSizes(ofPage: 0).map(\.width) == [600])
        // Evict small1: no tile of page 0 is left, only its preview.
        cache.insert(Self.image(side: 10), for: Self.tile(7, page: 2))
        #expect(!cache.contains(small1))
        #expect(cache.contains(preview))
        #expect(cache.cachedTileSizes(ofPage: 0).isEmpty)
        cache.remove(otherPage)
        #expect(cache.cachedTileSizes(ofPage: 1).isEmpty)
    }

    @Test("random inserts, lookups, removals and budget changes never exceed the budget", arguments: [1, 2, 3, 4])
    func budgetProperty(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let cache = TileCache(budget: 40_000)
        // A reference model: keys with their cost, least recently used first.
        var model: [(key: TileKey, cost: Int)] = []
        var budget = 40_000
        let keys: [TileKey] =
            (0..<3).flatMap { page in
                [600, 900].flatMap { width in (0..<6).map { Self.tile($0, page: page, width: width) } }
            } + (0..<3).map { TileKey(page: $0, pageWidth: 200, pageHeight: 280, kind: .preview) }
        func evict(toFit cost: Int) {
            while model.reduce(0, { $0 + $1.cost }) + cost > budget, !model.isEmpty { model.removeFirst() }
        }
        for step in 0..<3000 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            switch random.next() % 10 {
            case 0..<5:
                let content: TileContent =
                    random.next() % 8 == 0
                    ? .failed(String(repeating: "x", count: Int(random.next() % 40)))
                    : Self.image(side: 1 + Int(random.next() % 64))
                let kept = cache.insert(content, for: key)
                model.removeAll { $0.key == key }
                #expect(kept == (content.byteCount <= budget), "step \(step)")
                if kept {
                    evict(toFit: content.byteCount)
                    model.append((key, content.byteCount))
                }
            case 5..<8:
                let found = cache.lookup(key) != nil
                #expect(found == model.contains { $0.key == key }, "step \(step)")
                if let index = model.firstIndex(where: { $0.key == key }) { model.append(model.remove(at: index)) }
            case 8:
                cache.remove(key)
                model.removeAll { $0.key == key }
            default:
                budget = Int(random.next() % 60_000)
                cache.budget = budget
                evict(toFit: 0)
            }
            let kept = model.reduce(0) { $0 + $1.cost }
            #expect(cache.byteCount <= cache.budget, "step \(step): \(cache.byteCount) > \(cache.budget)")
            #expect(cache.byteCount == kept, "step \(step): byte count is the sum of the kept tiles")
            #expect(cache.keysByRecency == model.map(\.key), "step \(step): recency order")
            for page in 0..<3 {
                let sizes = Set(model.filter { $0.key.page == page && $0.key.kind != .preview }.map(\.key.pageWidth))
                #expect(Set(cache.cachedTileSizes(ofPage: page).map(\.width)) == sizes, "step \(step)")
            }
            if cache.byteCount > cache.budget || cache.keysByRecency != model.map(\.key) { break }
        }
    }
}
