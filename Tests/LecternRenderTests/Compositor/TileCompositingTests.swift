import LecternCore
import LecternPDF
import LecternRender
import Logging
import Testing

/// Frames composed from tiles, compared with MuPDF's own rendering of the same region.
@Suite("Tile compositing")
struct TileCompositingTests {
    static func pipeline(_ configuration: ViewConfiguration, viewport: Size) throws -> Pipeline {
        let document = try PDFDocument(path: Fixture.sample)
        return Pipeline(
            document: document, view: try documentView(of: document, configuration: configuration, viewport: viewport))
    }

    @Test("a fitted page, drawn as one tile, is MuPDF's rendering of the whole page")
    func identity() throws {
        let pipeline = try Self.pipeline(
            ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal),
            viewport: Size(width: 600, height: 900))
        let plan = pipeline.settle()
        #expect(plan.isSharp && plan.sharpPages == [0])
        // 600 × 849 px is below `TileGrid.singleTileArea`: the page is one tile, one render.
        #expect(plan.pages.first?.layers.map(\.rect) == [Rect(x: 0, y: 25, width: 600, height: 849)])
        let buffer = pipeline.compose(plan)
        let pages = try pipeline.differences(buffer, threshold: 0)
        #expect(pages.map(\.page) == [0])
        for (_, box, difference) in pages {
            #expect(box == PixelBox(x: 0, y: 25, width: 600, height: 849), "the page fills the width, centred")
            #expect(inkPixels(buffer, box) > 10_000, "the page has text and a photo to compare")
            // The one tile is MuPDF's render of the whole page, copied 1:1: nothing is filtered,
            // and the region is the reference's, so no pixel differs (measured: max 0). A page
            // misplaced by one pixel is off by > 200; one drawn from 256-px tiles differs where
            // MuPDF rounds anti-aliased edges and photo pixels per region (max 2 when measured).
            #expect(difference.max == 0, "\(difference)")
        }
        #expect(buffer.pixel(300, 10) == Palette.normal.background.argb, "background above the page")
    }

    @Test(
        "zoomed 3× about the centre, the visible part, drawn from 256-px tiles, is MuPDF's rendering of that region at three times the scale"
    )
    func zoomedThrice() throws {
        var pipeline = try Self.pipeline(
            ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal),
            viewport: Size(width: 600, height: 900))
        // At 3× the page is 1800 × 2547 px, more than `TileGrid.singleTileArea` (at 2× it would
        // still be one tile): a grid of 256-px tiles, of which the screen shows 3 × 4.
        pipeline.view.zoom(to: 3, about: Point(x: 300, y: 450))
        let plan = pipeline.settle()
        #expect(plan.isSharp && plan.sharpPages == [0])
        #expect(plan.pages.map(\.frame) == [PixelBox(x: -600, y: -824, width: 1800, height: 2547)])
        let layers = plan.pages.first?.layers ?? []
        #expect(layers.count == 12, "one layer per visible tile")
        #expect(layers.allSatisfy { $0.rect.width <= 256 && $0.rect.height <= 256 })
        let buffer = pipeline.compose(plan)
        let pages = try pipeline.differences(buffer, threshold: 0)
        #expect(pages.map(\.box) == [PixelBox(x: 0, y: 0, width: 600, height: 900)], "the page fills the screen")
        for (_, box, difference) in pages {
            #expect(inkPixels(buffer, box) > 5_000)
            // The page's top is at y -823.61, drawn at -824: the reference is rendered on the same
            // whole-pixel grid. Only MuPDF's own rounding per region differs, most of it in the
            // photo, which MuPDF resamples per region (bands of rows begin at tile rows).
            // Measured: mean 0.066, max 4 (5.4 % of pixels off by 1…4). A page misplaced by one
            // pixel is off by > 200; tiles scaled from another size give a mean near 2.
            #expect(difference.max <= 8 && difference.mean < 0.15, "\(difference)")
        }
    }

    @Test("scrolled by a fractional amount with a page boundary mid-screen, both pages match MuPDF")
    func midScroll() throws {
        var pipeline = try Self.pipeline(
            ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical),
            viewport: Size(width: 600, height: 900))
        pipeline.view.setContentOffset(Point(x: 0, y: 400.37))
        let plan = pipeline.settle()
        #expect(plan.isSharp && plan.sharpPages == [0, 1])
        let buffer = pipeline.compose(plan)
        let pages = try pipeline.differences(buffer, threshold: 0)
        #expect(pages.map(\.page) == [0, 1])
        #expect(pages.map(\.box.y) == [0, 457], "page 2 starts at 857.08 − 400.37 = 456.71, drawn at 457")
        for (page, box, difference) in pages {
            #expect(inkPixels(buffer, box) > 1_000, "page \(page + 1)")
            // Each page sits on whole pixels (its top rounded) and tiles copy 1:1; only MuPDF's
            // rounding per region differs. Measured: page 1 mean 0.002, max 2; page 2 mean 0.000, max 1.
            #expect(difference.max <= 8 && difference.mean < 0.05, "page \(page + 1): \(difference)")
        }
        // The spacing between the pages (448.7…456.7 on screen) is background below page 1's shadow.
        #expect(buffer.pixel(300, 455) == Palette.normal.background.argb, "below the shadow of page 1")
    }

    @Test("while a pinch is in flux, tiles of the old size scaled bilinearly are close to the sharp page")
    func zoomInFlux() throws {
        var pipeline = try Self.pipeline(
            ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal),
            viewport: Size(width: 600, height: 900))
        let sharp = pipeline.settle()
        #expect(sharp.isSharp)
        let centre = Point(x: 300, y: 450)
        pipeline.view.beginPinch(focal: centre)
        pipeline.view.pinch(scale: 1.3, focal: centre)
        #expect(pipeline.view.isZoomChanging)
        let plan = pipeline.plan()
        #expect(!plan.isSharp)
        let size = pipeline.view.visibleLayout().first?.pages.first?.frame.width ?? 0
        #expect(abs(size - 780) < 1e-6)
        #expect(
            !plan.wanted.contains { $0.pageWidth == 780 && $0.kind != .preview },
            "no sharp tile is rendered for a size that lasts one frame")
        let layers = plan.pages.first?.layers ?? []
        #expect(
            layers.contains { layer in
                if case .image(let image) = layer.source, Double(image.width) != layer.rect.width { return true }
                return false
            }, "old tiles are drawn scaled")
        let buffer = pipeline.compose(plan)
        let pages = try pipeline.differences(buffer, threshold: 64)
        #expect(pages.count == 1)
        for (_, box, difference) in pages {
            #expect(inkPixels(buffer, box) > 10_000)
            // Upscaling 600 px wide tiles by 1.3 blurs edges (text, rules, the photo) compared with
            // MuPDF rendering at 780: small on average, few pixels far off, the worst on glyph
            // edges. Measured: mean 1.86, max 213, 1.18 % of pixels off by more than 64
            // (5.4 % by more than 8). Tiles misplaced or at the wrong scale give several times that.
            #expect(difference.mean < 4, "\(difference)")
            #expect(difference.fractionOff < 0.03, "\(difference)")
        }
    }
}
