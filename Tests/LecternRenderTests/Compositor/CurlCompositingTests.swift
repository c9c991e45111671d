import LecternCore
import LecternRender
import Logging
import Testing

/// The page curl as the compositor draws it (issue 16, item 6): a 100 × 80 sheet at (40, 10),
/// a quarter turned, over the next page.
@Suite("Page curl compositing")
struct CurlCompositingTests {
    let red: UInt32 = 0xFFE5_3935, yellow: UInt32 = 0xFFFD_D835, blue: UInt32 = 0xFF1E_88E5
    let sheet = PixelBox(x: 40, y: 10, width: 100, height: 80)

    /// An image of the sheet's size, `edge` in the 10 columns at one side (right unless `left`), `fill` elsewhere.
    func image(_ fill: UInt32, edge: UInt32, left: Bool) -> RasterImage {
        let image = RasterImage(width: sheet.width, height: sheet.height)
        for y in 0..<sheet.height {
            for x in 0..<sheet.width {
                let atEdge = left ? x < 10 : x >= sheet.width - 10
                image.pixels.storeBytes(
                    of: atEdge ? edge : fill, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
            }
        }
        return image
    }

    func item(_ page: Int, _ image: RasterImage) -> Scene.PageItem {
        let rect = Rect(
            x: Double(sheet.x), y: Double(sheet.y), width: Double(sheet.width), height: Double(sheet.height))
        return Scene.PageItem(
            page: page, frame: sheet, clip: PixelBox(x: 0, y: 0, width: 200, height: 100),
            layers: [Scene.Layer(.image(image), rect: rect)])
    }

    static func channels(_ argb: UInt32) -> [Int] { [16, 8, 0].map { Int(argb >> UInt32($0) & 0xFF) } }
    /// `argb` is `colour` lightened: between it and white, nearer white.
    func isBack(_ argb: UInt32, of colour: UInt32) -> Bool {
        zip(Self.channels(argb), Self.channels(colour)).allSatisfy { pixel, page in
            let expected = Double(page) * 0.35 + 255 * 0.65
            return abs(Double(pixel) - expected) <= 3
        }
    }
    func isDarker(_ argb: UInt32, than colour: UInt32) -> Bool {
        let p = Self.channels(argb), c = Self.channels(colour)
        return zip(p, c).allSatisfy { $0 <= $1 } && p.reduce(0, +) < c.reduce(0, +) - 30
    }

    /// The frame of a turn `progress` of the way, drawn by `compositor` (a new one: the turn's
    /// first frame) after it drew the same turn at each of `before`.
    func draw(
        liftsFromLeft: Bool, progress: Double = 0.25, before: [Double] = [],
        compositor: FrameCompositor = FrameCompositor(logger: Logger(label: "test"))
    ) -> FrameCompositorTests.Buffer {
        let top = item(0, image(red, edge: yellow, left: liftsFromLeft))
        let under = item(1, image(blue, edge: blue, left: false))
        var buffer = FrameCompositorTests.Buffer(width: 200, height: 100)
        for p in before + [progress] {
            buffer = FrameCompositorTests.Buffer(width: 200, height: 100)
            var scene = Scene(width: 200, height: 100)
            scene.pages = [top, under]
            scene.curl = Scene.Curl(
                top: [top], under: [under], underShadow: nil, progress: p, liftsFromLeft: liftsFromLeft)
            compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        }
        return buffer
    }

    @Test("a back drawn a few columns a frame as the fold moves is the back drawn at once", arguments: [false, true])
    func backDrawnAsTheFoldMoves(liftsFromLeft: Bool) {
        let stepped = draw(liftsFromLeft: liftsFromLeft, progress: 0.45, before: [0.05, 0.1, 0.2, 0.3, 0.15])
        let atOnce = draw(liftsFromLeft: liftsFromLeft, progress: 0.45)
        var differing = 0
        for y in 0..<100 {
            for x in 0..<200 where stepped.pixel(x, y) != atOnce.pixel(x, y) { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels differ")
    }

    @Test("folded back from the right edge: flat front, the mirrored back lightened, a shadow, the next page")
    func foldFromTheRight() {
        // A quarter turned: the fold at x 115, the back over 90…115 mirroring 115…140.
        let b = draw(liftsFromLeft: false)
        #expect(b.pixel(60, 50) == red, "the flat part")
        #expect(isBack(b.pixel(93, 50), of: yellow), "the free edge's yellow, mirrored to the back's far side")
        #expect(isBack(b.pixel(103, 50), of: red), "the rest of the back")
        #expect(isDarker(b.pixel(117, 50), than: blue), "the shadow the lifted paper casts beside the fold")
        #expect(b.pixel(135, 50) == blue, "the next page")
        #expect(b.pixel(20, 50) == Palette.normal.background.argb && b.pixel(180, 50) == Palette.normal.background.argb)
        let later = draw(liftsFromLeft: false, progress: 0.5)
        #expect(later.pixel(70, 50) != red && later.pixel(130, 50) == blue, "half turned, the fold is at 90")
    }

    @Test("under right-edge binding the sheet folds back from its left edge")
    func foldFromTheLeft() {
        // The fold at x 65, the back over 65…90 mirroring 40…65.
        let b = draw(liftsFromLeft: true)
        #expect(b.pixel(120, 50) == red, "the flat part")
        #expect(isBack(b.pixel(87, 50), of: yellow), "the free edge's yellow, mirrored")
        #expect(isBack(b.pixel(77, 50), of: red))
        #expect(isDarker(b.pixel(63, 50), than: blue), "the shadow beside the fold")
        #expect(b.pixel(45, 50) == blue, "the next page")
    }

    /// A double spread's page at `x` (80 × 80 at y 10): `fill`, with `edge` in its 10 columns on
    /// the `left` or right.
    func bookPage(_ page: Int, x: Int, _ fill: UInt32, edge: UInt32, left: Bool) -> Scene.PageItem {
        let image = RasterImage(width: 80, height: 80)
        for y in 0..<80 {
            for column in 0..<80 {
                let atEdge = left ? column < 10 : column >= 70
                image.pixels.storeBytes(
                    of: atEdge ? edge : fill, toByteOffset: y * image.stride + column * 4, as: UInt32.self)
            }
        }
        return Scene.PageItem(
            page: page, frame: PixelBox(x: x, y: 10, width: 80, height: 80),
            clip: PixelBox(x: 0, y: 0, width: 200, height: 100),
            layers: [Scene.Layer(.image(image), rect: Rect(x: Double(x), y: 10, width: 80, height: 80))])
    }

    @Test("in a double spread the leaf's back is the next page, its outer edge at the free edge; the rest lies still")
    func leafOfABook() {
        // 0|1 over 2|3, the spine at x 100; 1 has a white outer edge, 2 a black one.
        let white: UInt32 = 0xFFFF_FFFF, black: UInt32 = 0xFF00_0000, green: UInt32 = 0xFF43_A047
        let top = [
            bookPage(0, x: 20, red, edge: red, left: true), bookPage(1, x: 100, yellow, edge: white, left: false),
        ]
        let under = [
            bookPage(2, x: 20, blue, edge: black, left: true), bookPage(3, x: 100, green, edge: green, left: true),
        ]
        func draw(progress: Double, turnsBack: Bool) -> FrameCompositorTests.Buffer {
            let buffer = FrameCompositorTests.Buffer(width: 200, height: 100)
            var scene = Scene(width: 200, height: 100)
            scene.pages = top + under
            scene.curl = Scene.Curl(
                top: top, under: under, underShadow: nil, progress: progress, liftsFromLeft: false,
                leaf: PageCurl.Leaf(front: 1, back: 2, turnsBack: turnsBack))
            FrameCompositor(logger: Logger(label: "test")).draw(
                scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
            return buffer
        }
        // Forward, a quarter: 1's free edge at 140, 2's outer 20 columns folded over 140…160.
        let forward = draw(progress: 0.25, turnsBack: false)
        #expect(forward.pixel(60, 50) == red, "0 stays")
        #expect(forward.pixel(110, 50) == yellow, "1 flat up to its free edge")
        #expect(forward.pixel(145, 50) == black && forward.pixel(152, 50) == blue, "2 from its outer edge, unmirrored")
        #expect(isDarker(forward.pixel(162, 50), than: green) && forward.pixel(177, 50) == green, "3 beneath")
        #expect(
            forward.pixel(10, 50) == Palette.normal.background.argb
                && forward.pixel(190, 50) == Palette.normal.background.argb)
        // Back, a quarter from 2|3: 2's free edge at 60, 1's outer 20 columns folded over 40…60.
        let back = draw(progress: 0.75, turnsBack: true)
        #expect(back.pixel(22, 50) == red, "0 beneath")
        #expect(isDarker(back.pixel(38, 50), than: red), "the shadow the fold casts on it")
        #expect(back.pixel(47, 50) == yellow && back.pixel(55, 50) == white, "1 from its outer edge, unmirrored")
        #expect(back.pixel(80, 50) == blue, "2 flat from its free edge")
        #expect(back.pixel(105, 50) == green && back.pixel(175, 50) == green, "3 stays")
    }
}
