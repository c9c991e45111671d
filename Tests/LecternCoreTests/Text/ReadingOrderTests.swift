import Testing

@testable import LecternCore

/// The reading order of a page's lines (recursive XY cut) and its sentences.
@Suite struct ReadingOrderTests {
    /// A line of text 12 high at `y` from `x`, `width` wide.
    static func line(_ x: Double, _ y: Double, width: Double = 150) -> Rect {
        Rect(x: x, y: y, width: width, height: 12)
    }

    /// Two columns of three two-line paragraphs, the breaks level across them, drawn row by row.
    static func columns(top: Double = 100) -> (boxes: [Rect], left: [Int], right: [Int]) {
        var boxes: [Rect] = []
        var left: [Int] = []
        var right: [Int] = []
        var y = top
        for row in 0..<6 {
            left.append(boxes.count)
            boxes.append(line(50, y))
            right.append(boxes.count)
            boxes.append(line(315, y))
            y += row % 2 == 0 ? 13 : 40
        }
        return (boxes, left, right)
    }

    @Test func columnsDrawnRowByRowAreReadColumnByColumn() {
        let (body, left, right) = Self.columns()
        let title = Self.line(50, 40, width: 400)
        let footer = Self.line(50, 760, width: 120)
        let boxes = body + [title, footer]
        #expect(ReadingOrder.order(boxes) == [body.count] + left + right + [body.count + 1])
    }

    @Test func aShortTitleStaysFirstAndTheColumnsStayWhole() {
        let (body, left, right) = Self.columns()
        let title = Self.line(50, 40, width: 100)  // narrower than the left column
        #expect(ReadingOrder.order([title] + body) == [0] + (left + right).map { $0 + 1 })
    }

    @Test func rightToLeftPagesReadTheRightColumnFirst() {
        let (body, left, right) = Self.columns()
        #expect(ReadingOrder.order(body, rightToLeft: true) == right + left)
    }

    @Test func oneColumnIsReadTopToBottomWhateverTheDrawingOrder() {
        let boxes = [Self.line(50, 200), Self.line(50, 100, width: 90), Self.line(50, 113), Self.line(50, 300)]
        #expect(ReadingOrder.order(boxes) == [1, 2, 0, 3])
    }

    @Test func aSpaceBetweenTwoPiecesOfOneLineIsNotAColumnGap() {
        // Two pieces of one row 4 apart (less than a line high), then the next row.
        let boxes = [Self.line(50, 100, width: 60), Self.line(114, 100, width: 60), Self.line(50, 113)]
        #expect(ReadingOrder.order(boxes) == [0, 1, 2])
    }

    @Test func paragraphsJoinTheirLinesAndHyphenatedWords() {
        var characters: [PageCharacter] = []
        func add(_ text: String, line: Int, y: Double, x: Double = 50) {
            for (index, scalar) in text.unicodeScalars.enumerated() {
                characters.append(
                    PageCharacter(
                        scalar: scalar.value, rect: Rect(x: x + Double(index) * 6, y: y, width: 6, height: 12),
                        line: line, block: 0))
            }
        }
        add("The garden is be-", line: 0, y: 100)
        add("hind the hall. It opens", line: 1, y: 113)
        add("at nine.", line: 2, y: 126)
        add("A new paragraph.", line: 3, y: 170)
        let blocks = ReadingOrder.blocks(of: PageCharacters(readingOrder: characters))
        #expect(blocks.map(\.text) == ["The garden is behind the hall. It opens at nine.", "A new paragraph."])
        #expect(blocks[0].lines.count == 3)
        #expect(blocks[0].sentences == ["The garden is behind the hall.", "It opens at nine."])
        let spoken = blocks[0].sentencesWithLines
        #expect(spoken.map(\.lines.count) == [2, 2], "each sentence with the lines it is on")
        #expect(spoken[0].lines == Array(blocks[0].lines[0...1]) && spoken[1].lines == Array(blocks[0].lines[1...2]))
    }

    @Test func sentencesEndAtTerminatorsButNotAtAbbreviationsOrInitials() {
        #expect(
            Sentences.split("Dr. Smith arrived at 3.30 p.m. today! Did J. R. Lee come? “Yes.” Then… nothing")
                == ["Dr. Smith arrived at 3.30 p.m. today!", "Did J. R. Lee come?", "“Yes.”", "Then…", "nothing"])
        #expect(Sentences.split("שלום עולם. מה שלומך?") == ["שלום עולם.", "מה שלומך?"])
        #expect(Sentences.split("   ") == [])
    }

    @Test func theCharactersUnderALinkAreWholeWords() {
        // Two lines of 20 characters, 200 wide: "Opening hours today." and "Read the whole plan."
        let block = ReadingBlock(
            text: "Opening hours today. Read the whole plan.",
            lines: [Self.line(0, 100, width: 200), Self.line(0, 113, width: 200)],
            lineStarts: [0, 21])
        // Over "hours" (x 80..130 of the first line), a little short of its ends: the whole word.
        #expect(block.characters(under: Rect(x: 85, y: 99, width: 40, height: 14)) == 8..<13)
        // Across both lines, over "today." and "Read": from the first word to the last.
        #expect(block.characters(under: Rect(x: 0, y: 100, width: 200, height: 25)) == 0..<41)
        // Beside the text, or touching a line only at its edge: nothing.
        #expect(block.characters(under: Rect(x: 300, y: 100, width: 50, height: 12)) == nil)
        #expect(block.characters(under: Rect(x: 0, y: 110, width: 200, height: 2)) == nil)
    }
}
