import CPixman
import LecternCore

extension Scene {
    /// Where a QR code's card goes in a `width` × `height` frame, and the size of one module:
    /// the code with its quiet zone (4 modules each side) fills about 55 % of the shorter side,
    /// large enough to scan from arm's length, in whole pixels per module.
    public static func qrCodeLayout(_ code: QRCode, width: Int, height: Int) -> (card: PixelBox, module: Int) {
        let modules = code.size + 8
        let module = max(2, min(width, height) * 55 / 100 / modules)
        let side = modules * module
        return (PixelBox(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side), module)
    }
}

extension FrameCompositor {
    /// The QR code's card, for damage.
    func qrCodeBox(_ code: QRCode, in scene: Scene) -> PixelBox {
        Scene.qrCodeLayout(code, width: scene.pixelWidth, height: scene.pixelHeight).card
    }

    /// Draws the QR code: a white card, the dark modules on it.
    func paintQRCode(_ code: QRCode, in scene: Scene, target: OpaquePointer) {
        // In buffer pixels: whole pixels per module at any scale.
        let (card, module) = Scene.qrCodeLayout(code, width: scene.pixelWidth, height: scene.pixelHeight)
        var boxes = [pixman_box32_t]()
        for y in 0..<code.size {
            var x = 0
            while x < code.size {
                guard code.isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                var end = x
                while end < code.size && code.isDark(x: end, y: y) { end += 1 }  // one box per run
                let left = card.x + (x + 4) * module, top = card.y + (y + 4) * module
                boxes.append(
                    pixman_box32_t(
                        x1: Int32(left), y1: Int32(top), x2: Int32(card.x + (end + 4) * module),
                        y2: Int32(top + module)))
                x = end
            }
        }
        var white = Color(rgb: 0xFFFFFF).pixman
        var black = Color(rgb: 0x000000).pixman
        var cardBox = pixman_box32_t(
            x1: Int32(card.x), y1: Int32(card.y), x2: Int32(card.maxX), y2: Int32(card.maxY))
        pixman_image_fill_boxes(PIXMAN_OP_SRC, target, &white, 1, &cardBox)
        pixman_image_fill_boxes(PIXMAN_OP_SRC, target, &black, Int32(boxes.count), &boxes)
    }
}
