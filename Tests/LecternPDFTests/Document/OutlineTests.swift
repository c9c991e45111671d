import Testing

@testable import LecternPDF

/// The outline read through the shim (fz_load_outline): titles, nesting, open state, and the
/// pages the entries lead to.
@Suite struct OutlineTests {
    @Test func nestedEntriesWithTheirPages() throws {
        let document = try PDFDocument(path: Fixture.path("outline.pdf"))
        let outline = try document.outline()
        let expected = [
            OutlineEntry(title: "Introduction", page: 0, depth: 0, isOpen: false),
            OutlineEntry(title: "Part One", page: 1, depth: 0, isOpen: false),
            OutlineEntry(title: "Blue", page: 1, depth: 1, isOpen: false),
            OutlineEntry(title: "Green", page: 2, depth: 1, isOpen: false),
            OutlineEntry(title: "Part Two", page: 3, depth: 0, isOpen: true),
            OutlineEntry(title: "Yellow", page: 3, depth: 1, isOpen: false),
            OutlineEntry(title: "Chapter Five", page: 4, depth: 1, isOpen: false),
            OutlineEntry(title: "Purple", page: 4, depth: 2, isOpen: false),
            OutlineEntry(title: "Orange and beyond", page: 5, depth: 0, isOpen: false),
            OutlineEntry(title: "On the web", page: nil, depth: 0, isOpen: false),
        ]
        #expect(outline == expected)
    }

    @Test func noOutlineIsEmpty() throws {
        #expect(try PDFDocument(path: Fixture.path("colors-8pages.pdf")).outline().isEmpty)
        #expect(try PDFDocument(path: Fixture.sample).outline().isEmpty)
    }

    @Test func theOutlineKeepsLecternsPageMap() throws {
        // A page tree that claims more pages than it holds: the outline loader must not replace the
        // walked page map with one built from the claim.
        let document = try PDFDocument(path: Fixture.path("count-root-lie.pdf"))
        let count = try document.readPageTree().pageCount
        _ = try document.outline()
        #expect(document.pageCount == count)
        #expect(try document.pageInfo(at: count - 1).displaySize.width > 0)
    }
}
