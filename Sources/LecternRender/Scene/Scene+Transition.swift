import CPixman
import LecternCore

extension Scene {
    /// One page giving way to the next, `progress` (0...1) of the way: both frames as images,
    /// drawn with the effect of `effect` (a page's /Trans, or the attract loop's).
    ///
    /// Fade and dissolve blend (a dissolve's random pixels are drawn as a fade); push, cover,
    /// uncover and wipe move along `/Di`; any other effect is a cut.
    public struct Transition: Equatable, Sendable {
        public var from: RasterImage
        public var to: RasterImage
        public var effect: PageTransition
        public var progress: Double

        public init(from: RasterImage, to: RasterImage, effect: PageTransition, progress: Double) {
            self.from = from
            self.to = to
            self.effect = effect
            self.progress = progress
        }

        public static func == (a: Transition, b: Transition) -> Bool {
            a.from === b.from && a.to === b.to && a.effect == b.effect && a.progress == b.progress
        }

        /// Whether Lectern draws `style` as an effect (else it is a cut).
        public static func draws(_ style: PageTransition.Style) -> Bool {
            [.fade, .dissolve, .push, .cover, .uncover, .wipe].contains(style)
        }

        /// The direction of motion on screen (y down) for `/Di` degrees.
        var motion: (dx: Int, dy: Int) {
            switch effect.direction {
            case 90: (0, -1)
            case 180: (-1, 0)
            case 270: (0, 1)
            default: (1, 0)
            }
        }
    }
}

extension FrameCompositor {
    /// Draws the whole frame from the two images.
    func paint(_ transition: Scene.Transition, in scene: Scene, target: OpaquePointer) {
        let p = min(1, max(0, transition.progress))
        let width = scene.pixelWidth, height = scene.pixelHeight
        let (dx, dy) = transition.motion
        // Where an image goes when it has moved `fraction` of the screen along the motion.
        func offset(_ fraction: Double) -> (Int, Int) {
            (Int((Double(dx * width) * fraction).rounded()), Int((Double(dy * height) * fraction).rounded()))
        }
        switch transition.effect.style {
        case .fade, .dissolve:
            blit(transition.from, at: (0, 0), into: target, scene: scene)
            blit(transition.to, at: (0, 0), into: target, scene: scene, alpha: p)
        case .push:
            blit(transition.from, at: offset(p), into: target, scene: scene)
            blit(transition.to, at: offset(p - 1), into: target, scene: scene)
        case .cover:
            blit(transition.from, at: (0, 0), into: target, scene: scene)
            blit(transition.to, at: offset(p - 1), into: target, scene: scene)
        case .uncover:
            blit(transition.to, at: (0, 0), into: target, scene: scene)
            blit(transition.from, at: offset(p), into: target, scene: scene)
        case .wipe:
            blit(transition.from, at: (0, 0), into: target, scene: scene)
            // The new page shows behind a line moving along the motion.
            let (ox, oy) = offset(p - 1)
            let shown = PixelBox(x: ox, y: oy, width: width, height: height)
            blit(transition.to, at: (0, 0), into: target, scene: scene, within: shown)
        default:
            blit(transition.to, at: (0, 0), into: target, scene: scene)
        }
    }

    /// Copies `image` with its top left at `origin` (or blends it over with `alpha`), only
    /// inside `within` and the frame.
    private func blit(
        _ image: RasterImage, at origin: (Int, Int), into target: OpaquePointer, scene: Scene,
        alpha: Double = 1, within: PixelBox? = nil
    ) {
        let frame = PixelBox(x: 0, y: 0, width: scene.pixelWidth, height: scene.pixelHeight)
        var box = PixelBox(x: origin.0, y: origin.1, width: image.width, height: image.height).intersection(frame)
        if let within { box = box.intersection(within) }
        guard !box.isEmpty,
            let source = PixmanSurface(
                pixels: image.pixels, width: image.width, height: image.height, stride: image.stride)
        else { return }
        var mask: OpaquePointer?
        if alpha < 1 {
            var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(max(0, alpha) * 65535))
            mask = pixman_image_create_solid_fill(&color)
        }
        defer { if let mask { pixman_image_unref(mask) } }
        pixman_image_composite32(
            alpha < 1 ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, source.image, mask, target,
            Int32(box.x - origin.0), Int32(box.y - origin.1), 0, 0, Int32(box.x), Int32(box.y),
            Int32(box.width), Int32(box.height))
    }
}
