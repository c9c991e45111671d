import LecternCore
import Testing

/// `PageCharacters.replacing`: a tagged PDF's /ActualText read in place of the glyphs it covers.
@Suite("Actual text")
struct ActualTextTests {
    /// `text` on one line, each character 10 wide from x 0, 12 high.
    static func line(_ text: String) -> PageCharacters {
        PageCharacters(
            readingOrder: text.unicodeScalars.enumerated().map { offset, scalar in
                PageCharacter(
                    scalar: scalar.value, rect: Rect(x: Double(offset) * 10, y: 0, width: 10, height: 12), line: 0,
                    block: 0)
            })
    }

    /// A glyph's ink inside the character at `offset`.
    static func glyph(_ offset: Int) -> Rect { Rect(x: Double(offset) * 10 + 2, y: 1, width: 6, height: 8) }

    static func text(_ characters: PageCharacters) -> String {
        String(String.UnicodeScalarView(characters.characters.compactMap { Unicode.Scalar($0.scalar) }))
    }

    @Test("the characters under the glyphs give way to the text, once, where the first of them was")
    func replaces() {
        let page = Self.line("2 km away")
        let read = page.replacing([ActualText(text: "kilometres", glyphs: [Self.glyph(2), Self.glyph(3)])])
        #expect(Self.text(read) == "2 kilometres away")
        #expect(read.characters.allSatisfy { $0.line == 0 && $0.block == 0 })
        #expect(read.characters[2].rect.minX == 20, "at the place of the k")
    }

    @Test(
        "white space between the glyphs of one replacement goes with them; an earlier replacement keeps its characters")
    func spacesAndNesting() {
        let page = Self.line("H 2 O is water")
        let outer = ActualText(text: "water", glyphs: [Self.glyph(0), Self.glyph(2), Self.glyph(4)])
        let inner = ActualText(text: "two", glyphs: [Self.glyph(2)])
        #expect(Self.text(page.replacing([outer, inner])) == "water is water")
        #expect(Self.text(page.replacing([inner])) == "H two O is water")
        #expect(page.replacing([]) == page)
        #expect(
            page.replacing([ActualText(text: "nothing", glyphs: [Rect(x: 500, y: 500, width: 1, height: 1)])]) == page)
    }
}
