import CPixman
import Logging

/// Draws a `Scene` into a frame buffer with Pixman and reports the damage.
///
/// It remembers the damage of recent frames so a buffer of age *n* is brought up to date
/// by repainting only the union of the last *n* damages (foot's scheme); an unchanged
/// scene costs nothing, and a changed page redraws only its old and new rectangles.
public final class FrameCompositor {
    private var lastScene: Scene?
    /// Damage of the most recent frames, newest last.
    private var damageHistory: [[PixelBox]] = []
    private static let historyLength = 4
    private let logger: Logger

    // Loaded when text is first drawn: fontconfig's start-up stays off the path to the
    // first page frame, which has no text of ours.
    private lazy var titleFont: TextRenderer? = TextRenderer(pixelSize: 34, logger: logger)
    private lazy var bodyFont: TextRenderer? = titleFont == nil ? nil : TextRenderer(pixelSize: 22, logger: logger)

    public init(logger: Logger) {
        self.logger = logger
    }

    /// What changed between the last drawn scene and `scene`, in buffer pixels; nil if nothing did.
    public func damage(for scene: Scene) -> [PixelBox]? {
        guard let last = lastScene, last.width == scene.width, last.height == scene.height,
            last.background == scene.background
        else { return [PixelBox(x: 0, y: 0, width: scene.width, height: scene.height)] }
        if last == scene { return nil }
        var boxes: [PixelBox] = []
        if last.pages != scene.pages {
            boxes += last.pages.map { shadowed($0.frame) } + scene.pages.map { shadowed($0.frame) }
        }
        if last.message != scene.message {
            for message in [last.message, scene.message].compactMap({ $0 }) {
                boxes.append(messageBox(message, in: scene))
            }
        }
        if last.banner != scene.banner {
            boxes.append(bannerBox(in: scene))
        }
        let bounds = PixelBox(x: 0, y: 0, width: scene.width, height: scene.height)
        return boxes.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
    }

    /// Draws `scene` into `pixels` (a buffer whose contents are `bufferAge` frames old;
    /// 0 = undefined) and returns the damage to report for this commit.
    /// - Parameter images: the page images by content id.
    @discardableResult
    public func draw(
        _ scene: Scene, images: [Int: RasterImage], into pixels: UnsafeMutableRawPointer, stride: Int, bufferAge: Int
    ) -> [PixelBox] {
        let damage = self.damage(for: scene) ?? []
        let full = PixelBox(x: 0, y: 0, width: scene.width, height: scene.height)
        // What this buffer misses: this frame's damage plus that of the frames since it was shown.
        var repaint = damage
        if bufferAge <= 0 || bufferAge - 1 > damageHistory.count {
            repaint = [full]
        } else if bufferAge > 1 {
            repaint += damageHistory.suffix(bufferAge - 1).flatMap { $0 }
        }
        let target = PixmanSurface(pixels: pixels, width: scene.width, height: scene.height, stride: stride)
        if !repaint.isEmpty {
            var boxes = repaint.map {
                pixman_box32_t(x1: Int32($0.x), y1: Int32($0.y), x2: Int32($0.maxX), y2: Int32($0.maxY))
            }
            var region = pixman_region32_t()
            pixman_region32_init_rects(&region, &boxes, Int32(boxes.count))
            pixman_image_set_clip_region32(target.image, &region)
            pixman_region32_fini(&region)
            paint(scene, images: images, into: target.image)
        }
        lastScene = scene
        damageHistory.append(damage)
        if damageHistory.count > Self.historyLength { damageHistory.removeFirst() }
        return damage
    }

    /// Forget what was drawn (e.g. all buffers were dropped): the next frame is full.
    public func invalidate() {
        lastScene = nil
        damageHistory.removeAll()
    }

    private func shadowed(_ frame: PixelBox) -> PixelBox {
        PixelBox(x: frame.x - 2, y: frame.y - 2, width: frame.width + 10, height: frame.height + 10)
    }

    private func paint(_ scene: Scene, images: [Int: RasterImage], into target: OpaquePointer) {
        fill(
            target, PixelBox(x: 0, y: 0, width: scene.width, height: scene.height), scene.background, op: PIXMAN_OP_SRC)
        for page in scene.pages {
            // A subtle drop shadow below and right of the page.
            let shadow = PixelBox(
                x: page.frame.x + 3, y: page.frame.y + 4, width: page.frame.width, height: page.frame.height)
            fill(target, shadow, .pageShadow, op: PIXMAN_OP_OVER)
            if let image = images[page.contentID] {
                composite(image, into: page.frame, target: target)
            } else {
                fill(target, page.frame, Color(rgb: 0xFFFFFF), op: PIXMAN_OP_SRC)
            }
        }
        if let message = scene.message { paint(message, in: scene, target: target) }
        if let banner = scene.banner { paintBanner(banner, in: scene, target: target) }
    }

    private func composite(_ image: RasterImage, into frame: PixelBox, target: OpaquePointer) {
        let source = PixmanSurface(pixels: image.pixels, width: image.width, height: image.height, stride: image.stride)
        if image.width != frame.width || image.height != frame.height {
            // Shown at another size until a sharp render arrives: scale bilinearly.
            var transform = pixman_transform()
            pixman_transform_init_scale(
                &transform,
                pixman_fixed_t(Double(image.width) / Double(frame.width) * 65536),
                pixman_fixed_t(Double(image.height) / Double(frame.height) * 65536))
            pixman_image_set_transform(source.image, &transform)
            pixman_image_set_filter(source.image, PIXMAN_FILTER_BILINEAR, nil, 0)
        }
        pixman_image_composite32(
            PIXMAN_OP_SRC, source.image, nil, target, 0, 0, 0, 0,
            Int32(frame.x), Int32(frame.y), Int32(frame.width), Int32(frame.height))
    }

    private func fill(_ target: OpaquePointer, _ box: PixelBox, _ color: Color, op: pixman_op_t) {
        var pixmanColor = color.pixman
        var pixmanBox = pixman_box32_t(x1: Int32(box.x), y1: Int32(box.y), x2: Int32(box.maxX), y2: Int32(box.maxY))
        pixman_image_fill_boxes(op, target, &pixmanColor, 1, &pixmanBox)
    }

    // MARK: Messages

    private struct MessageLayout {
        var card: PixelBox
        var titleLines: [String]
        var detailLines: [String]
    }

    private func layoutMessage(_ message: Scene.Message, in scene: Scene) -> MessageLayout {
        let cardWidth = min(scene.width - 40, 900)
        let padding = 32
        let textWidth = cardWidth - 2 * padding
        let titleLines = titleFont?.wrap(message.title, maxWidth: textWidth) ?? []
        let detailLines = bodyFont?.wrap(message.detail, maxWidth: textWidth) ?? []
        let titleHeight = titleLines.count * (titleFont?.lineHeight ?? 0)
        let detailHeight = detailLines.count * (bodyFont?.lineHeight ?? 0)
        let height = min(scene.height - 40, padding * 2 + titleHeight + 16 + detailHeight + 8)
        let card = PixelBox(
            x: (scene.width - cardWidth) / 2, y: (scene.height - height) / 2, width: cardWidth, height: height)
        return MessageLayout(card: card, titleLines: titleLines, detailLines: detailLines)
    }

    private func messageBox(_ message: Scene.Message, in scene: Scene) -> PixelBox {
        layoutMessage(message, in: scene).card.insetBy(dx: -4, dy: -4)
    }

    private func paint(_ message: Scene.Message, in scene: Scene, target: OpaquePointer) {
        let layout = layoutMessage(message, in: scene)
        fill(target, layout.card, .errorCard, op: PIXMAN_OP_SRC)
        let accent = PixelBox(x: layout.card.x, y: layout.card.y, width: 8, height: layout.card.height)
        fill(target, accent, message.isError ? .errorAccent : .secondaryText, op: PIXMAN_OP_SRC)
        guard let titleFont, let bodyFont else {
            logger.warning("cannot draw message text (no font): \(message.title) — \(message.detail)")
            return
        }
        var y = layout.card.y + 32 + titleFont.ascent
        for line in layout.titleLines {
            titleFont.draw(line, x: layout.card.x + 32, baselineY: y, color: .text, into: target)
            y += titleFont.lineHeight
        }
        y += 16 - titleFont.lineHeight + bodyFont.lineHeight
        for line in layout.detailLines where y < layout.card.maxY {
            bodyFont.draw(line, x: layout.card.x + 32, baselineY: y, color: .secondaryText, into: target)
            y += bodyFont.lineHeight
        }
    }

    private func bannerBox(in scene: Scene) -> PixelBox {
        let height = (bodyFont?.lineHeight ?? 24) + 16
        return PixelBox(x: 0, y: scene.height - height, width: scene.width, height: height)
    }

    private func paintBanner(_ text: String, in scene: Scene, target: OpaquePointer) {
        let box = bannerBox(in: scene)
        fill(target, box, .banner, op: PIXMAN_OP_OVER)
        guard let bodyFont else { return }
        let x = max(16, (scene.width - bodyFont.width(of: text)) / 2)
        bodyFont.draw(text, x: x, baselineY: box.y + 8 + bodyFont.ascent, color: .text, into: target)
    }
}
