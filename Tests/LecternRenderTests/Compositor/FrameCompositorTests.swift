import LecternCore
import LecternRender
import Logging
import Testing

@Suite("Frame compositor")
struct FrameCompositorTests {
    let logger = Logger(label: "test")

    /// A frame buffer the tests own.
    final class Buffer {
        let width: Int, height: Int
        /// Bytes per row: `width * 4` unless a test pads its rows.
        let stride: Int
        let pixels: UnsafeMutableRawPointer
        init(width: Int, height: Int, stride: Int? = nil) {
            self.width = width
            self.height = height
            self.stride = stride ?? width * 4
            pixels = .allocate(byteCount: self.stride * height, alignment: 64)
            pixels.initializeMemory(as: UInt32.self, repeating: 0xDEAD_BEEF, count: self.stride / 4 * height)
        }
        func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) }
        deinit { pixels.deallocate() }
    }

    /// A page showing `image` stretched over `frame`, unclipped.
    func page(_ image: RasterImage, _ frame: PixelBox) -> Scene.PageItem {
        let rect = Rect(
            x: Double(frame.x), y: Double(frame.y), width: Double(frame.width), height: Double(frame.height))
        return Scene.PageItem(
            page: 0, frame: frame, clip: PixelBox(x: -10_000, y: -10_000, width: 20_000, height: 20_000),
            layers: [Scene.Layer(.image(image), rect: rect)])
    }

    func solidImage(_ argb: UInt32, width: Int, height: Int) -> RasterImage {
        let image = RasterImage(width: width, height: height)
        image.pixels.initializeMemory(as: UInt32.self, repeating: argb, count: width * height)
        return image
    }

    @Test("a page image lands where the scene puts it, over the background")
    func pagePlacement() {
        let compositor = FrameCompositor(logger: logger)
        let buffer = Buffer(width: 200, height: 100)
        let image = solidImage(0xFF11_2233, width: 50, height: 40)
        var scene = Scene(width: 200, height: 100)
        scene.pages = [page(image, PixelBox(x: 20, y: 30, width: 50, height: 40))]
        let damage = compositor.draw(
            scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        #expect(damage == [PixelBox(x: 0, y: 0, width: 200, height: 100)], "the first frame is damaged whole")
        #expect(buffer.pixel(20, 30) == 0xFF11_2233)
        #expect(buffer.pixel(69, 69) == 0xFF11_2233)
        #expect(buffer.pixel(5, 5) == Palette.normal.background.argb)
        #expect(buffer.pixel(150, 10) == Palette.normal.background.argb)
        // No stray pixels from the buffer's old contents.
        for y in stride(from: 0, to: 100, by: 7) {
            for x in stride(from: 0, to: 200, by: 7) { #expect(buffer.pixel(x, y) != 0xDEAD_BEEF) }
        }
    }

    @Test(
        "rows a stride apart wider than the frame (an shm buffer's 256-byte rows): the same picture, padding untouched")
    func paddedStride() {
        let tight = Buffer(width: 70, height: 50)
        let padded = Buffer(width: 70, height: 50, stride: 512)
        let image = solidImage(0xFF11_2233, width: 30, height: 20)
        var scene = Scene(width: 70, height: 50)
        scene.pages = [page(image, PixelBox(x: 5, y: 10, width: 30, height: 20))]
        var moved = scene
        moved.pages = [page(image, PixelBox(x: 35, y: 25, width: 30, height: 20))]
        for buffer in [tight, padded] {
            let compositor = FrameCompositor(logger: logger)
            compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
            compositor.draw(moved, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        }
        for y in 0..<50 {
            for x in 0..<70 where padded.pixel(x, y) != tight.pixel(x, y) {
                Issue.record(
                    "(\(x), \(y)): \(padded.pixel(x, y)) in the padded buffer, \(tight.pixel(x, y)) in the tight one")
                return
            }
            for x in 70..<128 { #expect(padded.pixel(x, y) == 0xDEAD_BEEF, "row \(y)'s padding was written") }
        }
        #expect(padded.pixel(40, 30) == 0xFF11_2233)
    }

    @Test("an unchanged scene is no damage and no work")
    func unchangedSceneNoDamage() {
        let compositor = FrameCompositor(logger: logger)
        let buffer = Buffer(width: 64, height: 64)
        let scene = Scene(width: 64, height: 64)
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        #expect(compositor.damage(for: scene) == nil)
        var moved = scene
        moved.palette.background = Color(rgb: 0x101010)
        #expect(compositor.damage(for: moved) == [PixelBox(x: 0, y: 0, width: 64, height: 64)])
    }

    @Test("moving a page damages only its old and new rectangles; an age-1 buffer repaints only that")
    func partialDamage() {
        let compositor = FrameCompositor(logger: logger)
        let buffer = Buffer(width: 300, height: 200)
        let image = solidImage(0xFFFF_FFFF, width: 40, height: 40)
        var scene = Scene(width: 300, height: 200)
        scene.pages = [page(image, PixelBox(x: 10, y: 10, width: 40, height: 40))]
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        // Scribble outside the damaged area: an age-1 redraw must not touch it.
        buffer.pixels.storeBytes(of: 0x1234_5678, toByteOffset: (150 * 300 + 250) * 4, as: UInt32.self)
        scene.pages = [page(image, PixelBox(x: 100, y: 10, width: 40, height: 40))]
        let damage = compositor.draw(
            scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        let total = damage.reduce(0) { $0 + $1.width * $1.height }
        #expect(total < 300 * 200 / 4, "damage \(damage) covers far less than the frame")
        #expect(damage.contains { $0.x <= 10 && $0.maxX >= 50 }, "the old place is repainted")
        #expect(damage.contains { $0.x <= 100 && $0.maxX >= 140 }, "the new place is painted")
        #expect(buffer.pixel(250, 150) == 0x1234_5678, "pixels outside the damage are left alone")
        #expect(buffer.pixel(20, 20) == Palette.normal.background.argb, "the old page position is cleared")
        #expect(buffer.pixel(110, 20) == 0xFFFF_FFFF)
    }

    @Test("an older buffer repaints the damage of the frames it missed")
    func bufferAgeAccumulates() {
        let compositor = FrameCompositor(logger: logger)
        let a = Buffer(width: 120, height: 80), b = Buffer(width: 120, height: 80)
        let image = solidImage(0xFF00_FF00, width: 20, height: 20)
        var scene = Scene(width: 120, height: 80)
        scene.pages = [page(image, PixelBox(x: 0, y: 0, width: 20, height: 20))]
        compositor.draw(scene, into: a.pixels, stride: a.stride, bufferAge: 0)
        scene.pages = [page(image, PixelBox(x: 40, y: 0, width: 20, height: 20))]
        compositor.draw(scene, into: b.pixels, stride: b.stride, bufferAge: 0)
        scene.pages = [page(image, PixelBox(x: 80, y: 0, width: 20, height: 20))]
        // Buffer a still shows the first frame (age 2): the page at x=0 must be cleared too.
        compositor.draw(scene, into: a.pixels, stride: a.stride, bufferAge: 2)
        #expect(a.pixel(5, 5) == Palette.normal.background.argb)
        #expect(a.pixel(45, 5) == Palette.normal.background.argb)
        #expect(a.pixel(85, 5) == 0xFF00_FF00)
    }

    @Test("a highlight on light paper multiplies the page under it, channel by channel, and nothing else")
    func highlightMultiplies() {
        let compositor = FrameCompositor(logger: logger)
        let buffer = Buffer(width: 64, height: 16)
        let image = RasterImage(width: 64, height: 16)
        let pixels = image.pixels.bindMemory(to: UInt32.self, capacity: 64 * 16)
        for index in 0..<(64 * 16) {
            // Black, white and everything between, in each channel.
            let x = UInt32(index % 64)
            pixels[index] = 0xFF00_0000 | (x * 4 + 3) << 16 | (255 - x * 4) << 8 | (x * 37 % 256)
        }
        var scene = Scene(width: 64, height: 16)
        let frame = PixelBox(x: 0, y: 0, width: 64, height: 16)
        scene.pages = [page(image, frame)]
        scene.overlays.highlights = [
            Scene.Highlight(box: PixelBox(x: 0, y: 0, width: 64, height: 8), clip: frame, isCurrent: true)
        ]
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        let tint = Palette.normal.currentSearchHit
        // pixman's product of two 8-bit values, rounded.
        func product(_ a: UInt32, _ b: UInt8) -> UInt32 {
            let t = a * UInt32(b) + 0x80
            return (t + (t >> 8)) >> 8
        }
        for x in 0..<64 {
            let page = pixels[x]
            let expected =
                0xFF00_0000 | product(page >> 16 & 0xFF, tint.red) << 16 | product(page >> 8 & 0xFF, tint.green) << 8
                | product(page & 0xFF, tint.blue)
            #expect(buffer.pixel(x, 3) == expected, "x \(x): page \(String(page, radix: 16))")
            #expect(buffer.pixel(x, 12) == page, "below the highlight the page is untouched")
        }
    }

    @Test("an image of another size is scaled into the page frame")
    func scaledImage() {
        let compositor = FrameCompositor(logger: logger)
        let buffer = Buffer(width: 100, height: 100)
        let image = solidImage(0xFF80_4020, width: 10, height: 10)
        var scene = Scene(width: 100, height: 100)
        scene.pages = [page(image, PixelBox(x: 10, y: 10, width: 80, height: 80))]
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        #expect(buffer.pixel(50, 50) == 0xFF80_4020)
        #expect(buffer.pixel(85, 85) == 0xFF80_4020)
        #expect(buffer.pixel(5, 50) == Palette.normal.background.argb)
    }

    @Test("an error message is drawn as readable text on a card")
    func messageText() throws {
        let compositor = FrameCompositor(logger: logger)
        let buffer = Buffer(width: 800, height: 480)
        var scene = Scene(width: 800, height: 480)
        scene.message = .init(
            title: "This document cannot be shown", detail: "cannot open /x.pdf: not a PDF", isError: true)
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        // Text pixels: light on the dark card. Count pixels much brighter than the card.
        var bright = 0
        for y in 0..<480 {
            for x in 0..<800 where (buffer.pixel(x, y) >> 8 & 0xFF) > 0xC0 { bright += 1 }
        }
        #expect(bright > 500, "the title and detail are drawn (\(bright) bright pixels)")
        #expect(buffer.pixel(2, 2) == Palette.normal.background.argb)
    }

    @Test("a long search count stays clear of the ‹ button: the progress goes first, then the text is cut")
    func searchCountFits() throws {
        for status in ["130553 of 139600 · 95%", "Searching… 95%", "1 of 3"] {
            let compositor = FrameCompositor(logger: logger)
            let buffer = Buffer(width: 1280, height: 720)
            var scene = Scene(width: 1280, height: 720)
            scene.overlays.search = .init(query: "der", status: status, isEditing: false)
            compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
            // From the end of the status area (the field's end + 256) into the ‹ button's left
            // part, left of its glyph: no text.
            let previous = Scene.SearchBar.previousButton(width: 1280, height: 720)
            let from = Scene.SearchBar.field(width: 1280, height: 720).maxX + 256
            var ink = 0
            for y in previous.y..<previous.maxY {
                for x in from..<(previous.x + 16) where (buffer.pixel(x, y) >> 8 & 0xFF) > 0xC0 { ink += 1 }
            }
            #expect(ink == 0, "\(status): \(ink) text pixels between the count and the ‹ glyph")
            // The count itself is there.
            var drawn = 0
            for y in previous.y..<previous.maxY {
                for x in (from - 244)..<from where (buffer.pixel(x, y) >> 8 & 0xFF) > 0xC0 { drawn += 1 }
            }
            #expect(drawn > 50, "\(status): the count is drawn")
        }
    }

    /// An image whose every pixel says where it is: tile `index`, column, row.
    func labelledImage(index: UInt32, width: Int, height: Int) -> RasterImage {
        let image = RasterImage(width: width, height: height)
        let pixels = image.pixels.assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = 0xFF00_0000 | index << 18 | UInt32(y) << 9 | UInt32(x) }
        }
        return image
    }

    /// Whether `pixel` could be one of `labelledImage`'s (four 75×45 tiles).
    func isTilePixel(_ pixel: UInt32) -> Bool {
        pixel >> 24 == 0xFF && pixel >> 18 & 0x3F < 4 && pixel >> 9 & 0x1FF < 45 && pixel & 0x1FF < 75
    }

    @Test(
        "sharp tiles are copied pixel for pixel within the page's clip and the frame, in a frame of any stride, again after a move, and only where the frame is repainted"
    )
    func tileCopies() {
        let compositor = FrameCompositor(logger: logger)
        // Rows of 203 pixels and 12 bytes of padding: each row starts at another 16-byte offset.
        let buffer = Buffer(width: 203, height: 101, stride: 203 * 4 + 12)
        var tiles = (0..<4).map { labelledImage(index: UInt32($0), width: 75, height: 45) }
        func page(at origin: (x: Int, y: Int)) -> Scene.PageItem {
            let layers = tiles.enumerated().map { index, image in
                Scene.Layer(
                    .image(image),
                    rect: Rect(
                        x: Double(origin.x + index % 2 * 75), y: Double(origin.y + index / 2 * 45), width: 75,
                        height: 45))
            }
            return Scene.PageItem(
                page: 0, frame: PixelBox(x: origin.x, y: origin.y, width: 150, height: 90),
                clip: PixelBox(x: 3, y: 2, width: 120, height: 70), layers: layers)
        }
        var scene = Scene(width: 203, height: 101)
        for (origin, age) in [((x: -7, y: -5), 0), ((x: -4, y: -3), 1), ((x: 61, y: 30), 1)] {
            scene.pages = [page(at: origin)]
            compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: age)
            let visible = PixelBox(x: origin.x, y: origin.y, width: 150, height: 90)
                .intersection(PixelBox(x: 3, y: 2, width: 120, height: 70))
            var wrong = 0
            for y in 0..<101 {
                for x in 0..<203 {
                    // Inside: the tile's pixel; outside: anything but a tile's (background, shadow).
                    let pixel = buffer.pixel(x, y)
                    guard x >= visible.x, x < visible.maxX, y >= visible.y, y < visible.maxY else {
                        if isTilePixel(pixel) { wrong += 1 }
                        continue
                    }
                    let (column, row) = (x - origin.x, y - origin.y)
                    let tile = UInt32(row / 45 * 2 + column / 75)
                    if pixel != 0xFF00_0000 | tile << 18 | UInt32(row % 45) << 9 | UInt32(column % 75) { wrong += 1 }
                }
            }
            #expect(wrong == 0, "page at \(origin), buffer age \(age)")
        }
        // One tile changes: only it is repainted, the other tiles' pixels stay as they are.
        scene.pages = [page(at: (x: -4, y: -3))]
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        let scribble = (x: 20, y: 20)  // in tile 0
        buffer.pixels.storeBytes(
            of: 0x1234_5678, toByteOffset: scribble.y * buffer.stride + scribble.x * 4, as: UInt32.self)
        tiles[3] = solidImage(0xFF00_FF00, width: 75, height: 45)
        scene.pages = [page(at: (x: -4, y: -3))]
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        #expect(buffer.pixel(scribble.x, scribble.y) == 0x1234_5678, "tile 0 is not repainted")
        #expect(buffer.pixel(80, 50) == 0xFF00_FF00, "tile 3 is")
    }

    @Test(
        "the background is filled pixel for pixel around the pages, in every contrast, in a frame of any stride, and only where the frame is repainted"
    )
    func backgroundFills() {
        for mode in Contrast.Mode.allCases {
            let palette = Palette(Contrast(mode))
            let compositor = FrameCompositor(logger: logger)
            // Rows of 203 pixels and 12 bytes of padding: each row starts at another 16-byte offset.
            let buffer = Buffer(width: 203, height: 101, stride: 203 * 4 + 12)
            let image = solidImage(0xFF11_2233, width: 50, height: 40)
            var scene = Scene(width: 203, height: 101)
            scene.palette = palette
            func wrongPixels(page frame: PixelBox) -> Int {
                var wrong = 0
                for y in 0..<101 {
                    for x in 0..<203 {
                        let inPage = x >= frame.x && x < frame.maxX && y >= frame.y && y < frame.maxY
                        if buffer.pixel(x, y) != (inPage ? 0xFF11_2233 : palette.background.argb) { wrong += 1 }
                    }
                }
                return wrong
            }
            let first = PixelBox(x: 21, y: 30, width: 50, height: 40)
            scene.pages = [page(image, first)]
            compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
            #expect(wrongPixels(page: first) == 0, "\(mode): the whole frame")
            // The page moves: the frame is repainted where it was and where it is, not elsewhere.
            let scribble = (x: 180, y: 90)
            buffer.pixels.storeBytes(
                of: 0x1234_5678, toByteOffset: scribble.y * buffer.stride + scribble.x * 4, as: UInt32.self)
            let moved = PixelBox(x: 26, y: 33, width: 50, height: 40)
            scene.pages = [page(image, moved)]
            compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
            #expect(buffer.pixel(scribble.x, scribble.y) == 0x1234_5678, "\(mode): not repainted there")
            buffer.pixels.storeBytes(
                of: palette.background.argb, toByteOffset: scribble.y * buffer.stride + scribble.x * 4, as: UInt32.self)
            #expect(wrongPixels(page: moved) == 0, "\(mode): where the page was and is")
        }
    }
}
