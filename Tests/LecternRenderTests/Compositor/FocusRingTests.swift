import LecternCore
import LecternRender
import Logging
import Testing

@Suite("The keypad focus ring")
struct FocusRingTests {
    typealias Buffer = FrameCompositorTests.Buffer

    @Test("two 3-pixel bands around the box, dark inside and bright outside; moving it damages only its sides")
    func bandsAndDamage() {
        let compositor = FrameCompositor(logger: Logger(label: "test"))
        let buffer = Buffer(width: 200, height: 120)
        var scene = Scene(width: 200, height: 120)
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        scene.overlays.focusRing = Scene.FocusRing(box: PixelBox(x: 40, y: 30, width: 60, height: 40))
        let damage = compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        #expect(damage.reduce(0) { $0 + $1.width * $1.height } < 60 * 40, "the sides, not the box: \(damage)")
        for x in 37..<40 { #expect(buffer.pixel(x, 50) == Color.focusInner.argb, "inner band at x \(x)") }
        for x in 34..<37 { #expect(buffer.pixel(x, 50) == Color.focusOuter.argb, "outer band at x \(x)") }
        #expect(buffer.pixel(33, 50) == Palette.normal.background.argb, "nothing beyond the ring")
        #expect(buffer.pixel(70, 50) == Palette.normal.background.argb, "the box itself is left alone")
        #expect(buffer.pixel(70, 28) == Color.focusInner.argb && buffer.pixel(70, 25) == Color.focusOuter.argb)
        #expect(buffer.pixel(101, 50) == Color.focusInner.argb && buffer.pixel(104, 50) == Color.focusOuter.argb)
        #expect(buffer.pixel(70, 71) == Color.focusInner.argb && buffer.pixel(70, 74) == Color.focusOuter.argb)
        // Gone: its old pixels come back.
        scene.overlays.focusRing = nil
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        #expect(
            buffer.pixel(35, 50) == Palette.normal.background.argb
                && buffer.pixel(70, 28) == Palette.normal.background.argb)
    }

    @Test("a band is never thinner than 3 pixels")
    func band() {
        #expect(Scene.FocusRing(box: PixelBox(x: 0, y: 0, width: 10, height: 10), band: 1).band == 3)
        #expect(Scene.FocusRing(box: PixelBox(x: 0, y: 0, width: 10, height: 10), band: 6).strips.count == 8)
    }
}
