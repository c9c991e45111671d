import LecternCore
import Logging

/// A page's text laid out for large print: its paragraphs, in reading order, broken into lines
/// of one column `width` wide in one font, one below the other, half a line between paragraphs.
/// Made in the render worker (`PageReflow`, with `FontFace`: the font the reader draws it with,
/// measured as fcft measures); drawn a screenful at a time (`Scene.LargePrint`).
public struct LargePrintColumn: Equatable, Sendable {
    /// A line of the column: its text, its top (surface units from the column's top), the
    /// paragraph it is in and where it starts in that paragraph's text (characters).
    public struct Line: Equatable, Sendable {
        public var text: String
        public var top: Int
        public var paragraph: Int
        public var start: Int

        public init(text: String, top: Int, paragraph: Int, start: Int) {
            self.text = text
            self.top = top
            self.paragraph = paragraph
            self.start = start
        }
    }

    /// A link's words on a line: the characters, their place (surface units from the line's
    /// start) and the link's index, as given.
    public struct Link: Equatable, Sendable {
        public var line: Int
        public var range: Range<Int>
        public var x: Int
        public var width: Int
        public var index: Int

        public init(line: Int, range: Range<Int>, x: Int, width: Int, index: Int) {
            self.line = line
            self.range = range
            self.x = x
            self.width = width
            self.index = index
        }
    }

    /// A picture of the page placed between paragraphs: its top (surface units from the
    /// column's top), its size, and its index, as given.
    public struct Figure: Equatable, Sendable {
        public var top: Int
        public var width: Int
        public var height: Int
        public var index: Int

        public init(top: Int, width: Int, height: Int, index: Int) {
            self.top = top
            self.width = width
            self.height = height
            self.index = index
        }
    }

    public var lines: [Line]
    public var links: [Link] = []
    public var figures: [Figure] = []
    /// The font's size and its metrics, in surface units.
    public var pixelSize: Int
    public var capitalHeight: Int
    public var ascent: Int
    /// The distance from one line's top to the next one's.
    public var lineAdvance: Int
    public var width: Int
    /// The column's height: from the first line's top to the last one's bottom.
    public var height: Int

    /// The smallest size of the default font whose capital H is at least `capitalHeight`
    /// surface units, at `scale`; nil when no font can be loaded.
    public static func font(capitalHeight: Double, scale: Double = 1, logger: Logger) -> TextRenderer? {
        var size = max(8, Int((capitalHeight / PhysicalScreen.capitalHeightPerFontSize).rounded(.up)))
        for _ in 0..<8 {
            guard let font = TextRenderer(pixelSize: size, scale: scale, logger: logger) else { return nil }
            if Double(font.capitalHeight) >= capitalHeight { return font }
            size += max(1, size / 20)
        }
        return TextRenderer(pixelSize: size, scale: scale, logger: logger)
    }

    /// No text at all (a page without any: a scan).
    public static let empty = LargePrintColumn()

    private init() {
        lines = []
        pixelSize = 0
        capitalHeight = 0
        ascent = 0
        lineAdvance = 0
        width = 0
        height = 0
    }

    /// A column laid out before (read from the wire).
    public init(
        lines: [Line], links: [Link], figures: [Figure], metrics: FontMetrics, lineAdvance: Int, width: Int,
        height: Int
    ) {
        self.lines = lines
        self.links = links
        self.figures = figures
        pixelSize = metrics.pixelSize
        capitalHeight = metrics.capitalHeight
        ascent = metrics.ascent
        self.lineAdvance = lineAdvance
        self.width = width
        self.height = height
    }

    /// Lays `paragraphs` out in a column `width` wide in `font` (of `metrics`), with `links` (the
    /// characters of a paragraph each covers, and an index that names it) and `figures`, each
    /// before the paragraph `before` (`paragraphs.count`: after the last), as large as given.
    public init(
        paragraphs: [String], width: Int, font: some TextMeasure, metrics: FontMetrics,
        links: [(paragraph: Int, range: Range<Int>, index: Int)] = [],
        figures: [(before: Int, width: Int, height: Int)] = []
    ) {
        pixelSize = metrics.pixelSize
        capitalHeight = metrics.capitalHeight
        ascent = metrics.ascent
        let advance = metrics.lineHeight + metrics.lineHeight / 5
        lineAdvance = advance
        self.width = width
        var lines: [Line] = []
        var top = 0
        var placed: [Figure] = []
        func place(before paragraph: Int) {
            for (index, figure) in figures.enumerated() where figure.before == paragraph {
                placed.append(Figure(top: top, width: figure.width, height: figure.height, index: index))
                top += figure.height + advance / 2
            }
        }
        for (index, paragraph) in paragraphs.enumerated() {
            place(before: index)
            let characters = Array(paragraph)
            var from = 0
            for text in font.wrap(paragraph, maxWidth: width) {
                let start = Self.find(Array(text), in: characters, from: from) ?? from
                lines.append(Line(text: text, top: top, paragraph: index, start: start))
                from = start + text.count
                top += lineAdvance
            }
            top += lineAdvance / 2
        }
        place(before: paragraphs.count)
        self.lines = lines
        self.figures = placed
        height = max(0, top - lineAdvance / 2)
        for link in links {
            for (number, range) in pieces(of: link.range, inParagraph: link.paragraph) {
                let characters = Array(lines[number].text)
                self.links.append(
                    Link(
                        line: number, range: range, x: font.width(of: String(characters[..<range.lowerBound])),
                        width: font.width(of: String(characters[range])), index: link.index))
            }
        }
    }

    /// The pieces of the characters `range` of paragraph `paragraph` on each of its lines: the
    /// line's index and the characters in it.
    public func pieces(of range: Range<Int>, inParagraph paragraph: Int) -> [(line: Int, range: Range<Int>)] {
        lines.indices.compactMap { number in
            let line = lines[number]
            guard line.paragraph == paragraph else { return nil }
            let from = max(range.lowerBound - line.start, 0), to = min(range.upperBound - line.start, line.text.count)
            return from < to ? (number, from..<to) : nil
        }
    }

    /// Where `sentence` (a piece of a paragraph's text, as `ReadingBlock.sentences` gives) is in
    /// the column: its pieces on each line; none when it is not found.
    public func pieces(of sentence: String) -> [(line: Int, range: Range<Int>)] {
        let wanted = Array(sentence)
        for paragraph in Set(lines.map(\.paragraph)).sorted() {
            // The paragraph's text again: its lines at their places, the spaces between them.
            let own = lines.filter { $0.paragraph == paragraph }
            var characters = [Character](repeating: " ", count: own.map { $0.start + $0.text.count }.max() ?? 0)
            for line in own { characters.replaceSubrange(line.start..<line.start + line.text.count, with: line.text) }
            if let start = Self.find(wanted, in: characters, from: 0) {
                return pieces(of: start..<start + wanted.count, inParagraph: paragraph)
            }
        }
        return []
    }

    /// Where `wanted` first occurs in `characters` at or after `from`.
    static func find(_ wanted: [Character], in characters: [Character], from: Int) -> Int? {
        guard !wanted.isEmpty, wanted.count <= characters.count else { return nil }
        var start = from
        while start + wanted.count <= characters.count {
            if characters[start] == wanted[0], Array(characters[start..<start + wanted.count]) == wanted {
                return start
            }
            start += 1
        }
        return nil
    }

    /// Where `query` occurs in each line, ignoring case: the line's index and the characters.
    /// A word broken across two lines is not found.
    public func occurrences(of query: String) -> [(line: Int, range: Range<Int>)] {
        let wanted = query.map { $0.lowercased() }
        guard !wanted.isEmpty else { return [] }
        var found: [(line: Int, range: Range<Int>)] = []
        for (index, line) in lines.enumerated() {
            let characters = line.text.map { $0.lowercased() }
            var start = 0
            while start + wanted.count <= characters.count {
                if Array(characters[start..<start + wanted.count]) == wanted {
                    found.append((index, start..<start + wanted.count))
                    start += wanted.count
                } else {
                    start += 1
                }
            }
        }
        return found
    }
}
