import LecternCore
import LecternPDF
import LecternRender
import Testing

/// While a page's sharp tiles render, the page shows its largest whole render cached (a
/// thumbnail) scaled up (issue 33, item 3): the page is not blank paper while something of it
/// is cached.
@Suite("Low resolution first")
struct LowResolutionFirstTests {
    /// A reader on page 3 of the sample, one page per screen, with nothing rendered.
    static func pipeline() throws -> Pipeline {
        let document = try PDFDocument(path: Fixture.sample)
        var view = try documentView(
            of: document, configuration: ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal),
            viewport: Size(width: 800, height: 600))
        try view.goToPage(2)
        return Pipeline(document: document, view: view)
    }

    /// The page's box in the plan.
    static func box(of plan: TilePlanner.Plan, page: Int) -> PixelBox? {
        plan.pages.first { $0.page == page }.map { $0.frame.intersection($0.clip) }
    }

    @Test("a page whose tiles are not drawn shows its thumbnail scaled to the page, not blank paper")
    func thumbnailScaledUp() throws {
        let pipeline = try Self.pipeline()
        let blank = pipeline.plan()
        let box = try #require(Self.box(of: blank, page: 2))
        #expect(!blank.isSharp)
        #expect(blank.pages.first { $0.page == 2 }?.layers.isEmpty == true)
        #expect(inkPixels(pipeline.compose(blank), box) == 0, "nothing cached: blank paper")
        // The thumbnail bar drew the page small.
        let thumbnail = TilePlanner.thumbnailKey(page: 2, frame: PixelBox(x: 0, y: 0, width: 60, height: 78))
        pipeline.render([thumbnail])
        #expect(pipeline.cache.largestWholePage(of: 2) == thumbnail)
        let plan = pipeline.plan()
        #expect(!plan.isSharp)
        let layers = plan.pages.first { $0.page == 2 }?.layers ?? []
        #expect(layers.count == 1)
        #expect(layers.first.map { $0.rect.width > 60 && $0.rect.height > 78 } == true, "scaled up to the page")
        let shown = inkPixels(pipeline.compose(plan), box)
        let sharp = inkPixels(pipeline.compose(pipeline.settle()), box)
        #expect(shown > sharp / 4, "the scaled thumbnail shows the page's ink (\(shown) of \(sharp) pixels)")
    }
}
