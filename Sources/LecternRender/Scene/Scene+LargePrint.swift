import LecternCore

extension Scene {
    /// A page's text in large print (`LargePrintColumn`): the lines of the column that show,
    /// drawn in one font on the paper's colour over the whole frame. In surface units.
    public struct LargePrint: Equatable, Sendable {
        /// A line as shown: its text, where its baseline starts, the characters highlighted (what
        /// a search found, `current` the hit the search is at; the sentence read aloud) and those
        /// of links.
        public struct Line: Equatable, Sendable {
            public var text: String
            public var x: Int
            public var baseline: Int
            public var marks: [Range<Int>]
            public var current: Range<Int>?
            /// The characters of links (underlined).
            public var links: [Range<Int>]
            /// The characters of the sentence being read aloud.
            public var spoken: Range<Int>?

            public init(
                text: String, x: Int, baseline: Int, marks: [Range<Int>] = [], current: Range<Int>? = nil,
                links: [Range<Int>] = [], spoken: Range<Int>? = nil
            ) {
                self.text = text
                self.x = x
                self.baseline = baseline
                self.marks = marks
                self.current = current
                self.links = links
                self.spoken = spoken
            }
        }

        /// A picture of the page in the column: the image, where it goes (surface units).
        public struct Figure: Equatable, Sendable {
            public var image: RasterImage
            public var rect: PixelBox

            public init(image: RasterImage, rect: PixelBox) {
                self.image = image
                self.rect = rect
            }

            public static func == (a: Figure, b: Figure) -> Bool { a.image === b.image && a.rect == b.rect }
        }

        /// The font's size in surface units.
        public var pixelSize: Int
        public var lines: [Line]
        public var figures: [Figure] = []
        /// Where the column is shown (the paper's colour fills it).
        public var area: PixelBox

        public init(pixelSize: Int, lines: [Line], area: PixelBox) {
            self.pixelSize = pixelSize
            self.lines = lines
            self.area = area
        }
    }
}
