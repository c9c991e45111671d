import LecternCore

extension Scene {
    /// Selected text: its highlight on the pages, the two handles a visitor drags, and the
    /// button that shows the text as a QR code.
    public struct TextSelection: Equatable, Sendable {
        /// The selected characters' boxes (one per line and page), in buffer pixels.
        public var highlights: [Highlight]
        /// The handles, in buffer pixels (start, then end; a handle off screen is left out).
        public var handles: [Handle]
        /// The "QR code" button next to the selection, in surface units; nil when it does not fit.
        public var qrButton: PixelBox?

        public init(highlights: [Highlight], handles: [Handle], qrButton: PixelBox?) {
            self.highlights = highlights
            self.handles = handles
            self.qrButton = qrButton
        }

        /// The label of the QR-code button.
        public static var qrButtonLabel: String { tr("QR code") }
        /// The QR-code button's size, in surface units.
        public static let qrButtonSize = Size(width: 120, height: 48)

        /// One handle: a thin stem down from the end of the selected text to a knob that sits
        /// outside the selection (left of its start, right of its end), so the two handles of a
        /// short word stay apart and neither covers the text a visitor is selecting.
        public struct Handle: Hashable, Sendable {
            /// The stem and the knob, in buffer pixels.
            public var box: PixelBox
            /// Whether it is the start handle (its knob to the left of the stem).
            public var isStart: Bool

            /// A handle for `anchor` (the bottom of the text at the selection's end), in buffer pixels.
            /// The knob's size and place are LecternCore's (`TextSelectionHandle.knob`), the
            /// ones the controller's touch target is built around.
            public init(anchor: Point, isStart: Bool, scale: DisplayScale) {
                let side = scale.pixels(Int(TextSelectionHandle.knobSide))
                let stem = scale.pixels(2)
                let x = Int(anchor.x.rounded())
                box = PixelBox(
                    x: isStart ? x - side + stem / 2 : x - stem / 2, y: Int(anchor.y.rounded()),
                    width: side, height: side + scale.pixels(Int(TextSelectionHandle.stemLength)))
                self.isStart = isStart
            }

            /// The stem: a column at the inner edge, from the text down to the knob.
            public func stem(scale: DisplayScale) -> PixelBox {
                let width = scale.pixels(2)
                return PixelBox(
                    x: isStart ? box.x + box.width - width : box.x, y: box.y, width: width,
                    height: box.height - box.width)
            }

            /// The knob: a square at the bottom of the box.
            public var knob: PixelBox {
                PixelBox(x: box.x, y: box.y + box.height - box.width, width: box.width, height: box.width)
            }
        }
    }
}
