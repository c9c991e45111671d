import LecternCore
import LecternPDF
import LecternRender
import Logging
import Testing

/// What a frame drawn from tiles repaints: only what changed.
@Suite("Tile damage")
struct TileDamageTests {
    let logger = Logger(label: "test")

    static func pipeline(
        _ path: String = Fixture.sample, scrollMode: ViewConfiguration.ScrollMode = .perSpread,
        insets: EdgeInsets = .zero, viewport: Size = Size(width: 600, height: 900)
    ) throws -> Pipeline {
        let document = try PDFDocument(path: path)
        let configuration = ViewConfiguration(
            scrollMode: scrollMode, scrollDirection: scrollMode == .perSpread ? .horizontal : .vertical,
            contentInsets: insets)
        return Pipeline(
            document: document, view: try documentView(of: document, configuration: configuration, viewport: viewport))
    }

    static func scribble(_ buffer: FrameCompositorTests.Buffer, _ x: Int, _ y: Int) {
        buffer.pixels.storeBytes(of: 0x1234_5678, toByteOffset: y * buffer.stride + x * 4, as: UInt32.self)
    }

    @Test("a tile arriving damages only its rectangle")
    func tileArrival() throws {
        let pipeline = try Self.pipeline()
        let wanted = pipeline.plan().wanted
        let tiles = wanted.filter { $0.page == 0 && $0.kind != .preview }
        #expect(tiles.count == 12, "3 × 4 tiles cover the 600 × 849 page")
        // Everything but the last two tiles is there, over the page's preview.
        let (late, last) = (tiles[tiles.count - 2], tiles[tiles.count - 1])
        pipeline.render(wanted.filter { $0 != late && $0 != last })
        let compositor = FrameCompositor(logger: logger)
        let buffer = FrameCompositorTests.Buffer(width: 600, height: 900)
        let before = pipeline.plan()
        #expect(!before.isSharp)
        compositor.draw(pipeline.scene(before), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)

        pipeline.render([late])
        let after = pipeline.scene(pipeline.plan())
        let page = PixelBox(x: 0, y: 25, width: 600, height: 849)
        let tileRect = late.rect.offsetBy(dx: 0, dy: 25).intersection(page)
        #expect(compositor.damage(for: after) == [tileRect])
        // Pixels elsewhere on the page and around it are not repainted.
        let outside = [(tileRect.x - 1, tileRect.y), (tileRect.maxX, tileRect.maxY - 1), (10, 5), (10, 30)]
            .filter {
                $0.0 >= 0 && $0.0 < 600 && !(tileRect.x..<tileRect.maxX ~= $0.0 && tileRect.y..<tileRect.maxY ~= $0.1)
            }
        for (x, y) in outside { Self.scribble(buffer, x, y) }
        let damage = compositor.draw(after, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        #expect(damage == [tileRect])
        for (x, y) in outside { #expect(buffer.pixel(x, y) == 0x1234_5678, "(\(x), \(y)) left alone") }
        let reference = try renderReference(pipeline.document, page: 0, scale: 600.0 / 595, region: late.rect)
        let difference = PixelDifference(buffer, tileRect, reference, threshold: 0)
        #expect(difference.max == 0, "the tile's pixels are MuPDF's: \(difference)")

        // The last tile makes the page sharp: the preview under the tiles goes, which changes
        // no pixel, so only the last tile's rectangle is repainted.
        pipeline.render([last])
        let sharp = pipeline.plan()
        #expect(sharp.isSharp)
        let lastRect = last.rect.offsetBy(dx: 0, dy: 25).intersection(page)
        #expect(Set(compositor.damage(for: pipeline.scene(sharp)) ?? []) == [lastRect])
        compositor.draw(pipeline.scene(sharp), into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        let full = FrameCompositorTests.Buffer(width: 600, height: 900)
        FrameCompositor(logger: logger).draw(
            pipeline.scene(sharp), into: full.pixels, stride: full.stride, bufferAge: 0)
        var differing = 0
        for y in page.y..<page.maxY {
            for x in page.x..<page.maxX
            where buffer.pixel(x, y) != full.pixel(x, y) && buffer.pixel(x, y) != 0x1234_5678 {
                differing += 1
            }
        }
        #expect(differing == 0, "the partial repaints give the page a full redraw gives")
    }

    @Test("an unchanged frame is no damage and repaints nothing")
    func unchangedFrame() throws {
        let pipeline = try Self.pipeline()
        let plan = pipeline.settle()
        let compositor = FrameCompositor(logger: logger)
        let buffer = FrameCompositorTests.Buffer(width: 600, height: 900)
        compositor.draw(pipeline.scene(plan), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        let again = pipeline.scene(pipeline.plan())
        #expect(compositor.damage(for: again) == nil)
        Self.scribble(buffer, 300, 400)
        Self.scribble(buffer, 300, 5)
        #expect(compositor.draw(again, into: buffer.pixels, stride: buffer.stride, bufferAge: 1).isEmpty)
        #expect(buffer.pixel(300, 400) == 0x1234_5678)
        #expect(buffer.pixel(300, 5) == 0x1234_5678)
    }

    @Test("a scroll damages only the page areas that moved; the background beside them is left alone")
    func scrollDamage() throws {
        // Insets leave background on both sides of the 600 px wide pages.
        var pipeline = try Self.pipeline(
            scrollMode: .continuous, insets: EdgeInsets(left: 100, right: 100), viewport: Size(width: 800, height: 600))
        let compositor = FrameCompositor(logger: logger)
        let buffer = FrameCompositorTests.Buffer(width: 800, height: 600)
        pipeline.view.setContentOffset(Point(x: 0, y: 300))
        compositor.draw(
            pipeline.scene(pipeline.settle()), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        let sides = [(20, 300), (90, 10), (712, 590), (790, 300)]
        for (x, y) in sides { Self.scribble(buffer, x, y) }

        pipeline.view.scroll(by: Point(x: 0, y: 37.6))
        let scene = pipeline.scene(pipeline.settle())
        let damage = compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        #expect(!damage.isEmpty)
        // Pages span x 100..<700; their shadows reach 8 px further right and 2 px left.
        for box in damage { #expect(box.x >= 98 && box.maxX <= 708, "\(box) stays on the pages") }
        for (x, y) in sides { #expect(buffer.pixel(x, y) == 0x1234_5678, "(\(x), \(y)) left alone") }
        // What was repainted is what a full redraw gives.
        let full = FrameCompositorTests.Buffer(width: 800, height: 600)
        FrameCompositor(logger: logger).draw(scene, into: full.pixels, stride: full.stride, bufferAge: 0)
        var differing = 0
        for y in 0..<600 {
            for x in 100..<700 where buffer.pixel(x, y) != full.pixel(x, y) { differing += 1 }
        }
        #expect(differing == 0, "the partial repaint equals a full one")
    }

    @Test("a page that fails to render draws the error colour and reports a failure")
    func failedPage() throws {
        var pipeline = try Self.pipeline(Fixture.damagedPage)
        try pipeline.view.goToPage(1)
        let plan = pipeline.settle()
        #expect(plan.showsFailure)
        #expect(!plan.showsDamage)
        #expect(plan.pages.map(\.page) == [1])
        let buffer = FrameCompositorTests.Buffer(width: 600, height: 900)
        FrameCompositor(logger: logger).draw(
            pipeline.scene(plan), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        let page = plan.pages[0].frame.intersection(plan.pages[0].clip)
        var other = 0
        for y in page.y..<page.maxY {
            for x in page.x..<page.maxX where buffer.pixel(x, y) != TilePlanner.errorTileColor.argb { other += 1 }
        }
        #expect(other == 0, "every pixel of the page is the error colour")
        #expect(buffer.pixel(300, page.y - 20) == Color.background.argb)

        // Page 3 renders, with bad operators skipped: damaged, not failed.
        try pipeline.view.goToPage(2)
        let damaged = pipeline.settle()
        #expect(damaged.showsDamage)
        #expect(!damaged.showsFailure)
    }

    @Test("one failed tile is drawn in the error colour over its rectangle only")
    func failedTile() throws {
        let pipeline = try Self.pipeline()
        let tiles = pipeline.plan().wanted.filter { $0.page == 0 && $0.kind != .preview }
        let broken = tiles[5]
        pipeline.render(tiles.filter { $0 != broken })
        pipeline.cache.insert(.failed("cannot render page 1: out of memory"), for: broken)
        let plan = pipeline.plan()
        #expect(plan.isSharp && plan.showsFailure)
        let buffer = FrameCompositorTests.Buffer(width: 600, height: 900)
        FrameCompositor(logger: logger).draw(
            pipeline.scene(plan), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        let rect = broken.rect.offsetBy(dx: 0, dy: 25)
        let error = TilePlanner.errorTileColor.argb
        #expect(buffer.pixel(rect.x, rect.y) == error)
        #expect(buffer.pixel(rect.maxX - 1, rect.maxY - 1) == error)
        #expect(buffer.pixel(rect.x - 1, rect.y) != error)
        #expect(buffer.pixel(rect.maxX, rect.maxY) != error)
    }
}
