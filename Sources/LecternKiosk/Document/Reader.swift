import LecternCore
import LecternDocuments
import LecternLinux
import LecternPDF
import LecternPolicy
import LecternRender
import Logging

/// An open document on screen: its view model, and the tiles rendered for it.
final class Reader {
    let document: ShownDocument
    var view: DocumentView
    let cache: TileCache
    let planner: TilePlanner
    let scheduler: TileScheduler
    /// Whether the real sizes of all pages are known (else they are estimated from page 1).
    var pageSizesKnown = false
    /// Whether the real sizes are being read.
    var loadingPageSizes = false
    /// Stops reading the page sizes (shutdown).
    let pageSizesCookie = RenderCookie()
    private var lastWanted: [TileKey] = []
    /// The loop's watch on the render threads' wake-up (`deliverTiles(on:to:)`).
    private var tilesWatch: EventLoop.Watch?
    /// Tiles whose render failed (a damaged page, out of memory), for the metrics.
    private(set) var failedRenders = 0
    /// Told what is asked of the workers (trace logs).
    var onRequest: (([TileKey]) -> Void)?
    /// The pages whose tiles it asked the worker for (previews, tiles, thumbnails), so far.
    private(set) var pagesRequested: Set<Int> = []
    /// Text blocks and links per page in PDF user space (read on the worker), for smart zoom
    /// and links.
    /// Only the pages nearest the view keep theirs (`keepPageText`): a visitor leafing through
    /// 15,000 pages must not grow the reader by every page's text.
    var pageText: [Int: PageText] = [:]
    var pageTextLoading: Set<Int> = []
    /// How many pages keep their text: a screen shows at most a few, the rest is for turning back.
    static let pageTextLimit = 48

    /// Stores `texts` and forgets the text of the pages farthest from `page` beyond
    /// `pageTextLimit`.
    func keepPageText(_ texts: [Int: PageText], near page: Int) {
        pageText.merge(texts) { $1 }
        pageTextLoading.subtract(texts.keys)
        guard pageText.count > Self.pageTextLimit else { return }
        let farthest = pageText.keys.sorted { abs($0 - page) > abs($1 - page) }
        for far in farthest.prefix(pageText.count - Self.pageTextLimit) { pageText[far] = nil }
    }

    convenience init(
        document: ShownDocument, firstPage: PageInfo, configuration: ViewConfiguration, viewport: Size,
        budget: TileBudget, render: TileScheduler.Render? = nil
    ) throws(SystemError) {
        let estimate = (try? Reader.geometry(of: firstPage)) ?? (try! PageGeometry(size: Size(width: 612, height: 792)))
        var pages = PageTable(count: document.pageCount, estimate: estimate)
        _ = try? pages.setGeometry(estimate, forPage: 0)
        try self.init(
            document: document, pages: pages, configuration: configuration, viewport: viewport, budget: budget,
            render: render)
    }

    /// A reader of `document` laying out `pages` (another reader's: the presenter mirror's).
    /// - Parameter render: draws a tile (default: the document's renderer).
    init(
        document: ShownDocument, pages: PageTable, configuration: ViewConfiguration, viewport: Size,
        budget: TileBudget,
        render: TileScheduler.Render? = nil
    ) throws(SystemError) {
        self.document = document
        view = DocumentView(pages: pages, configuration: configuration, viewportSize: viewport)
        cache = TileCache(budget: 0)
        planner = TilePlanner(cache: cache, budget: budget)
        if let render {
            scheduler = try TileScheduler(render: render)
        } else {
            // The document's renderer, in batches: one request to the worker for several tiles.
            scheduler = try TileScheduler(batchSize: TileBatch.maximumTiles) { keys, cookies, deliver in
                document.renderTiles(keys, cookies: cookies, deliver: deliver)
            }
        }
    }

    /// Stops the work for this document: reading page sizes, and the tile workers, waited for
    /// until `deadline` at most (a render inside MuPDF may not stop at once).
    func stop(before deadline: ContinuousClock.Instant) {
        tilesWatch?.cancel()
        tilesWatch = nil
        pageSizesCookie.cancel()
        scheduler.stop(before: deadline)
    }

    /// Replaces the count the file claims with the pages its tree holds, and the estimated
    /// sizes with the real ones, keeping the page on screen where it is.
    func apply(_ sizes: PageSizes) throws(DocumentViewError) {
        view.setPageCount(sizes.pageCount)
        try view.updatePageGeometries(sizes.updates.filter { $0.page < sizes.pageCount })
    }

    /// The page geometry LecternCore uses for a page PDF reports.
    static func geometry(of info: PageInfo) throws(DocumentViewError) -> PageGeometry {
        try PageGeometry(mediaBox: info.mediaBox, cropBox: info.cropBox, rotation: info.rotation)
    }

    /// What `ReadingOrder.blocks` needs of `page` besides its characters: the page as displayed
    /// (PDF user space grows upwards, and /Rotate turns it), and right to left when the binding
    /// says so (nil: from the page's letters).
    func readingOrder(of page: Int) -> (toDisplay: AffineTransform, rightToLeft: Bool?) {
        (view.pages[page].pageToDisplay, view.configuration.pageBinding.isRightToLeft ? true : nil)
    }

    /// Plans the frame for a screen of `size`: what it shows, and the tiles to render, which
    /// go to the workers (only when the list changed). Nothing is prefetched before the first
    /// page is on screen (MuPDF shares locks: nothing should compete with it).
    /// - Parameters:
    ///   - thumbnails: the thumbnails the navigation overlays show (rendered last).
    ///   - showsPages: false while an overlay covers the pages (the thumbnail grid).
    ///   - transition: how a page turn looks. Between two spreads `none` draws the nearer one at
    ///     rest; a curl (the view's `pageCurl()`, when its configuration curls) draws both at rest.
    ///   - scale: buffer pixels per surface unit: `size` is in pixels, the plan too.
    ///   - contrast: the colours the tiles are drawn in (`Screen.contrast`).
    func plan(
        size: (width: Int, height: Int), prefetching: Bool, thumbnails: [TilePlanner.Thumbnail] = [],
        showsPages: Bool = true, transition: PageTurnTransition = .slide, scale: DisplayScale = .one,
        contrast: Contrast, margin: (x: Int, y: Int) = (0, 0)
    ) -> TilePlanner.Plan {
        planner.contrast = contrast
        let viewport = PixelBox(x: 0, y: 0, width: size.width, height: size.height)
        func prefetch(_ visible: [SpreadLayoutAttributes]) -> [TilePlanner.Placement] {
            prefetching && showsPages ? TilePlanner.prefetchPlacements(of: view, visible: visible) : []
        }
        let plan: TilePlanner.Plan
        if showsPages, let curl = view.pageCurl() {
            plan = planner.plan(
                curl: curl, prefetch: prefetch([curl.top, curl.under]), viewport: viewport, thumbnails: thumbnails,
                scale: scale)
        } else {
            // With a margin, the plan covers that many pixels around the window too (`PanSurface`).
            let marginUnits = Size(width: Double(margin.x) / scale.factor, height: Double(margin.y) / scale.factor)
            var visible = showsPages ? view.visibleLayout(margin: marginUnits) : []
            if showsPages, transition == .none, view.layout.isPagingEnabled,
                let resting = view.restingLayout(ofSpread: view.currentSpread)
            {
                visible = [resting]
            }
            let around = PixelBox(
                x: -margin.x, y: -margin.y, width: size.width + 2 * margin.x, height: size.height + 2 * margin.y)
            plan = planner.plan(
                spreads: visible, prefetch: prefetch(visible), viewport: around,
                zoomChanging: view.isZoomChanging, thumbnails: thumbnails, scale: scale, window: viewport)
        }
        if plan.wanted != lastWanted {
            lastWanted = plan.wanted
            for key in plan.wanted { pagesRequested.insert(key.page) }
            onRequest?(plan.wanted)
            scheduler.setWanted(plan.wanted)
        }
        return plan
    }

    /// Forgets the tiles of `page` (an edit changed it): the next frame renders it again.
    func dropTiles(ofPage page: Int) {
        for key in cache.keysByRecency where key.page == page { cache.remove(key) }
        lastWanted = []
    }

    /// How rendered tiles come back: the render threads (`TileScheduler`, running the closure
    /// `init` gave it) wake `loop`, whose turn files them in the cache (`collectTiles()`) and
    /// tells `arrived` how many came (the owner asks for a frame). Replaces an earlier call's
    /// delivery; `stop(before:)` ends it.
    func deliverTiles(on loop: EventLoop, to arrived: @escaping (_ count: Int) -> Void) {
        tilesWatch?.cancel()
        tilesWatch = loop.watch(scheduler.wakeDescriptor) { [weak self] in
            guard let self else { return }
            arrived(collectTiles())
        }
    }

    /// Files finished tiles in the cache; returns how many arrived. (The next plan no longer
    /// wants them, so the changed list goes to the workers; a tile the cache refused is not
    /// asked for again until the view changes: see `TilePlanner.plan`.)
    func collectTiles() -> Int {
        let results = scheduler.drain()
        for (key, content) in results {
            if case .failed = content { failedRenders += 1 }
            cache.insert(content, for: key)
        }
        return results.count
    }

    /// Page space (PDF user space) of `item`'s page to the frame's buffer pixels.
    func pageToPixels(_ item: Scene.PageItem) -> AffineTransform {
        let geometry = view.pages[item.page]
        let scale = Double(item.frame.width) / max(1, geometry.displaySize.width)
        return geometry.pageToDisplay.concatenating(.scale(scale))
            .concatenating(.translation(x: Double(item.frame.x), y: Double(item.frame.y)))
    }
}

extension KioskConfiguration {
    /// The tile cache's budget the policy asks for: `cache-mb`, or automatic.
    var tileBudget: TileBudget { self.cacheBudget.map(TileBudget.bytes) ?? .automatic }
}
