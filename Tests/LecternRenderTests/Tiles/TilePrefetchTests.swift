import LecternCore
import LecternPDF
import LecternRender
import Testing

@Suite("Tile prefetch")
struct TilePrefetchTests {
    /// A reader on `page` of the sample, one page per screen, turning pages sideways.
    static func pipeline(binding: PageBinding, page: Int) throws -> Pipeline {
        let document = try PDFDocument(path: Fixture.sample)
        var view = try documentView(
            of: document,
            configuration: ViewConfiguration(
                pageBinding: binding, scrollMode: .perSpread, scrollDirection: .horizontal),
            viewport: Size(width: 800, height: 600))
        try view.goToPage(page)
        return Pipeline(document: document, view: view)
    }

    @Test(
        "the next spread in reading order is rendered ahead: sharp from the cache on the first frame after the turn",
        arguments: [PageBinding.leftEdge, .rightEdge])
    func nextSpreadSharpAfterTurn(binding: PageBinding) throws {
        var pipeline = try Self.pipeline(binding: binding, page: 1)
        let current = pipeline.view.frame(forPage: 1), next = pipeline.view.frame(forPage: 2)
        if binding.isRightToLeft {
            #expect(next.maxX <= current.minX, "right-edge binding: the next page lies to the left")
        } else {
            #expect(next.minX >= current.maxX, "the next page lies to the right")
        }
        let first = pipeline.plan()
        #expect(first.pages.map(\.page) == [1])
        // What is wanted beyond the page on screen starts with the next page in reading order,
        // wherever the layout puts it.
        let ahead = first.wanted.filter { $0.page != 1 }
        #expect(ahead.first?.page == 2, "prefetch starts with the next page, not the previous (\(ahead.prefix(3)))")
        #expect(ahead.contains { $0.page == 2 && $0.kind != .preview }, "the next page's tiles are prefetched")

        let settled = pipeline.settle()
        #expect(settled.isSharp && settled.wanted.isEmpty)

        pipeline.view.showNextSpread(at: 10)
        let turning = pipeline.view.advanceAnimations(to: 10.1)
        let stillTurning = pipeline.view.advanceAnimations(to: 11)
        #expect(turning && !stillTurning, "the turn was under way, and has come to rest")
        let afterTurn = pipeline.plan()
        #expect(afterTurn.pages.map(\.page) == [2])
        #expect(afterTurn.sharpPages == [2], "the next page is sharp on the first frame after the turn")
        #expect(afterTurn.isSharp)
        #expect(!afterTurn.wanted.contains { $0.page == 2 }, "nothing of it is left to render")
        // Every layer is a sharp 1:1 tile (no preview underneath).
        let layers = afterTurn.pages.first?.layers ?? []
        let grid = TileGrid(
            frameWidth: pipeline.view.frame(forPage: 2).width, frameHeight: pipeline.view.frame(forPage: 2).height)
        #expect(grid.columns * grid.rows == 1, "the fitted page (\(grid.pageWidth) × \(grid.pageHeight)) is one tile")
        #expect(layers.count == grid.columns * grid.rows)
        for layer in layers {
            guard case .image(let image) = layer.source else {
                Issue.record("a layer of the turned-to page is not an image: \(layer)")
                continue
            }
            #expect(Double(image.width) == layer.rect.width && Double(image.height) == layer.rect.height)
        }
    }

    @Test("without room in the cache, the next page is prefetched and the previous one only as a preview")
    func prefetchWithinBudget() throws {
        var pipeline = try Self.pipeline(binding: .rightEdge, page: 1)
        let visible = pipeline.plan().wanted.filter { $0.page == 1 && $0.kind != .preview }
        let pageBytes = visible.reduce(0) { $0 + $1.byteCount }
        let grid = TileGrid(
            frameWidth: pipeline.view.frame(forPage: 1).width, frameHeight: pipeline.view.frame(forPage: 1).height)
        let previewBytes = TilePlanner.previewKey(page: 0, grid: grid).byteCount
        // Room for the page on screen, one more page and the previews of both neighbours
        // (the cache counts every byte); not for a third page.
        pipeline = Pipeline(
            document: pipeline.document, view: pipeline.view, cacheBudget: pageBytes * 25 / 10 + 2 * previewBytes)
        let plan = pipeline.plan()
        #expect(plan.wanted.contains { $0.page == 2 && $0.kind != .preview })
        #expect(!plan.wanted.contains { $0.page == 0 && $0.kind != .preview })
        #expect(plan.wanted.contains { $0.page == 0 && $0.kind == .preview })
    }
}
