import LecternCore
import Testing

@testable import LecternPDF

/// Typed labels back to pages: what a visitor types ("iv", "A-7") finds the page labelled so.
@Suite struct PageLabelLookupTests {
    @Test func everyLabelOfTheFixtureFindsItsPage() throws {
        let document = try PDFDocument(path: Fixture.path("labels.pdf"))
        let labels = ["i", "ii", "iii", "1", "2", "3", "A-7", "A-8", "Y", "Z", "a", "Appendix"]
        for (page, label) in labels.enumerated() {
            #expect(document.pageIndex(forLabel: label) == page, "\(label)")
            #expect(document.label(forPage: page) == label)
        }
    }

    @Test func caseIsIgnoredOnlyWhenNothingMatchesExactly() throws {
        let document = try PDFDocument(path: Fixture.path("labels.pdf"))
        #expect(document.pageIndex(forLabel: "III") == 2)
        #expect(document.pageIndex(forLabel: "appendix") == 11)
        #expect(document.pageIndex(forLabel: "a-8") == 7)
        // "a" is page 11's own label; "A" is nobody's, so it finds "a" too.
        #expect(document.pageIndex(forLabel: "a") == 10)
        #expect(document.pageIndex(forLabel: "y") == 8)
    }

    @Test func labelsNobodyHasFindNothing() throws {
        let document = try PDFDocument(path: Fixture.path("labels.pdf"))
        // "4" would be the fourth decimal page, but the decimal range ends after "3".
        for label in ["4", "iv", "iiii", "A-6", "A-9", "X", "b", "Appendix2", "", "0", "٣"] {
            #expect(document.pageIndex(forLabel: label) == nil, "\(label)")
        }
        #expect(try PDFDocument(path: Fixture.text3Pages).pageIndex(forLabel: "1") == nil, "no labels at all")
    }

    @Test func rangesWithStartsAndLetters() {
        let labels = PageLabels(ranges: [
            .init(start: 0, style: .lowerRoman, prefix: "", first: 1),
            .init(start: 10, style: .decimal, prefix: "", first: 1),
            .init(start: 500, style: .upperLetters, prefix: "Annex ", first: 1),
        ])
        #expect(labels.page(forLabel: "x", pageCount: 600) == 9)
        #expect(labels.page(forLabel: "xi", pageCount: 600) == nil, "the roman range ends at page 10")
        #expect(labels.page(forLabel: "490", pageCount: 600) == 499)
        #expect(labels.page(forLabel: "491", pageCount: 600) == nil)
        #expect(labels.page(forLabel: "Annex A", pageCount: 600) == 500)
        #expect(labels.page(forLabel: "Annex BB", pageCount: 600) == 500 + 27)
        #expect(labels.page(forLabel: "Annex AB", pageCount: 600) == nil, "not how letters are written")
        #expect(labels.page(forLabel: "Annex ZZZZ", pageCount: 600) == nil, "past the end")
        #expect(labels.page(forLabel: "491", pageCount: 300) == nil, "past the page count")
        #expect(labels.page(forLabel: "10", pageCount: 300) == 19)
    }
}
