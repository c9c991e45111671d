import Glibc
import LecternCore

/// Turns what the document view shows into a scene drawn from cached tiles, and into the
/// list of tiles still to render, most urgent first. Main thread; O(visible tiles).
///
/// A visible page shows, from the bottom up: page white, its low-resolution preview, tiles of
/// the nearest other zoom that are cached (scaled), then the sharp tiles for the size it is
/// shown at. Once every sharp tile of the visible part is there, only those are drawn.
/// While the zoom is in flux no sharp tile is asked for (each frame has another size).
public final class TilePlanner {
    /// A page's thumbnail on screen: the whole page rendered at `frame`'s size, clipped to `clip`
    /// (the strip or grid it scrolls in).
    public struct Thumbnail: Sendable, Equatable {
        public var page: Int
        public var frame: PixelBox
        public var clip: PixelBox
        public init(page: Int, frame: PixelBox, clip: PixelBox) {
            self.page = page
            self.frame = frame
            self.clip = clip
        }
    }

    /// A page that may come on screen soon, and where it would be.
    public struct Placement: Sendable {
        public var page: Int
        public var frame: Rect
        public init(page: Int, frame: Rect) {
            self.page = page
            self.frame = frame
        }
    }

    public struct Plan {
        public var shadows: [Scene.Shadow] = []
        public var pages: [Scene.PageItem] = []
        /// Tiles to render, most urgent first (none of them cached).
        public var wanted: [TileKey] = []
        /// Whether every visible page is drawn from sharp tiles only.
        public var isSharp = true
        /// Whether something visible was drawn from damaged content, or failed to render.
        public var showsDamage = false
        public var showsFailure = false
        /// A page the render worker process could not draw (it crashed on it or overran its deadline).
        public var showsUndrawable = false
        /// The visible pages drawn sharp.
        public var sharpPages: [Int] = []
        /// The thumbnails asked for (`plan(…thumbnails:)`), each drawn once its render is cached.
        public var thumbnails: [Scene.PageItem] = []
        /// A page turn to draw as a curl (`plan(curl:…)`); `pages` then holds both spreads' pages.
        public var curl: Scene.Curl?

        /// An empty plan: nothing on screen, nothing wanted.
        public init() {}
    }

    public let cache: TileCache
    /// How much the cache keeps beyond what the screen shows (resolved every plan).
    public var budget: TileBudget
    /// The colours the tiles it asks for are drawn in (`Contrast`): every key it makes carries it,
    /// so a change renders new tiles and a change back finds the old ones while they are cached.
    public var contrast = Contrast.normal
    /// Pages drawn ahead and kept elsewhere (the audit's slow pages, on disk): a tile missing from
    /// the cache that this has is put in the cache instead of being asked for.
    public var prerendered: ((TileKey) -> TileContent?)?
    /// The keys put in the cache from `prerendered`.
    private var prerenderedKeys: Set<TileKey> = []
    /// The last plan, while a move of its pages can make the next (`moved`).
    var reusable: Reusable?
    /// Plans made by moving the last one's pages (`moved`), not planned tile by tile.
    var movedPlans = 0

    public init(cache: TileCache, budget: TileBudget) {
        self.cache = cache
        self.budget = budget
    }

    /// Plans one frame: what it shows, and what to render, most urgent first.
    ///
    /// Everything the frame draws or waits for is pinned in the cache, so nothing on screen is
    /// evicted to make room for something else on screen, and the cache's budget is never
    /// below what the screen needs. Prefetch spends only what the budget leaves beside the
    /// screen, and asks for nothing the cache refused since the view last changed. So at rest
    /// every visible tile is either cached or wanted, and a wanted tile, once it arrives,
    /// stays: the plan converges.
    ///
    /// - Parameters:
    ///   - spreads: the document view's `visibleLayout()`.
    ///   - prefetch: pages to render ahead, most likely first.
    ///   - viewport: the buffer, in pixels.
    ///   - zoomChanging: the document view's `isZoomChanging`.
    ///   - thumbnails: page thumbnails on screen (the thumbnail bar or grid): pinned like every
    ///     tile the frame shows, and rendered last, after the prefetch (the lowest priority).
    ///   - scale: buffer pixels per unit of `spreads`, `prefetch` and `thumbnails` (surface
    ///     units): tiles are rendered at the pixel size, and the plan is in pixels. The cache's
    ///     budget follows, as it counts screens of `window`'s pixels.
    ///   - window: the part of `viewport` on screen (nil: all of it). Tiles outside it (a margin
    ///     drawn for pans: `PanSurface`) are shown when cached and wanted after the window's, but
    ///     neither pinned nor needed for the plan to be sharp.
    public func plan(
        spreads: [SpreadLayoutAttributes], prefetch: [Placement], viewport: PixelBox, zoomChanging: Bool,
        thumbnails: [Thumbnail] = [], scale: DisplayScale = .one, window: PixelBox? = nil
    ) -> Plan {
        let window = window ?? viewport
        let spreads = spreads.map { $0.scaled(by: scale) }
        let prefetch = prefetch.map { Placement(page: $0.page, frame: scale.pixels($0.frame)) }
        let thumbnails = thumbnails.map {
            Thumbnail(page: $0.page, frame: scale.pixelsKeepingSize($0.frame), clip: scale.pixels($0.clip))
        }
        if let moved = moved(
            spreads: spreads, prefetch: prefetch, viewport: viewport, window: window, scale: scale,
            zoomChanging: zoomChanging, thumbnails: thumbnails)
        {
            return moved
        }
        var plan = Plan()
        var planned: [PlannedPage] = []
        var previews: [TileKey] = []
        var sharp: [(key: TileKey, distance: Double)] = []
        var screen = OnScreen()
        var around: [(key: TileKey, distance: Double)] = []
        let centre = Point(x: Double(window.x + window.width / 2), y: Double(window.y + window.height / 2))
        let placed = Self.place(spreads, in: viewport)
        plan.shadows = placed.shadows
        for place in placed.pages {
            let (page, grid, frame) = (place.layout, place.grid, place.frame)
            let origin = (x: frame.x, y: frame.y)
            var item = Scene.PageItem(page: page.page, frame: frame, clip: place.clip)
            planned.append(PlannedPage(place, window: window))
            let area = place.visible.offsetBy(dx: -origin.x, dy: -origin.y)
            // Sharp tiles at this size.
            var sharpLayers: [Scene.Layer] = []
            var missing: [TileKey] = []
            for (column, row) in grid.tiles(covering: area) {
                let key = TileKey(page: page.page, grid: grid, column: column, row: row, contrast: contrast)
                let rect = grid.rect(column: column, row: row).offsetBy(dx: origin.x, dy: origin.y)
                guard !rect.intersection(window).isEmpty else {
                    if let content = cache.lookup(key) {
                        sharpLayers.append(layer(content, rect: rect, plan: &plan))
                    }
                    let dx = Double(rect.x + rect.width / 2) - centre.x
                    let dy = Double(rect.y + rect.height / 2) - centre.y
                    around.append((key, dx * dx + dy * dy))
                    continue
                }
                screen.add(key)
                if let content = cache.lookup(key) ?? cachePrerendered(key) {
                    sharpLayers.append(layer(content, rect: rect, plan: &plan))
                } else {
                    missing.append(key)
                    let dx = Double(rect.x + rect.width / 2) - centre.x
                    let dy = Double(rect.y + rect.height / 2) - centre.y
                    sharp.append((key, dx * dx + dy * dy))
                }
            }
            if missing.isEmpty {
                item.layers = sharpLayers
                plan.sharpPages.append(page.page)
            } else {
                plan.isSharp = false
                let previewKey = Self.previewKey(page: page.page, grid: grid, contrast: contrast)
                let fallback = fallbackLayers(
                    page: page.page, grid: grid, area: area, frame: page.frame, screen: &screen, plan: &plan)
                if !fallback.complete {
                    // The preview fills what the other zoom's tiles leave open; until it is
                    // there, the page's largest whole render cached (a thumbnail) scaled up.
                    if let preview = cache.lookup(previewKey) {
                        screen.add(previewKey)
                        item.layers.append(layer(preview, rect: frame, scaledTo: page.frame, plan: &plan))
                    } else {
                        // A failed one is no stand-in: the page's own tiles say whether it fails.
                        if let standIn = cache.largestWholePage(of: page.page, contrast: contrast),
                            let content = cache.lookup(standIn), case .image = content
                        {
                            screen.add(standIn)
                            item.layers.append(layer(content, rect: frame, scaledTo: page.frame, plan: &plan))
                        }
                        if zoomChanging || missing.count > 4 {
                            screen.add(previewKey)
                            previews.append(previewKey)
                        }
                    }
                }
                item.layers += fallback.layers
                item.layers += sharpLayers
            }
            plan.pages.append(item)
        }
        let thumbnailsWanted = planThumbnails(thumbnails, screen: &screen, plan: &plan)
        cache.pin(screen.keys)
        let screenBytes = window.width * window.height * 4
        let bytes = budget.resolved(screenBytes: screenBytes, onScreenBytes: screen.bytes)
        if cache.budget != bytes { cache.budget = bytes }
        plan.wanted = previews
        if !zoomChanging { plan.wanted += sharp.sorted { $0.distance < $1.distance }.map(\.key) }
        // The margin around the window, nearest first, spends what is left before the prefetch.
        var room = bytes - screen.bytes
        // Whether every tile around the window is cached, with room for all (`Reusable`).
        var keepsAround = true
        for (key, _) in around.sorted(by: { $0.distance < $1.distance }) {
            guard key.byteCount <= room, !cache.wasRefused(key) else {
                keepsAround = false
                break
            }
            room -= key.byteCount
            if !cache.touch(key) {
                keepsAround = false
                if !zoomChanging { plan.wanted.append(key) }
            }
        }
        plan.wanted += prefetchKeys(prefetch, room: room, screenBytes: screenBytes)
        plan.wanted += thumbnailsWanted
        // What is on screen stays the most recently used.
        for key in screen.keys { cache.touch(key) }
        reusable =
            plan.isSharp && plan.wanted.isEmpty && keepsAround && thumbnails.isEmpty
            ? Reusable(
                plan: plan, pages: planned, generation: cache.generation, viewport: viewport, window: window,
                scale: scale, zoomChanging: zoomChanging, contrast: contrast, budget: budget,
                prefetch: PrefetchedPage.pages(of: prefetch)
            )
            : nil
        return plan
    }

    /// A page that shows, as a plan places it: its grid, its frame in whole pixels, its
    /// spread's clip, and the part of it that shows.
    struct PlacedPage {
        var layout: PageLayoutAttributes
        var grid: TileGrid
        var frame: PixelBox
        var clip: PixelBox
        var visible: PixelBox
    }

    /// Where a plan puts `spreads` (pixels) in `viewport`: each spread's shadow, and its pages
    /// that show, in order.
    static func place(
        _ spreads: [SpreadLayoutAttributes], in viewport: PixelBox
    ) -> (
        shadows: [Scene.Shadow], pages: [PlacedPage]
    ) {
        var shadows: [Scene.Shadow] = []
        var pages: [PlacedPage] = []
        for spread in spreads {
            let clip = Self.pixels(spread.clipRect).intersection(viewport)
            if let first = spread.pages.first {
                let frame = spread.pages.dropFirst().reduce(first.frame) { $0.union($1.frame) }
                shadows.append(.init(frame: Self.pixels(frame), clip: clip))
            }
            for page in spread.pages {
                let grid = TileGrid(frameWidth: page.frame.width, frameHeight: page.frame.height)
                let frame = PixelBox(
                    x: Int(page.frame.minX.rounded()), y: Int(page.frame.minY.rounded()), width: grid.pageWidth,
                    height: grid.pageHeight)
                let visible = frame.intersection(clip)
                guard !visible.isEmpty else { continue }
                pages.append(PlacedPage(layout: page, grid: grid, frame: frame, clip: clip, visible: visible))
            }
        }
        return (shadows, pages)
    }

    /// The thumbnails' items, from the cache where rendered; returns the missing ones. Each is
    /// one render of the whole page at the thumbnail's size (a `.preview` key of that size).
    private func planThumbnails(_ thumbnails: [Thumbnail], screen: inout OnScreen, plan: inout Plan) -> [TileKey] {
        var missing: [TileKey] = []
        // A damaged page's thumbnail is no reason for the banner about the page on screen.
        var scratch = Plan()
        for thumbnail in thumbnails where !thumbnail.frame.intersection(thumbnail.clip).isEmpty {
            let key = Self.thumbnailKey(page: thumbnail.page, frame: thumbnail.frame, contrast: contrast)
            screen.add(key)
            var item = Scene.PageItem(page: thumbnail.page, frame: thumbnail.frame, clip: thumbnail.clip)
            if let content = cache.lookup(key) {
                item.layers = [layer(content, rect: thumbnail.frame, plan: &scratch)]
            } else {
                missing.append(key)
            }
            plan.thumbnails.append(item)
        }
        return missing
    }

    /// The key of `page` rendered whole at `frame`'s size.
    public static func thumbnailKey(page: Int, frame: PixelBox, contrast: Contrast = .normal) -> TileKey {
        TileKey(
            page: page, pageWidth: max(1, frame.width), pageHeight: max(1, frame.height), kind: .preview,
            contrast: contrast)
    }

    /// What the frame shows or waits for, and what it costs in the cache.
    private struct OnScreen {
        /// Room for a screen of grid tiles at once (a fitted page at 1920×1080 is 80): growing
        /// from empty, the set was hashed over again five times a frame.
        var keys = Set<TileKey>(minimumCapacity: 128)
        var bytes = 0

        mutating func add(_ key: TileKey) {
            if keys.insert(key).inserted { bytes += key.byteCount }
        }
    }

    /// `key`'s tile from `prerendered`, put in the cache (nil: it has none).
    private func cachePrerendered(_ key: TileKey) -> TileContent? {
        guard let content = prerendered?(key) else { return nil }
        _ = cache.insert(content, for: key)
        prerenderedKeys.insert(key)
        return content
    }

    /// The tiles to render ahead for `placements` (most likely first) within `room` bytes,
    /// each page's preview before its tiles: the cached ones are touched (kept), the missing
    /// ones returned. A page bigger than a screen gets only its preview; a page that does not
    /// fit whole gets nothing more, and nothing the cache refused is asked for again.
    private func prefetchKeys(_ placements: [Placement], room: Int, screenBytes: Int) -> [TileKey] {
        var wanted: [TileKey] = []
        var left = room
        func take(_ keys: [TileKey]) -> Bool {
            let cost = keys.reduce(0) { $0 + $1.byteCount }
            guard cost <= left, !keys.contains(where: { cache.wasRefused($0) }) else { return false }
            left -= cost
            for key in keys {
                if !cache.touch(key), cachePrerendered(key) == nil { wanted.append(key) }
            }
            return true
        }
        for placement in placements {
            let grid = TileGrid(frameWidth: placement.frame.width, frameHeight: placement.frame.height)
            // A page kept whole (drawn ahead) needs no preview either.
            if grid.columns == 1, grid.rows == 1, prerendered != nil {
                let whole = TileKey(page: placement.page, grid: grid, column: 0, row: 0, contrast: contrast)
                // (Read once: not again while the cache refuses it.)
                let kept =
                    cache.contains(whole)
                    ? prerenderedKeys.contains(whole) : !cache.wasRefused(whole) && cachePrerendered(whole) != nil
                if kept {
                    cache.touch(whole)
                    continue
                }
            }
            guard take([Self.previewKey(page: placement.page, grid: grid, contrast: contrast)]) else { continue }
            guard grid.pageWidth * grid.pageHeight * 4 <= screenBytes else { continue }
            let whole = PixelBox(x: 0, y: 0, width: grid.pageWidth, height: grid.pageHeight)
            _ = take(
                grid.tiles(covering: whole).map {
                    TileKey(page: placement.page, grid: grid, column: $0, row: $1, contrast: contrast)
                })
        }
        return wanted
    }

    /// Where the pages of the spreads to prefetch would be (see `DocumentView.prefetchSpreads`),
    /// given the spreads on screen.
    public static func prefetchPlacements(of view: DocumentView, visible: [SpreadLayoutAttributes]) -> [Placement] {
        view.prefetchSpreads(around: visible).flatMap { spread in
            view.spreads.pageRange(forSpread: spread).map { Placement(page: $0, frame: view.frame(forPage: $0)) }
        }
    }

    public static func previewKey(page: Int, grid: TileGrid, contrast: Contrast = .normal) -> TileKey {
        let size = grid.previewSize
        return TileKey(page: page, pageWidth: size.width, pageHeight: size.height, kind: .preview, contrast: contrast)
    }

    /// Whole pixels for a view rectangle.
    static func pixels(_ rect: Rect) -> PixelBox {
        let x0 = Int(rect.minX.rounded()), y0 = Int(rect.minY.rounded())
        return PixelBox(x: x0, y: y0, width: Int(rect.maxX.rounded()) - x0, height: Int(rect.maxY.rounded()) - y0)
    }

    private func layer(_ content: TileContent, rect: PixelBox, plan: inout Plan) -> Scene.Layer {
        let r = Rect(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
        return layer(content, rect: rect, scaledTo: r, plan: &plan)
    }

    private func layer(_ content: TileContent, rect: PixelBox, scaledTo target: Rect, plan: inout Plan) -> Scene.Layer {
        switch content {
        case .image(let image, let isDamaged):
            if isDamaged { plan.showsDamage = true }
            return Scene.Layer(.image(image), rect: target)
        case .failed(let reason):
            plan.showsFailure = true
            if reason == TileContent.undrawableReason { plan.showsUndrawable = true }
            return Scene.Layer(.fill(Palette(contrast).errorTile), rect: target)
        }
    }

    /// Cached tiles of the page at the nearest other size, scaled to where the page is now;
    /// `complete` when they cover all of `area`.
    private func fallbackLayers(
        page: Int, grid: TileGrid, area: PixelBox, frame: Rect, screen: inout OnScreen, plan: inout Plan
    ) -> (layers: [Scene.Layer], complete: Bool) {
        let sizes = cache.cachedTileSizes(ofPage: page, contrast: contrast).filter {
            $0.width != grid.pageWidth || $0.height != grid.pageHeight
        }
        guard
            let best = sizes.min(by: {
                abs(log(Double($0.width) / Double(grid.pageWidth)))
                    < abs(log(Double($1.width) / Double(grid.pageWidth)))
            })
        else { return ([], false) }
        let other = TileGrid(pageWidth: best.width, pageHeight: best.height)
        let kx = frame.width / Double(other.pageWidth), ky = frame.height / Double(other.pageHeight)
        let scaled = PixelBox(
            enclosing: Rect(
                x: Double(area.x) / kx, y: Double(area.y) / ky, width: Double(area.width) / kx,
                height: Double(area.height) / ky))
        var layers: [Scene.Layer] = []
        var complete = true
        for (column, row) in other.tiles(covering: scaled) {
            let key = TileKey(page: page, grid: other, column: column, row: row, contrast: contrast)
            guard let content = cache.lookup(key) else {
                complete = false
                continue
            }
            screen.add(key)
            let r = other.rect(column: column, row: row)
            let target = Rect(
                x: frame.minX.rounded() + Double(r.x) * kx, y: frame.minY.rounded() + Double(r.y) * ky,
                width: Double(r.width) * kx, height: Double(r.height) * ky)
            layers.append(layer(content, rect: r, scaledTo: target, plan: &plan))
        }
        return (layers, complete)
    }
}
