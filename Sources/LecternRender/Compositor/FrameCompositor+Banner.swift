import CPixman
import LecternCore

/// The banner along the bottom edge (`Scene.banner`), with its button (`Scene.bannerAction`).
extension FrameCompositor {
    /// The banner as drawn with this compositor's font (surface units).
    func bannerBox(in scene: Scene) -> PixelBox {
        scene.bannerBox(textHeight: bodyFont?.lineHeight ?? 24)
    }

    /// Where the banner's button is on screen (surface units), for hit tests: nil without one.
    /// Asked after every frame: without a button it does not load the fonts (a first frame
    /// that shows no text must not wait for fcft).
    public func bannerButtonBox(in scene: Scene) -> PixelBox? {
        guard scene.banner != nil, scene.bannerAction != nil else { return nil }
        return scene.bannerButtonBox(textHeight: bodyFont?.lineHeight ?? 24)
    }

    func paintBanner(_ text: String, in scene: Scene, target: OpaquePointer) {
        let box = bannerBox(in: scene)
        fill(target, box, palette.banner, op: PIXMAN_OP_OVER)
        guard let bodyFont else { return }
        let baseline = box.y + (box.height - bodyFont.lineHeight) / 2 + bodyFont.ascent
        guard let button = bannerButtonBox(in: scene), let action = scene.bannerAction else {
            let x = max(16, (scene.width - bodyFont.width(of: text)) / 2)
            return bodyFont.draw(text, x: x, baselineY: baseline, color: palette.text, into: target)
        }
        // The text centred in the room beside the button (left of it; right of it in a
        // right-to-left language); the button light on the dark banner.
        let mirrored = scene.metrics.mirroredWidth != nil
        let roomStart = mirrored ? button.maxX : 0
        let room = mirrored ? scene.width - button.maxX - 16 : button.x - 16
        bodyFont.draw(
            text, x: roomStart + max(16, (room - bodyFont.width(of: text)) / 2), baselineY: baseline,
            color: palette.text, into: target)
        fill(target, button, palette.text, op: PIXMAN_OP_SRC)
        let label = (button.width - bodyFont.width(of: action)) / 2
        bodyFont.draw(action, x: button.x + max(8, label), baselineY: baseline, color: palette.chrome, into: target)
    }
}
