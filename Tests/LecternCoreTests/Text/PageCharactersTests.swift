import Testing

@testable import LecternCore

/// Reading order, words, text and highlights of a page's characters, and selections over them.
@Suite struct PageCharactersTests {
    /// Characters on one line from x = 0, 10 pt apart, in the order given (drawn order).
    static func line(_ text: String, line: Int = 0, y: Double = 100) -> [PageCharacter] {
        text.enumerated().map { index, character in
            PageCharacter(
                scalar: character.unicodeScalars.first!.value,
                rect: Rect(x: Double(index) * 10, y: y, width: 10, height: 12), line: line, block: 0,
                isRightToLeft: character.unicodeScalars.first!.value >= 0x590
                    && character.unicodeScalars.first!.value < 0x900)
        }
    }

    static func text(_ characters: PageCharacters) -> String {
        characters.text(in: 0...(characters.count - 1))
    }

    @Test func leftToRightLinesKeepTheirOrder() {
        let page = PageCharacters(drawn: Self.line("ab cd") + Self.line("ef", line: 1, y: 80))
        #expect(Self.text(page) == "ab cd\nef")
        #expect(page.wordRange(around: 4) == 3...4)
        #expect(page.highlightRects(in: 1...5).count == 2, "one box per line")
    }

    @Test func rightToLeftLineIsReadFromTheRight() {
        // Drawn in visual order: "םולש" is "שלום" reversed.
        let page = PageCharacters(drawn: Self.line("\u{5DD}\u{5D5}\u{5DC}\u{5E9}"))
        #expect(Self.text(page) == "\u{5E9}\u{5DC}\u{5D5}\u{5DD}")
        #expect(page.characters.first?.rect.minX == 30, "the first in reading order is the rightmost")
    }

    @Test func numbersAndLatinInsideRightToLeftTextStayLeftToRight() {
        // Visual: "12 םולש" → reading: "שלום 12" (base right to left; the number keeps its order).
        let page = PageCharacters(drawn: Self.line("12 \u{5DD}\u{5D5}\u{5DC}\u{5E9}"))
        #expect(Self.text(page) == "\u{5E9}\u{5DC}\u{5D5}\u{5DD} 12")
    }

    @Test func nearestCharacterAndSelectionMoves() {
        let page = PageCharacters(drawn: Self.line("abcdef"))
        #expect(page.index(at: Point(x: 25, y: 105)) == 2)
        #expect(page.nearestIndex(to: Point(x: 1000, y: 0)) == 5)
        var selection = TextSelection(TextPosition(page: 0, index: 2), TextPosition(page: 0, index: 3))
        // Dragging the end handle before the start swaps the ends.
        #expect(selection.move(.end, to: TextPosition(page: 0, index: 0)) == .start)
        #expect(selection.start.index == 0 && selection.end.index == 2)
        selection.move(.end, to: TextPosition(page: 1, index: 1))
        #expect(selection.pages == 0...1)
        #expect(selection.range(onPage: 0, count: 6) == 0...5)
        #expect(selection.range(onPage: 1, count: 6) == 0...1)
        #expect(selection.text { _ in page } == "abcdef\nab")
        #expect(selection.anchor(of: .start, in: page) == Point(x: 0, y: 100))
    }
}
