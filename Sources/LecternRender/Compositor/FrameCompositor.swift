import CPixman
import LecternCore
import Logging

/// Draws a `Scene` into a frame buffer with Pixman and reports the damage.
///
/// It remembers the damage of recent frames so a buffer of age *n* is brought up to date
/// by repainting only the union of the last *n* damages (foot's scheme); an unchanged
/// scene costs nothing, a tile that arrives redraws only its rectangle, and a scroll redraws
/// only the pages that moved. Every pixel of the repaint is written once where possible:
/// the background only around pages, page white only where no tile covers it, tiles with
/// `SRC` copies when they sit 1:1, bilinear scaling while a zoom is in flux.
public final class FrameCompositor {
    private var lastScene: Scene?
    /// Damage of the most recent frames, newest last.
    private var damageHistory: [[PixelBox]] = []
    private static let historyLength = 4
    let logger: Logger
    /// The back of the sheet a page curl lifts, kept while the turn lasts (`CurlBack`).
    var curlBack: CurlBack?

    /// The scale of the scene being drawn: `fill` and the fonts take surface units at it.
    private(set) var scale = DisplayScale.one
    /// The colours of the scene being drawn.
    private(set) var palette = Palette.normal
    /// The chrome's sizes in the scene being drawn: the fonts are loaded at its text sizes.
    private(set) var metrics = ChromeMetrics.standard
    /// The scene's size in surface units and in pixels.
    private var frameSize = (width: 0, height: 0, pixelWidth: 0, pixelHeight: 0)
    /// The fonts at `scale` and `metrics`' sizes, loaded when text is first drawn: fontconfig's
    /// start-up stays off the path to the first page frame, which has no text of ours. Loaded
    /// again at another scale (a window moved to a denser screen) or size.
    private var fonts:
        (
            scale: DisplayScale, metrics: ChromeMetrics, title: TextRenderer?, body: TextRenderer?,
            small: TextRenderer?
        )?
    /// The lines of the labels drawn lately, with their widths, in the body font: a shelf that
    /// scrolls draws the same titles at new places every frame (`paint(_:repaint:target:)`).
    var labelLines: [LabelLinesKey: [(text: String, width: Int)]] = [:]
    /// The large print's font at its last size and scale (`largePrintFont(pixelSize:)`).
    var largePrintFont: TextRenderer?
    /// The accessibility symbol drawn at its last size (it is drawn in every frame).
    private var symbol: AccessibilitySymbol?

    /// The accessibility symbol `size` pixels wide (made once per size; nil if pixman cannot).
    func accessibilitySymbol(size: Int) -> AccessibilitySymbol? {
        if let symbol, symbol.size == size { return symbol }
        symbol = AccessibilitySymbol(size: size)
        return symbol
    }

    private func loadedFonts() -> (title: TextRenderer?, body: TextRenderer?, small: TextRenderer?) {
        if let fonts, fonts.scale == scale, fonts.metrics == metrics { return (fonts.title, fonts.body, fonts.small) }
        labelLines = [:]
        let factor = scale.factor
        let title = TextRenderer(pixelSize: metrics.titleTextSize, scale: factor, logger: logger)
        let body = title == nil ? nil : TextRenderer(pixelSize: metrics.textSize, scale: factor, logger: logger)
        let small = title == nil ? nil : TextRenderer(pixelSize: metrics.smallTextSize, scale: factor, logger: logger)
        fonts = (scale, metrics, title, body, small)
        return (title, body, small)
    }

    var titleFont: TextRenderer? { loadedFonts().title }
    var bodyFont: TextRenderer? { loadedFonts().body }
    var smallFont: TextRenderer? { loadedFonts().small }

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Forgets the last scene: the next is drawn and damaged whole (the curtain was shown between).
    public func forgetLastScene() { lastScene = nil }

    /// What changed between the last drawn scene and `scene`, in buffer pixels; nil if nothing did.
    public func damage(for scene: Scene) -> [PixelBox]? {
        let bounds = PixelBox(x: 0, y: 0, width: scene.pixelWidth, height: scene.pixelHeight)
        guard let last = lastScene, last.width == scene.width, last.height == scene.height,
            last.scale == scene.scale, last.palette == scene.palette, last.metrics == scene.metrics
        else { return [bounds] }
        // Fonts measure at the scene's scale and sizes (the chrome's layout depends on them).
        scale = scene.scale
        metrics = scene.metrics
        if last.transition != nil || scene.transition != nil {
            return last.transition == scene.transition ? nil : [bounds]
        }
        // A page curl redraws every pixel of the pages anyway.
        if last.curl != nil || scene.curl != nil { return last == scene ? nil : [bounds] }
        if last == scene { return nil }
        var boxes: [PixelBox] = []
        // Boxes in surface units (chrome, messages, labels): in pixels at the end.
        var units: [PixelBox] = []
        if last.shadows != scene.shadows {
            let old = Set(last.shadows.map(Self.shadowBox)), new = Set(scene.shadows.map(Self.shadowBox))
            boxes += old.symmetricDifference(new)
        }
        if last.pages != scene.pages {
            var previous: [Int: Scene.PageItem] = [:]
            for page in last.pages { previous[page.page] = page }
            var seen = Set<Int>()
            for page in scene.pages {
                seen.insert(page.page)
                guard let before = previous[page.page] else {
                    boxes.append(Self.shadowed(page.visible))
                    continue
                }
                if before == page { continue }
                if before.frame == page.frame && before.clip == page.clip {
                    boxes += Self.layerDamage(before.layers, page.layers).map { $0.intersection(page.visible) }
                } else {
                    boxes.append(Self.shadowed(before.visible))
                    boxes.append(Self.shadowed(page.visible))
                }
            }
            for page in last.pages where !seen.contains(page.page) { boxes.append(Self.shadowed(page.visible)) }
        }
        if last.chrome != scene.chrome {
            for chrome in [last.chrome, scene.chrome] where chrome != nil { units += chromeBoxes(in: scene) }
        }
        if last.message != scene.message {
            for message in [last.message, scene.message].compactMap({ $0 }) {
                units.append(messageBox(message, in: scene))
            }
        }
        if last.largePrint != scene.largePrint {
            units += [last, scene].compactMap { $0.largePrint?.area }
        }
        if last.accessibility != scene.accessibility {
            units += [last, scene].compactMap { frame in frame.accessibility.map { $0.area(height: frame.height) } }
        }
        if last.banner != scene.banner || last.bannerAction != scene.bannerAction
            || (scene.banner != nil && last.overlays != scene.overlays)
        {
            units.append(bannerBox(in: last))
            units.append(bannerBox(in: scene))
        }
        if last.labels != scene.labels {
            units += Set(last.labels).symmetricDifference(scene.labels).map(\.box)
        }
        if last.qrCode != scene.qrCode {
            boxes += [last.qrCode, scene.qrCode].compactMap { $0.map { qrCodeBox($0, in: scene) } }
        }
        if last.textSelection != scene.textSelection {
            boxes += selectionDamage(from: last.textSelection, to: scene.textSelection, in: scene)
        }
        if last.overlays != scene.overlays {
            boxes += overlayDamage(from: last.overlays, to: scene.overlays, in: scene)
        }
        boxes += units.map(scene.scale.enclosingPixels)
        let damage = boxes.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        return damage.isEmpty ? nil : damage
    }

    /// The rectangles of layers present in one list and not the other.
    ///
    /// A removed layer under a 1:1 tile kept on top of it changed no pixel there (tiles are
    /// copied, not blended): when the last tile of a page arrives and the preview under the
    /// tiles goes, only that tile is repainted, not the whole page.
    private static func layerDamage(_ old: [Scene.Layer], _ new: [Scene.Layer]) -> [PixelBox] {
        var boxes: [PixelBox] = []
        let kept = old.map { new.contains($0) }
        for (index, layer) in old.enumerated() where !kept[index] {
            let covering = old.indices.filter { $0 > index && kept[$0] && old[$0].isExact }
                .map { PixelBox(enclosing: old[$0].rect) }
            boxes += Region([PixelBox(enclosing: layer.rect)]).subtracting(Region(covering)).boxes
        }
        for layer in new where !old.contains(layer) { boxes.append(PixelBox(enclosing: layer.rect)) }
        return boxes
    }

    /// Draws `scene` into `pixels` (a buffer whose contents are `bufferAge` frames old;
    /// 0 = undefined) and returns the damage to report for this commit.
    @discardableResult
    public func draw(
        _ scene: Scene, into pixels: UnsafeMutableRawPointer, stride: Int, bufferAge: Int
    ) -> [PixelBox] {
        let damage = self.damage(for: scene) ?? []
        scale = scene.scale
        palette = scene.palette
        metrics = scene.metrics
        frameSize = (scene.width, scene.height, scene.pixelWidth, scene.pixelHeight)
        let full = PixelBox(x: 0, y: 0, width: scene.pixelWidth, height: scene.pixelHeight)
        // What this buffer misses: this frame's damage plus that of the frames since it was shown.
        var repaint = damage
        if bufferAge <= 0 || bufferAge - 1 > damageHistory.count {
            repaint = [full]
        } else if bufferAge > 1 {
            repaint += damageHistory.suffix(bufferAge - 1).flatMap { $0 }
        }
        if !repaint.isEmpty {
            guard
                let target = PixmanSurface(
                    pixels: pixels, width: scene.pixelWidth, height: scene.pixelHeight, stride: stride)
            else {
                logger.error("cannot draw into a \(scene.pixelWidth)x\(scene.pixelHeight) buffer (stride \(stride))")
                return [full]
            }
            paint(scene, repaint: Region(repaint), into: target.image)
        }
        lastScene = scene
        damageHistory.append(damage)
        if damageHistory.count > Self.historyLength { damageHistory.removeFirst() }
        return damage
    }

    // MARK: Painting

    private static func shadowed(_ frame: PixelBox) -> PixelBox {
        frame.isEmpty
            ? frame : PixelBox(x: frame.x - 2, y: frame.y - 2, width: frame.width + 10, height: frame.height + 10)
    }

    private static func shadowBox(_ shadow: Scene.Shadow) -> PixelBox {
        shadow.frame.offsetBy(dx: 3, dy: 4).intersection(shadow.clip)
    }

    private func paint(_ scene: Scene, repaint: Region, into target: OpaquePointer) {
        if let transition = scene.transition {
            paint(transition, in: scene, target: target)
            return
        }
        if let curl = scene.curl {
            paint(curl, in: scene, target: target)
        } else {
            curlBack = nil
            paintPages(scene, repaint: repaint, into: target)
        }
        if let largePrint = scene.largePrint { paintLargePrint(largePrint, repaint: repaint, into: target) }
        for label in scene.labels { paint(label, repaint: repaint, target: target) }
        repaint.clip(target)
        if let chrome = scene.chrome { paint(chrome, in: scene, target: target) }
        paintOverlays(scene.overlays, in: scene, repaint: repaint, into: target)
        if let message = scene.message { paint(message, in: scene, target: target) }
        if let accessibility = scene.accessibility { paintAccessibility(accessibility, in: scene, into: target) }
        if let banner = scene.banner { paintBanner(banner, in: scene, target: target) }
        paintSelectionControls(scene.textSelection, into: target)
        if let qrCode = scene.qrCode { paintQRCode(qrCode, in: scene, target: target) }
        pixman_image_set_clip_region32(target, nil)
    }

    /// The background, shadows, pages and search highlights where `repaint` says.
    private func paintPages(_ scene: Scene, repaint: Region, into target: OpaquePointer) {
        // Background and shadows: only around the pages.
        let pageArea = Region(scene.pages.map(\.visible))
        let around = repaint.subtracting(pageArea)
        if !around.isEmpty {
            around.clip(target)
            fillPixels(
                target, PixelBox(x: 0, y: 0, width: scene.pixelWidth, height: scene.pixelHeight), palette.background,
                op: PIXMAN_OP_SRC)
            for shadow in scene.shadows {
                fillPixels(target, Self.shadowBox(shadow), palette.pageShadow, op: PIXMAN_OP_OVER)
            }
        }
        for page in scene.pages { paintPage(page, repaint: repaint, into: target) }
        paintHighlights(scene.overlays.highlights, repaint: repaint, into: target)
        paintSelectionHighlight(scene.textSelection, repaint: repaint, into: target)
    }

    /// Paints a page (or a thumbnail) where `repaint` meets its visible part; leaves that as the
    /// target's clip.
    func paintPage(_ page: Scene.PageItem, repaint: Region, into target: OpaquePointer) {
        let visible = repaint.intersecting(page.visible)
        guard !visible.isEmpty else { return }
        // Paper only where no layer goes: every layer is opaque and writes every pixel
        // of its enclosing box (copies, fills, and scaled images with padded edges).
        let covered = Region(page.layers.map { PixelBox(enclosing: $0.rect) })
        let white = visible.subtracting(covered)
        if !white.isEmpty {
            white.clip(target)
            fillPixels(target, page.visible, palette.paper, op: PIXMAN_OP_SRC)
        }
        visible.clip(target)
        let boxes = visible.boxes
        for layer in page.layers where !copy(layer, into: target, within: page.visible, clip: boxes) {
            composite(layer, target: target, within: page.visible)
        }
    }

    /// Copies `layer` into `target` where it meets `bounds` and `clip` (the target's clip, as
    /// boxes) when it is an image drawn 1:1 (a sharp tile): what pixman's SRC does there, with
    /// the target written past the cache (`CPixman_copy_pixels`). False: not such a layer.
    private func copy(
        _ layer: Scene.Layer, into target: OpaquePointer, within bounds: PixelBox, clip: [PixelBox]
    ) -> Bool {
        guard case .image(let image) = layer.source, layer.isExact, let pixels = pixman_image_get_data(target),
            pixman_image_get_format(target) == PIXMAN_a8r8g8b8
        else { return false }
        let stride = Int(pixman_image_get_stride(target))
        // Within the target too, as pixman clips to it.
        let targetBox = PixelBox(
            x: 0, y: 0, width: Int(pixman_image_get_width(target)), height: Int(pixman_image_get_height(target)))
        let box = PixelBox(enclosing: layer.rect).intersection(bounds).intersection(targetBox)
        let origin = (x: Int(layer.rect.minX), y: Int(layer.rect.minY))
        for part in clip {
            let area = part.intersection(box)
            guard !area.isEmpty else { continue }
            let source = image.pixels + (area.y - origin.y) * image.stride + (area.x - origin.x) * 4
            CPixman_copy_pixels(
                UnsafeMutableRawPointer(pixels).advanced(by: area.y * stride + area.x * 4).assumingMemoryBound(
                    to: UInt32.self), stride, source.assumingMemoryBound(to: UInt32.self), image.stride,
                Int32(area.width), Int32(area.height))
        }
        return true
    }

    func composite(_ layer: Scene.Layer, target: OpaquePointer, within bounds: PixelBox) {
        let box = PixelBox(enclosing: layer.rect).intersection(bounds)
        guard !box.isEmpty else { return }
        switch layer.source {
        case .fill(let color):
            fillPixels(target, box, color, op: PIXMAN_OP_SRC)
        case .image(let image):
            guard
                let source = PixmanSurface(
                    pixels: image.pixels, width: image.width, height: image.height, stride: image.stride)
            else { return }
            if layer.isExact {
                pixman_image_composite32(
                    PIXMAN_OP_SRC, source.image, nil, target,
                    Int32(box.x - Int(layer.rect.minX)), Int32(box.y - Int(layer.rect.minY)), 0, 0,
                    Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
                return
            }
            // Scaled (a zoom in flux, or a preview): destination pixel → source pixel.
            let sx = Double(image.width) / layer.rect.width, sy = Double(image.height) / layer.rect.height
            var transform = pixman_transform()
            pixman_transform_init_identity(&transform)
            transform.matrix.0.0 = fixed(sx)
            transform.matrix.0.2 = fixed(-layer.rect.minX * sx)
            transform.matrix.1.1 = fixed(sy)
            transform.matrix.1.2 = fixed(-layer.rect.minY * sy)
            pixman_image_set_transform(source.image, &transform)
            pixman_image_set_filter(source.image, PIXMAN_FILTER_BILINEAR, nil, 0)
            pixman_image_set_repeat(source.image, PIXMAN_REPEAT_PAD)
            pixman_image_composite32(
                PIXMAN_OP_SRC, source.image, nil, target, Int32(box.x), Int32(box.y), 0, 0,
                Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        }
    }

    /// Fills `box` in surface units (the chrome, overlays, messages) at the scene's scale.
    func fill(_ target: OpaquePointer, _ box: PixelBox, _ color: Color, op: pixman_op_t) {
        var pixels = scale.pixels(box)
        // A box reaching the frame's right or bottom edge reaches the buffer's (which is
        // rounded up, so it may be a pixel wider than the edge rounded).
        if box.maxX >= frameSize.width { pixels.width = max(pixels.width, frameSize.pixelWidth - pixels.x) }
        if box.maxY >= frameSize.height { pixels.height = max(pixels.height, frameSize.pixelHeight - pixels.y) }
        fillPixels(target, pixels, color, op: op)
    }

    /// Fills `box` in buffer pixels (pages, shadows, search hits).
    func fillPixels(_ target: OpaquePointer, _ box: PixelBox, _ color: Color, op: pixman_op_t) {
        guard !box.isEmpty else { return }
        if op == PIXMAN_OP_MULTIPLY, color.alpha == 255 { return multiplyPixels(target, box, by: color) }
        var pixmanColor = color.pixman
        var pixmanBox = pixman_box32_t(x1: Int32(box.x), y1: Int32(box.y), x2: Int32(box.maxX), y2: Int32(box.maxY))
        pixman_image_fill_boxes(op, target, &pixmanColor, 1, &pixmanBox)
    }

    /// Multiplies `box` by the opaque `color`, channel by channel: PIXMAN_OP_MULTIPLY over the
    /// opaque frame, to the bit, done as IN_REVERSE of white through `color` as a
    /// component-alpha mask, which pixman does about ten times faster (MULTIPLY takes its
    /// generic path: the three lines of the sentence being spoken, highlighted at 1280 px,
    /// took longer than composing the whole frame).
    private func multiplyPixels(_ target: OpaquePointer, _ box: PixelBox, by color: Color) {
        var white = Color(rgb: 0xFFFFFF).pixman, tint = color.pixman
        guard let source = pixman_image_create_solid_fill(&white), let mask = pixman_image_create_solid_fill(&tint)
        else { return }
        defer {
            pixman_image_unref(source)
            pixman_image_unref(mask)
        }
        pixman_image_set_component_alpha(mask, 1)
        pixman_image_composite32(
            PIXMAN_OP_IN_REVERSE, source, mask, target, 0, 0, 0, 0, Int32(box.x), Int32(box.y), Int32(box.width),
            Int32(box.height))
    }

    // MARK: Chrome

    private func chromeBoxes(in scene: Scene) -> [PixelBox] {
        [
            Scene.Chrome.titleBar(width: scene.width, height: scene.height, metrics: scene.metrics),
            Scene.Chrome.scrubberBar(width: scene.width, height: scene.height, metrics: scene.metrics),
        ]
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
        fill(target, layout.card, palette.card, op: PIXMAN_OP_SRC)
        let accent = PixelBox(x: layout.card.x, y: layout.card.y, width: 8, height: layout.card.height)
        fill(target, accent, message.isError ? palette.errorAccent : palette.secondaryText, op: PIXMAN_OP_SRC)
        guard let titleFont, let bodyFont else {
            logger.warning("cannot draw message text (no font): \(message.title) — \(message.detail)")
            return
        }
        var y = layout.card.y + 32 + titleFont.ascent
        for line in layout.titleLines {
            titleFont.draw(line, x: layout.card.x + 32, baselineY: y, color: palette.text, into: target)
            y += titleFont.lineHeight
        }
        y += 16 - titleFont.lineHeight + bodyFont.lineHeight
        for line in layout.detailLines where y < layout.card.maxY {
            bodyFont.draw(line, x: layout.card.x + 32, baselineY: y, color: palette.secondaryText, into: target)
            y += bodyFont.lineHeight
        }
    }
}

/// pixman's 16.16 fixed point.
func fixed(_ value: Double) -> pixman_fixed_t { pixman_fixed_t((value * 65536).rounded()) }
