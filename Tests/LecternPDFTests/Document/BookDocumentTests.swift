import Foundation
import LecternCore
import LecternTestSupport
import Testing

@testable import LecternPDF

/// What exists only in PDF (annotations, forms, the structure tree, page labels, the audit's
/// PDF facts) reads as nothing on a book, never as an error; what every format has (text, search,
/// the outline) works.
@Suite struct BookDocumentTests {
    static func book(_ test: String = #function) throws -> PDFDocument {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("\(test.prefix { $0 != "(" }).epub").path
        try GeneratedEPUB.numbered(chapters: 3, paragraphs: 4).write(to: path)
        return try PDFDocument(path: path)
    }

    @Test func pdfOnlyReadsAreEmptyOnABook() throws {
        let book = try Self.book()
        #expect(book.format == .zip)
        #expect(book.labels == nil && !book.isRightToLeft && !book.wasRepaired)
        #expect(try book.annotations(page: 0).annotations.isEmpty)
        #expect(try book.taggedElements(page: 0).isEmpty)
        #expect(try book.presentation(page: 0) == PagePresentation())
        let facts = try book.documentFacts()
        #expect(!facts.isTagged && !facts.isEncrypted && facts.pageCount == book.pageCount)
        let page = try book.pageFacts(page: 0)
        #expect(page.annotationCount == 0 && page.fieldCount == 0 && page.characterCount > 0)
        #expect(try book.pageInfos(in: 0..<book.pageCount).allSatisfy { (try? $0.get()) != nil })
    }

    @Test func searchAndOutlineWorkOnABook() throws {
        let book = try Self.book()
        let outline = try book.outline()
        #expect(outline.map(\.title) == ["Chapter 1", "Chapter 2", "Chapter 3"])
        let pages = outline.compactMap(\.page)
        try #require(pages.count == 3, "every chapter's entry leads to its page: \(outline)")
        #expect(pages.first == 0 && pages == pages.sorted() && Set(pages).count == 3, "\(pages)")
        let query = try #require(SearchQuery("Sentence 2 of chapter 3"))
        let chapter3 = pages[2]
        #expect(!(try book.search(query, page: chapter3)).isEmpty, "found on chapter 3's first page")
        #expect(try book.search(query, page: 0).isEmpty)
    }
}
