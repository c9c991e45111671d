import LecternCore

extension Scene {
    /// The keypad focus around the focused item (a paragraph, link or field on a page, or a
    /// button), in buffer pixels: two bands, dark inside and bright outside, each `band` pixels
    /// wide, so that it shows on white paper, on black, and on any picture.
    public struct FocusRing: Hashable, Sendable {
        /// The item's box; the ring goes around it, outside.
        public var box: PixelBox
        /// One band's width in pixels (at least 3).
        public var band: Int

        public init(box: PixelBox, band: Int = 3) {
            self.box = box
            self.band = max(3, band)
        }

        /// The ring's four sides for each band, outer band first, with its colour.
        public var strips: [(box: PixelBox, color: Color)] {
            [
                (box.insetBy(dx: -2 * band, dy: -2 * band), Color.focusOuter),
                (box.insetBy(dx: -band, dy: -band), .focusInner),
            ]
            .flatMap { outer, color in Self.sides(of: outer, width: band).map { ($0, color) } }
        }

        /// The pixels it covers (what changes when it moves).
        public var sides: [PixelBox] { Self.sides(of: box.insetBy(dx: -2 * band, dy: -2 * band), width: 2 * band) }

        private static func sides(of outer: PixelBox, width: Int) -> [PixelBox] {
            [
                PixelBox(x: outer.x, y: outer.y, width: outer.width, height: width),
                PixelBox(x: outer.x, y: outer.maxY - width, width: outer.width, height: width),
                PixelBox(x: outer.x, y: outer.y + width, width: width, height: max(0, outer.height - 2 * width)),
                PixelBox(
                    x: outer.maxX - width, y: outer.y + width, width: width, height: max(0, outer.height - 2 * width)),
            ]
        }
    }
}

extension Color {
    /// The focus ring's outer band: bright yellow, seen on dark pages and pictures.
    public static let focusOuter = Color(rgb: 0xFFD500)
    /// Its inner band: near black, seen on white paper.
    public static let focusInner = Color(rgb: 0x101010)
}
