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

    /// The first page zoomed 3× about the centre of the 600 × 900 screen: 1800 × 2547 px, more
    /// than `TileGrid.singleTileArea`, so drawn from 256-px tiles of which the screen shows some.
    static func zoomedPipeline() throws -> Pipeline {
        var pipeline = try Self.pipeline()
        pipeline.view.zoom(to: 3, about: Point(x: 300, y: 450))
        return pipeline
    }

    @Test("a tile arriving damages only its rectangle")
    func tileArrival() throws {
        let pipeline = try Self.zoomedPipeline()
        let screen = pipeline.viewport
        let wanted = pipeline.plan().wanted
        let tiles = wanted.filter { $0.page == 0 && $0.kind != .preview }
        #expect(tiles.count == 12, "3 × 4 tiles of the 1800 × 2547 page cover the 600 × 900 screen")
        #expect(tiles.allSatisfy { $0.pageWidth == 1800 && $0.pageHeight == 2547 }, "\(tiles.prefix(1))")
        try #require(tiles.count >= 3)
        // Everything but the last two tiles is there, over the page's preview.
        let (late, last) = (tiles[tiles.count - 2], tiles[tiles.count - 1])
        pipeline.render(wanted.filter { $0 != late && $0 != last })
        let compositor = FrameCompositor(logger: logger)
        let buffer = FrameCompositorTests.Buffer(width: 600, height: 900)
        let before = pipeline.plan()
        #expect(!before.isSharp)
        try #require(before.pages.count == 1)
        // Where the page's pixel (0, 0) is on screen.
        let origin = (x: before.pages[0].frame.x, y: before.pages[0].frame.y)
        #expect(origin.x == -600 && origin.y == -824, "the page's top, 25.46 at zoom 1, is at -823.61 at 3×")
        compositor.draw(pipeline.scene(before), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)

        pipeline.render([late])
        let after = pipeline.scene(pipeline.plan())
        let tileRect = late.rect.offsetBy(dx: origin.x, dy: origin.y).intersection(screen)
        #expect(!tileRect.isEmpty && tileRect.width < 600 && tileRect.height < 900, "\(tileRect)")
        #expect(compositor.damage(for: after) == [tileRect])
        // Pixels elsewhere on the page are not repainted: beside the tile's edges, and far away.
        let outside = [
            (tileRect.x - 1, tileRect.y), (tileRect.maxX, tileRect.maxY - 1), (tileRect.x, tileRect.y - 1),
            (tileRect.maxX - 1, tileRect.maxY), (300, 450), (10, 5), (590, 890),
        ].filter {
            screen.x..<screen.maxX ~= $0.0 && screen.y..<screen.maxY ~= $0.1
                && !(tileRect.x..<tileRect.maxX ~= $0.0 && tileRect.y..<tileRect.maxY ~= $0.1)
        }
        #expect(outside.count >= 4)
        for (x, y) in outside { Self.scribble(buffer, x, y) }
        let damage = compositor.draw(after, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        #expect(damage == [tileRect])
        for (x, y) in outside { #expect(buffer.pixel(x, y) == 0x1234_5678, "(\(x), \(y)) left alone") }
        let reference = try renderReference(pipeline.document, page: 0, scale: 1800.0 / 595, region: late.rect)
        let difference = PixelDifference(
            buffer, tileRect, reference, referenceX: tileRect.x - (origin.x + late.rect.x),
            referenceY: tileRect.y - (origin.y + late.rect.y), threshold: 0)
        #expect(difference.max == 0, "the tile's pixels are MuPDF's: \(difference)")

        // The last tile makes the page sharp: the preview under the tiles goes, which changes
        // no pixel, so only the last tile's rectangle is repainted.
        pipeline.render([last])
        let sharp = pipeline.plan()
        #expect(sharp.isSharp)
        let lastRect = last.rect.offsetBy(dx: origin.x, dy: origin.y).intersection(screen)
        #expect(Set(compositor.damage(for: pipeline.scene(sharp)) ?? []) == [lastRect])
        compositor.draw(pipeline.scene(sharp), into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        let full = FrameCompositorTests.Buffer(width: 600, height: 900)
        FrameCompositor(logger: logger).draw(
            pipeline.scene(sharp), into: full.pixels, stride: full.stride, bufferAge: 0)
        var differing = 0
        for y in screen.y..<screen.maxY {
            for x in screen.x..<screen.maxX
            where buffer.pixel(x, y) != full.pixel(x, y) && buffer.pixel(x, y) != 0x1234_5678 {
                differing += 1
            }
        }
        #expect(differing == 0, "the partial repaints give the page a full redraw gives")
    }

    @Test("a tile arriving on a fitted page (one tile) damages the whole page, not the screen")
    func singleTileArrival() throws {
        let pipeline = try Self.pipeline()
        let wanted = pipeline.plan().wanted
        let tiles = wanted.filter { $0.page == 0 && $0.kind != .preview }
        try #require(tiles == [TileKey(page: 0, pageWidth: 600, pageHeight: 849, kind: .tile(column: 0, row: 0))])
        let compositor = FrameCompositor(logger: logger)
        let buffer = FrameCompositorTests.Buffer(width: 600, height: 900)
        pipeline.render(wanted.filter { !tiles.contains($0) })
        compositor.draw(pipeline.scene(pipeline.plan()), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        pipeline.render(tiles)
        let sharp = pipeline.plan()
        #expect(sharp.isSharp && sharp.sharpPages == [0])
        let page = PixelBox(x: 0, y: 25, width: 600, height: 849)
        Self.scribble(buffer, 300, 5)
        Self.scribble(buffer, 300, 890)
        let damage = compositor.draw(pipeline.scene(sharp), into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        #expect(damage == [page])
        #expect(buffer.pixel(300, 5) == 0x1234_5678, "the background above the page is left alone")
        #expect(buffer.pixel(300, 890) == 0x1234_5678, "the background below the page is left alone")
        let reference = try renderReference(pipeline.document, page: 0, scale: 600.0 / 595, region: tiles[0].rect)
        let difference = PixelDifference(buffer, page, reference, threshold: 0)
        #expect(difference.max == 0, "the page is MuPDF's one render of it: \(difference)")
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
            for x in page.x..<page.maxX where buffer.pixel(x, y) != Palette.normal.errorTile.argb { other += 1 }
        }
        #expect(other == 0, "every pixel of the page is the error colour")
        #expect(buffer.pixel(300, page.y - 20) == Palette.normal.background.argb)

        // Page 3 renders, with bad operators skipped: damaged, not failed.
        try pipeline.view.goToPage(2)
        let damaged = pipeline.settle()
        #expect(damaged.showsDamage)
        #expect(!damaged.showsFailure)
    }

    @Test("one failed tile is drawn in the error colour over its rectangle only")
    func failedTile() throws {
        // Zoomed in, so the page is a grid of tiles and one of them can fail alone.
        let pipeline = try Self.zoomedPipeline()
        let tiles = pipeline.plan().wanted.filter { $0.page == 0 && $0.kind != .preview }
        #expect(tiles.count == 12)
        let origin = try #require(pipeline.plan().pages.first).frame
        // A tile wholly on screen with pixels of other tiles all round it.
        let broken = try #require(
            tiles.first {
                let r = $0.rect.offsetBy(dx: origin.x, dy: origin.y)
                return r.x > 0 && r.y > 0 && r.maxX < 600 && r.maxY < 900
            })
        #expect(broken.rect.width == 256 && broken.rect.height == 256)
        pipeline.render(tiles.filter { $0 != broken })
        pipeline.cache.insert(.failed("cannot render page 1: out of memory"), for: broken)
        let plan = pipeline.plan()
        #expect(plan.isSharp && plan.showsFailure)
        let buffer = FrameCompositorTests.Buffer(width: 600, height: 900)
        FrameCompositor(logger: logger).draw(
            pipeline.scene(plan), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        let rect = broken.rect.offsetBy(dx: origin.x, dy: origin.y)
        let error = Palette.normal.errorTile.argb
        var inside = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where buffer.pixel(x, y) != error { inside += 1 }
        }
        #expect(inside == 0, "every pixel of the failed tile is the error colour")
        // The pixels just around it belong to the tiles that rendered.
        var around = 0
        for x in rect.x - 1...rect.maxX {
            if buffer.pixel(x, rect.y - 1) == error { around += 1 }
            if buffer.pixel(x, rect.maxY) == error { around += 1 }
        }
        for y in rect.y..<rect.maxY {
            if buffer.pixel(rect.x - 1, y) == error { around += 1 }
            if buffer.pixel(rect.maxX, y) == error { around += 1 }
        }
        #expect(around == 0, "no pixel around the tile is the error colour")
    }
}
