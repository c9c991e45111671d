import LecternCore

extension Scene {
    /// Selected text: its highlight on the pages, the two handles a visitor drags, and the
    /// button that shows the text as a QR code.
    public struct TextSelection: Equatable, Sendable {
        /// The selected characters' boxes (one per line and page), in buffer pixels.
        public var highlights: [Highlight]
        /// The handles' knobs, in buffer pixels (start, then end; a handle off screen is left out).
        public var handles: [PixelBox]
        /// The "QR code" button next to the selection, in surface units; nil when it does not fit.
        public var qrButton: PixelBox?

        public init(highlights: [Highlight], handles: [PixelBox], qrButton: PixelBox?) {
            self.highlights = highlights
            self.handles = handles
            self.qrButton = qrButton
        }

        /// The label of the QR-code button.
        public static let qrButtonLabel = "QR code"
        /// The QR-code button's size, in surface units.
        public static let qrButtonSize = Size(width: 120, height: 48)

        /// A handle's knob for its anchor (the bottom of the text at the selection's end), in
        /// buffer pixels: a stem down from the text and a square below it.
        public static func handleBox(anchor: Point, scale: DisplayScale) -> PixelBox {
            let side = scale.pixels(22)
            return PixelBox(
                x: Int(anchor.x.rounded()) - side / 2, y: Int(anchor.y.rounded()) + scale.pixels(4), width: side,
                height: side)
        }
    }
}

extension Color {
    /// Selected text, multiplied onto the page: white paper turns light blue, black text stays black.
    public static let textSelection = Color(rgb: 0x9CC8FF)
    /// The selection handles.
    public static let selectionHandle = Color(rgb: 0x1E6FD9)
}
