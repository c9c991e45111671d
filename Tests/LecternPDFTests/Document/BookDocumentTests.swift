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

/// A book laid out again at another size keeps the reader's place by its text, not its page number.
@Suite struct BookLayoutTests {
    /// The text of `page`, its characters joined.
    static func text(_ book: PDFDocument, page: Int) throws -> String {
        let characters = try book.pageCharacters(page: page).characters
        return String(String.UnicodeScalarView(characters.compactMap { Unicode.Scalar($0.scalar) }))
    }

    @Test func aLargerFontMakesMorePagesAndKeepsTheSentenceOnScreen() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("book.epub").path
        try GeneratedEPUB.numbered(chapters: 4, paragraphs: 20).write(to: path)
        let book = try PDFDocument(path: path)
        #expect(book.isReflowable)
        let small = try book.layOut(BookLayout(width: 480, height: 640, fontSize: 10))
        #expect(small.pageCount == book.pageCount && small.page == 0)
        let info = try book.pageInfo(at: 0)
        #expect(info.displaySize == Size(width: 480, height: 640), "pages the size asked for")
        let kept = small.pageCount * 2 / 3
        let before = try Self.text(book, page: kept)
        // The first words of the kept page: "…of chapter N tells…" names where it is.
        let words = before.split(separator: " ").prefix(4).joined(separator: " ")
        let large = try book.layOut(BookLayout(width: 480, height: 640, fontSize: 20), keeping: kept)
        #expect(large.pageCount > small.pageCount * 3 / 2, "\(small.pageCount) pages, then \(large.pageCount)")
        #expect(large.page > kept, "the same text is further on")
        let after = try Self.text(book, page: large.page)
        let query = try #require(SearchQuery(words))
        #expect(!(try book.search(query, page: large.page)).isEmpty, "'\(words)' is still on screen: \(after)")
        let back = try book.layOut(BookLayout(width: 480, height: 640, fontSize: 10), keeping: large.page)
        #expect(back.pageCount == small.pageCount)
        #expect(abs(back.page - kept) <= 1, "back where it was: \(back.page), \(kept)")
    }

    @Test func aBookClaimsItsFirstChapterUntilItsPagesAreCounted() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("book.epub").path
        try GeneratedEPUB.numbered(chapters: 5, paragraphs: 20).write(to: path)
        let book = try PDFDocument(path: path)
        let first = book.pageCount
        #expect(first >= 1)
        let through = try book.layOut(BookLayout(width: 480, height: 640, fontSize: 12), through: first + 1)
        #expect(through.pageCount > first + 1, "the chapters through the page asked for")
        let all = try book.readPageTree().pageCount
        #expect(all > through.pageCount && book.pageCount == all, "\(first), \(through.pageCount), then \(all)")
        #expect(try book.outline().compactMap(\.page).count == 5, "every entry leads to its page")
    }

    @Test func aPDFIsNotLaidOut() throws {
        let pdf = try PDFDocument(path: Fixture.path("text-3pages.pdf"))
        #expect(!pdf.isReflowable)
        let laid = try pdf.layOut(BookLayout(width: 100, height: 100, fontSize: 30), keeping: 2)
        #expect(laid == LaidOutBook(pageCount: 3, page: 2) && pdf.pageCount == 3)
    }
}

@Suite struct BookBindingTests {
    @Test func anEPUBsSpineGivesItsBinding() throws {
        let directory = try makeTemporaryDirectory()
        for rightToLeft in [false, true] {
            let path = directory.appendingPathComponent("book-\(rightToLeft).epub").path
            var book = GeneratedEPUB.numbered(chapters: 1, paragraphs: 2)
            book.isRightToLeft = rightToLeft
            try book.write(to: path)
            #expect(try PDFDocument(path: path).isRightToLeft == rightToLeft)
        }
    }

    @Test func anEPUBsLanguageIsItsDCLanguage() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("livre.epub").path
        var book = GeneratedEPUB.numbered(chapters: 1, paragraphs: 2)
        book.language = "fr-CA"
        try book.write(to: path)
        #expect(try PDFDocument(path: path).language() == "fr", "speech's voice")
    }
}
