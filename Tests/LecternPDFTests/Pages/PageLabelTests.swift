import LecternCore
import Testing

@testable import LecternPDF

/// /PageLabels read through the shim, and the label formats.
@Suite struct PageLabelTests {
    @Test func sampleIsCoverThenNumbers() throws {
        // kiosk/sample/make-sample.js: Nums [0 <</P (Cover)>> 1 <</S /D>>].
        let document = try PDFDocument(path: Fixture.sample)
        let labels = try document.pageInfos(in: 0..<document.pageCount).map { try $0.get().label }
        #expect(labels == ["Cover", "1", "2", "3", "4", "5", "6", "7", "8"])
        #expect(try document.pageInfo(at: 4).label == "4")
    }

    @Test func everyStyleAcrossKids() throws {
        let document = try PDFDocument(path: Fixture.path("labels.pdf"))
        let labels = try (0..<12).map { index throws(PDFError) in try document.pageInfo(at: index).label }
        #expect(labels == ["i", "ii", "iii", "1", "2", "3", "A-7", "A-8", "Y", "Z", "a", "Appendix"])
    }

    @Test func noPageLabelsIsNil() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        #expect(try (0..<3).allSatisfy { index throws(PDFError) in try document.pageInfo(at: index).label == nil })
    }

    @Test(arguments: ["bad-labels-cycle.pdf", "bad-labels-nums.pdf"])
    func malformedTreeGivesNoLabelsAndTheDocumentStillWorks(name: String) throws {
        let document = try PDFDocument(path: Fixture.path(name))
        #expect(document.pageCount == 3)
        for index in 0..<3 {
            let info = try document.pageInfo(at: index)
            #expect(info.label == nil)
            #expect(info.displaySize == Size(width: 595, height: 842))
        }
        let bitmap = try Bitmap.renderPage(document, page: 2, scale: 0.25)
        #expect(bitmap.darkPixels(in: bitmap.fullRect) > 50)
    }

    @Test func formats() {
        #expect(PageLabels.format(4, .upperRoman) == "IV")
        #expect(PageLabels.format(1994, .upperRoman) == "MCMXCIV")
        #expect(PageLabels.format(3999, .lowerRoman) == "mmmcmxcix")
        #expect(PageLabels.format(1, .upperLetters) == "A")
        #expect(PageLabels.format(26, .upperLetters) == "Z")
        #expect(PageLabels.format(27, .upperLetters) == "AA")
        #expect(PageLabels.format(53, .lowerLetters) == "aaa")
        #expect(PageLabels.format(12, .decimal) == "12")
        #expect(PageLabels.format(12, .none) == "")
    }

    @Test func rangesBeforeTheFirstAndDuplicates() {
        let labels = PageLabels(ranges: [
            .init(start: 5, style: .decimal, prefix: "x", first: 1),
            .init(start: 2, style: .upperRoman, prefix: "", first: 1),
            .init(start: 5, style: .decimal, prefix: "B-", first: 10),
        ])
        #expect(labels.label(forPage: 0) == nil)
        #expect(labels.label(forPage: 1) == nil)
        #expect(labels.label(forPage: 2) == "I")
        #expect(labels.label(forPage: 4) == "III")
        #expect(labels.label(forPage: 5) == "B-10")
        #expect(labels.label(forPage: 9) == "B-14")
        #expect(
            PageLabels(ranges: [.init(start: 0, style: .decimal, prefix: "", first: Int.max)]).label(forPage: 1) == "")
    }
}
