import LecternCore
import LecternPDF
import Testing

/// The structure tree of tagged PDFs (`PDFDocument.taggedElements`), read for speech:
/// Tests/Fixtures/tagged.pdf and tagged-malformed.pdf (made by make-structure-fixtures).
@Suite("Tagged structure")
struct StructureTests {
    @Test(
        "a figure's /Alt and /BBox (its role through /RoleMap), a span's /ActualText and glyphs, an element's /Lang, the artifacts' glyphs"
    )
    func taggedElements() throws {
        let document = try PDFDocument(path: Fixture.path("tagged.pdf"))
        let elements = try document.taggedElements(page: 0)
        // The span's glyphs: one box each for "k" and "m", on the line's baseline (y 560).
        let kilometres = elements.count > 1 ? elements[1].glyphs : []
        #expect(kilometres.count == 2)
        let characters = try document.pageCharacters(page: 0).characters
        let covered = characters.filter { character in kilometres.contains { character.rect.contains($0.center) } }
        #expect(covered.map(\.scalar) == [0x6B, 0x6D], "k, m")
        #expect(
            PageCharacters(readingOrder: characters).replacing([ActualText(text: "kilometres", glyphs: kilometres)])
                .characters.compactMap { Unicode.Scalar($0.scalar) }.map(String.init).joined()
                .contains("The park is 2 kilometres away."))
        // The French paragraph's glyphs (its own /Lang: speech says it in a French voice).
        let french = elements.count > 2 ? elements[2].glyphs : []
        let inFrench = characters.filter { character in french.contains { character.rect.contains($0.center) } }
        #expect(
            String(String.UnicodeScalarView(inFrench.compactMap { Unicode.Scalar($0.scalar) })) == "Bienvenueaumusee.")
        #expect(
            elements == [
                TaggedElement(
                    kind: .figure, depth: 2, alt: "A map of the ground floor.",
                    box: Rect(x: 50, y: 600, width: 200, height: 100), glyphs: elements.first?.glyphs ?? []),
                TaggedElement(kind: .other, depth: 3, actualText: "kilometres", glyphs: kilometres),
                TaggedElement(kind: .other, depth: 2, language: "fr-FR", glyphs: french),
                // No /Alt and no /BBox: the box of what its MCID draws (the page's third image: an
                // untagged logo is drawn first).
                TaggedElement(kind: .figure, depth: 2, box: Rect(x: 50, y: 400, width: 100, height: 50)),
                TaggedElement(kind: .artifact, depth: 0, glyphs: elements.last?.glyphs ?? []),
            ])
        // The figure's glyphs: the word drawn on its image.
        let onFigure = elements.first?.glyphs ?? []
        let label = characters.filter { character in onFigure.contains { character.rect.contains($0.center) } }
        #expect(String(String.UnicodeScalarView(label.compactMap { Unicode.Scalar($0.scalar) })) == "Entrance")
        // The running foot's glyphs: the characters of "Museum guide, page 1" but its spaces.
        let foot = elements.last?.glyphs ?? []
        let unread = characters.filter { character in foot.contains { character.rect.contains($0.center) } }
        #expect(
            String(String.UnicodeScalarView(unread.compactMap { Unicode.Scalar($0.scalar) })) == "Museumguide,page1")
        // MuPDF 1.21's text keeps the glyphs: /ActualText is not applied to the characters.
        let text = String(
            String.UnicodeScalarView(
                try document.pageCharacters(page: 0).characters.compactMap { Unicode.Scalar($0.scalar) }))
        #expect(text.contains("2 km away") && !text.contains("kilometres"))
    }

    @Test("a page's elements are found through the parent tree, not by walking the whole tree")
    func parentTree() throws {
        // The second figure is in the parent tree only: a walk from the root would not meet it.
        let document = try PDFDocument(path: Fixture.path("tagged-orphan.pdf"))
        #expect(
            try document.taggedElements(page: 0)
                == (try PDFDocument(path: Fixture.path("tagged.pdf")).taggedElements(page: 0)))
    }

    @Test("an untagged document has no elements")
    func untagged() throws {
        #expect(try PDFDocument(path: Fixture.path("columns.pdf")).taggedElements(page: 0).isEmpty)
        #expect(try PDFDocument(path: Fixture.path("contrast.pdf")).taggedElements(page: 0).isEmpty)
    }

    @Test(
        "a malformed tree: cycles, kids and keys of the wrong type, a role map and a parent tree in a cycle, 1000 levels deep"
    )
    func malformed() throws {
        let document = try PDFDocument(path: Fixture.path("tagged-malformed.pdf"))
        let elements = try document.taggedElements(page: 0)
        #expect(elements.map(\.kind) == [.figure, .figure, .figure, .artifact])
        #expect(elements.map(\.alt) == ["Page inherited.", "Still found.", nil, nil])
        #expect(elements.map(\.depth) == [2, 1, 1, 0])
        // No MCID: no box; MCIDs 2 and 7: what they draw (a /BBox of the wrong type is ignored).
        #expect(
            elements.map(\.box) == [
                nil, Rect(x: 50, y: 600, width: 200, height: 100), Rect(x: 50, y: 400, width: 100, height: 50), nil,
            ])
        #expect(elements.allSatisfy { $0.language == nil && $0.actualText == nil })
        // Read twice: the first walk left nothing behind that changes the second.
        #expect(try document.taggedElements(page: 0) == elements)
        #expect(throws: PDFError.self) { try document.taggedElements(page: 1) }
    }
}
