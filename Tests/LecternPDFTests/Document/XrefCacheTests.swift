import LecternCore
import Testing

@testable import LecternPDF

/// Leafing through a document drops MuPDF's cached objects every 16 pages recorded (the shim's
/// `pdf_clear_xref`): what it drops must be read again, not missed.
@Suite struct XrefCacheTests {
    @Test("pages, text and links read after the cached objects were dropped are the same as before")
    func pagesAfterClearing() throws {
        let document = try PDFDocument(path: Fixture.path("labels.pdf"))
        let sample = try PDFDocument(path: Fixture.sample)
        let pages = document.pageCount
        #expect(pages > 8, "more pages than the display-list cache holds, so every round records again")
        var first: [Bitmap] = []
        let sampleLinks = try (0..<sample.pageCount).map { try sample.links(page: $0).map(\.rect) }
        // 12 pages a round, 3 rounds: 36 recordings, two clears; the sample's 16 link reads too.
        for round in 0..<3 {
            for page in 0..<pages {
                let bitmap = try Bitmap.renderPage(document, page: page, scale: 0.25)
                if round == 0 {
                    first.append(bitmap)
                } else {
                    #expect(bitmap == first[page], "page \(page + 1), round \(round + 1)")
                }
            }
            for page in 0..<sample.pageCount {
                _ = try Bitmap.renderPage(sample, page: page, scale: 0.1)
                #expect(try sample.links(page: page).map(\.rect) == sampleLinks[page], "sample page \(page + 1)")
            }
        }
    }
}
