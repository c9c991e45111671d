import LecternCore
import Testing

@testable import LecternPDF

/// A page's characters for text selection (selection.pdf, made by make-selection-fixtures).
@Suite struct PageCharacterTests {
    static var selection: String { Fixture.path("selection.pdf") }

    @Test func charactersSitWhereTheTextIsDrawnInLines() throws {
        // Page 1: Helvetica 24 pt, baselines 500, 460, 420 from x = 40.
        let characters = try PDFDocument(path: Self.selection).pageCharacters(page: 0)
        #expect(
            characters.text(in: 0...(characters.count - 1)) == "Lectern reads aloud\nquiet kiosk words\nthird line here"
        )
        let first = characters.characters[0]
        #expect(first.scalar == UInt32(("L" as Unicode.Scalar).value))
        #expect(abs(first.rect.minX - 40) < 1)
        // The box spans the baseline (user space, y up): descender below, ascender above.
        #expect(first.rect.minY < 500 && first.rect.maxY > 515)
        let lines = Set(characters.characters.map(\.line))
        #expect(lines.count == 3)
        let quiet = try #require(
            characters.characters.firstIndex { $0.scalar == UInt32(("q" as Unicode.Scalar).value) })
        #expect(characters.characters[quiet].line != first.line)
        #expect(characters.characters[quiet].rect.minY < 460 && characters.characters[quiet].rect.maxY > 470)
        #expect(characters.text(in: characters.wordRange(around: quiet + 2)) == "quiet")
    }

    @Test func rightToLeftTextComesInReadingOrder() throws {
        // Page 3: "שלום עולם" drawn in visual order (MuPDF reads it reversed); reading order
        // starts at the rightmost letter.
        let characters = try PDFDocument(path: Self.selection).pageCharacters(page: 2)
        #expect(
            characters.text(in: 0...(characters.count - 1))
                == "\u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{5E2}\u{5D5}\u{5DC}\u{5DD}")
        let xs = characters.characters.map(\.rect.midX)
        #expect(xs == xs.sorted(by: >), "reading order runs right to left on the page")
        #expect(characters.characters[0].isRightToLeft)
    }

    @Test func aPageWithoutTextHasNoCharactersAndABadIndexThrows() throws {
        let document = try PDFDocument(path: Fixture.path("boxes.pdf"))
        #expect(try document.pageCharacters(page: 0).isEmpty)
        #expect(throws: PDFError.self) { try document.pageCharacters(page: 99) }
    }
}
