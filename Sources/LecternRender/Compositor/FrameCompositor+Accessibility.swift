import CPixman
import LecternCore

/// The accessibility button (`Scene.Accessibility`) and its panel.
extension FrameCompositor {
    /// The symbol's blue: the disc it sits on, as on signs (white on blue in every contrast: a
    /// visitor looks for it as it is).
    static let symbolBlue = Color(rgb: 0x1D5FAF)

    func paintAccessibility(_ accessibility: Scene.Accessibility, in scene: Scene, into target: OpaquePointer) {
        let button = scale.pixels(accessibility.buttonBox(height: scene.height))
        if let symbol = accessibilitySymbol(size: min(button.width, button.height)) {
            paintMask(symbol.disc, size: symbol.size, at: button, color: Self.symbolBlue, into: target)
            paintMask(symbol.figure, size: symbol.size, at: button, color: Color(rgb: 0xFFFFFF), into: target)
        }
        guard let rows = accessibility.rows else { return }
        let font = titleFont ?? bodyFont
        for (label, box) in zip(rows, accessibility.rowBoxes(height: scene.height)) {
            fill(target, box, palette.panel, op: PIXMAN_OP_SRC)
            fill(target, PixelBox(x: box.x, y: box.y, width: 6, height: box.height), palette.accent, op: PIXMAN_OP_SRC)
            guard let font else { continue }
            font.draw(
                label, x: box.x + 24, baselineY: box.y + (box.height - font.lineHeight) / 2 + font.ascent,
                color: palette.text, into: target)
        }
    }

    /// Composites `color` through the a8 image `mask` (`size` × `size`) at `box`'s corner (buffer
    /// pixels).
    private func paintMask(_ mask: OpaquePointer, size: Int, at box: PixelBox, color: Color, into target: OpaquePointer)
    {
        var pixmanColor = color.pixman
        guard let fill = pixman_image_create_solid_fill(&pixmanColor) else { return }
        defer { pixman_image_unref(fill) }
        pixman_image_composite32(
            PIXMAN_OP_OVER, fill, mask, target, 0, 0, 0, 0, Int32(box.x), Int32(box.y), Int32(size), Int32(size))
    }
}
