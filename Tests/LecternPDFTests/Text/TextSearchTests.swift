import LecternCore
import Testing

@testable import LecternPDF

/// Search through the shim's page text: case- and accent-insensitive, across lines, right to
/// left. search.pdf (Tests/Fixtures/make-nav-fixtures) has its words at known places.
@Suite struct TextSearchTests {
    let document: PDFDocument

    init() throws {
        document = try PDFDocument(path: Fixture.path("search.pdf"))
    }

    func count(_ text: String) throws -> [Int] {
        let query = try #require(SearchQuery(text))
        return try (0..<document.pageCount).map { page throws in try document.search(query, page: page).count }
    }

    @Test func caseAndAccentsDoNotCount() throws {
        // Page 1: "Café", "CAFÉ" and "cafe(teria)"; page 2: "cafe".
        #expect(try count("cafe") == [3, 1, 0])
        #expect(try count("CAFÉ") == [3, 1, 0])
        #expect(try count("Müller") == [1, 0, 1])
        #expect(try count("MULLER") == [1, 0, 1])
        #expect(try count("cafe and") == [1, 0, 0])
        #expect(try count("cafeterias") == [0, 0, 0])
    }

    @Test func theHitIsWhereTheWordIs() throws {
        let hits = try document.search(try #require(SearchQuery("muller")), page: 0)
        let rect = try #require(hits.first?.rects.first)
        // "Müller" in 28-pt Helvetica at (60, 760): x 126.9–203.1, its line 751.6–790.1.
        #expect(abs(rect.minX - 126.9) < 0.5 && abs(rect.maxX - 203.1) < 0.5, "\(rect)")
        #expect(abs(rect.minY - 751.6) < 0.5 && abs(rect.maxY - 790.1) < 0.5, "\(rect)")
    }

    @Test func aPhraseOverALineBreakHasABoxPerLine() throws {
        // "…in the harbour" / "CAFÉ and cafeteria": one hit over two lines.
        let hits = try document.search(try #require(SearchQuery("harbour   café")), page: 0)
        #expect(hits.count == 1)
        #expect(hits.first?.rects.count == 2)
    }

    @Test func rightToLeftTextIsFound() throws {
        // The sample's Hebrew pages (7 and 8) are drawn in visual order; "עמוד" (page) is typed
        // in logical order. mutool finds it reversed 5 and 3 times there.
        let sample = try PDFDocument(path: Fixture.sample)
        let query = try #require(SearchQuery("עמוד"))
        let counts = try (0..<sample.pageCount).map { page throws in try sample.search(query, page: page).count }
        #expect(counts == [0, 0, 0, 0, 0, 0, 5, 3, 0])
        // With points (niqqud) typed, the marks do not count.
        #expect(try sample.search(try #require(SearchQuery("עַמּוּד")), page: 6).count == 5)
    }

    @Test func nothingToLookFor() {
        #expect(SearchQuery("   ") == nil)
        #expect(SearchQuery("") == nil)
        #expect(SearchQuery("\u{301}") == nil, "a lone accent folds to nothing")
    }

    @Test func ligaturesAndFolds() {
        // Full case folding and compatibility forms, as the page text is folded.
        var folding = Folding()
        var out: [UInt32] = []
        for scalar in "Straße ﬁne".unicodeScalars { folding.fold(scalar.value, into: &out) }
        #expect(String(String.UnicodeScalarView(out.compactMap(Unicode.Scalar.init))) == "strasse fine")
    }
}
