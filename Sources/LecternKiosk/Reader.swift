import Dispatch
import Foundation
import LecternCore
import LecternPDF
import LecternRender
import Logging

/// What a page holds for touch: its text blocks and links, in PDF user space.
struct PageText: Sendable {
    var blocks: [Rect]
    var links: [(rect: Rect, target: LinkTarget)]
}

/// An open document on screen: its view model, and the tiles rendered for it.
final class Reader {
    let document: PDFDocument
    var view: DocumentView
    let cache: TileCache
    let planner: TilePlanner
    let scheduler: TileScheduler
    /// Whether the real sizes of all pages are known (else they are estimated from page 1).
    var pageSizesKnown = false
    /// Whether the real sizes are being read.
    var loadingPageSizes = false
    private var lastWanted: [TileKey] = []
    /// Told what is asked of the workers (trace logs).
    var onRequest: (([TileKey]) -> Void)?
    /// Text blocks and links per page in PDF user space (read on the worker), for smart zoom
    /// and links.
    var pageText: [Int: PageText] = [:]
    var pageTextLoading: Set<Int> = []

    init(
        document: PDFDocument, firstPage: PageInfo, configuration: ViewConfiguration, viewport: Size,
        budget: TileBudget
    ) {
        self.document = document
        let estimate = (try? Reader.geometry(of: firstPage)) ?? (try! PageGeometry(size: Size(width: 612, height: 792)))
        var pages = PageTable(count: document.pageCount, estimate: estimate)
        _ = try? pages.setGeometry(estimate, forPage: 0)
        view = DocumentView(pages: pages, configuration: configuration, viewportSize: viewport)
        cache = TileCache(budget: 0)
        planner = TilePlanner(cache: cache, budget: budget)
        scheduler = TileScheduler { key, cookie in TileContent.render(key, of: document, cookie: cookie) }
    }

    func stop() { scheduler.stop() }

    /// The page geometry LecternCore uses for a page PDF reports.
    static func geometry(of info: PageInfo) throws(DocumentViewError) -> PageGeometry {
        func rect(_ r: PDFRect) -> Rect { Rect(x: r.x0, y: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0) }
        return try PageGeometry(mediaBox: rect(info.mediaBox), cropBox: rect(info.cropBox), rotation: info.rotation)
    }

    /// Asks the workers for `wanted` (most urgent first) unless that is what they have.
    func request(_ wanted: [TileKey]) {
        guard wanted != lastWanted else { return }
        lastWanted = wanted
        onRequest?(wanted)
        scheduler.setWanted(wanted)
    }

    /// Files finished tiles in the cache; returns how many arrived. (The next plan no longer
    /// wants them, so the changed list goes to the workers; a tile the cache refused is not
    /// asked for again until the view changes: see `TilePlanner.plan`.)
    func collectTiles() -> Int {
        let results = scheduler.drain()
        for (key, content) in results { cache.insert(content, for: key) }
        return results.count
    }
}
