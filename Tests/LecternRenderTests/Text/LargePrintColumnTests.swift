import LecternCore
import LecternRender
import Logging
import Testing

/// The large print's column: the smallest font whose capital H is as high as asked, paragraphs
/// broken into lines no wider than the column, each line's place in its paragraph, and where a
/// word occurs.
@Suite("Large print column")
struct LargePrintColumnTests {
    let logger = Logger(label: "test")
    static let paragraphs = [
        "Visiting the city museum today",
        "The museum opens at nine. Tickets are sold at the door. Children enter for free.",
        "The cafe serves hot soup. Lockers are near the stairs.",
    ]

    @Test("the font's capital H is at least the height asked, and not much more", arguments: [12.0, 27.8, 55.5])
    func fontSize(capitalHeight: Double) throws {
        let font = try #require(LargePrintColumn.font(capitalHeight: capitalHeight, logger: logger))
        #expect(Double(font.capitalHeight) >= capitalHeight)
        #expect(Double(font.capitalHeight) <= capitalHeight * 1.1 + 1)
    }

    @Test("lines fit the column, keep the paragraphs' order and know where they start in them")
    func lines() throws {
        let font = try #require(LargePrintColumn.font(capitalHeight: 28, logger: logger))
        let column = LargePrintColumn(paragraphs: Self.paragraphs, width: 600, font: font, metrics: font.metrics)
        #expect(column.lines.count > Self.paragraphs.count, "the long paragraphs take several lines")
        for line in column.lines {
            #expect(font.width(of: line.text) <= 600, "\(line.text)")
            let paragraph = Array(Self.paragraphs[line.paragraph])
            #expect(String(paragraph[line.start..<line.start + line.text.count]) == line.text)
        }
        #expect(column.lines.map(\.paragraph) == column.lines.map(\.paragraph).sorted())
        let rejoined = Dictionary(grouping: column.lines, by: \.paragraph).sorted { $0.key < $1.key }
            .map { $0.value.map(\.text).joined(separator: " ") }
        #expect(rejoined == Self.paragraphs)
        // Tops grow by a line, and by half a line more between paragraphs.
        for (line, next) in zip(column.lines, column.lines.dropFirst()) {
            let gap = next.top - line.top
            #expect(gap == (next.paragraph == line.paragraph ? column.lineAdvance : column.lineAdvance * 3 / 2))
        }
        #expect(column.height == column.lines.last!.top + column.lineAdvance)
    }

    @Test("a word is found in the lines, whatever its case")
    func occurrences() throws {
        let font = try #require(LargePrintColumn.font(capitalHeight: 28, logger: logger))
        let column = LargePrintColumn(paragraphs: Self.paragraphs, width: 600, font: font, metrics: font.metrics)
        let found = column.occurrences(of: "MUSEUM")
        #expect(found.count == 2)
        for hit in found {
            #expect(Array(column.lines[hit.line].text)[hit.range].map(String.init).joined() == "museum")
        }
        #expect(column.occurrences(of: "").isEmpty)
        #expect(LargePrintColumn.empty.lines.isEmpty)
    }

    @Test("a sentence of a paragraph is found across the lines it is broken over")
    func sentencePieces() throws {
        let font = try #require(LargePrintColumn.font(capitalHeight: 28, logger: logger))
        let column = LargePrintColumn(paragraphs: Self.paragraphs, width: 300, font: font, metrics: font.metrics)
        let sentence = "Tickets are sold at the door."
        let pieces = column.pieces(of: sentence)
        #expect(pieces.count >= 2, "a narrow column breaks it: \(pieces)")
        let text = pieces.map { String(Array(column.lines[$0.line].text)[$0.range]) }.joined(separator: " ")
        #expect(text == sentence)
        #expect(column.pieces(of: "Not on the page.").isEmpty)
    }
}
