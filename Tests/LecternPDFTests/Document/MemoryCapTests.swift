import LecternCore
import Testing

@testable import LecternPDF

/// MuPDF's allocations are capped: a page whose image needs more memory than the cap fails
/// with an error (an error tile on screen), and the document's other pages still render.
@Suite("MuPDF's memory cap")
struct MemoryCapTests {
    /// Page 1: text; page 2: a 60000 × 60000 JBIG2 image MuPDF decodes into a 450 MB bitmap, in a
    /// file of 1 KB (Tests/Fixtures/make-huge-image).
    static let path = Fixture.path("huge-image.pdf")

    @Test("a page needing more than the cap fails with an out-of-memory error; the other pages render")
    func pageOverTheCapFails() throws {
        let document = try PDFDocument(path: Self.path, memoryLimit: 64 << 20)
        let text = try Bitmap.render(
            document, page: 0, scale: 0.5, region: PixelBox(x: 0, y: 0, width: 306, height: 396))
        #expect(text.darkPixels(in: text.fullRect) > 100, "page 1 renders")
        let failure = #expect(throws: PDFError.self) {
            _ = try Bitmap.render(document, page: 1, scale: 0.2, region: PixelBox(x: 0, y: 0, width: 122, height: 158))
        }
        #expect(failure?.kind == .renderFailed, "\(String(describing: failure))")
        #expect(failure?.message.contains("memory") == true, "the message says why: \(failure?.message ?? "")")
        // The document is fine afterwards.
        let again = try Bitmap.render(
            document, page: 0, scale: 0.5, region: PixelBox(x: 0, y: 0, width: 306, height: 396))
        #expect(again.differingPixels(from: text) == 0)
    }

    @Test("what MuPDF holds stays under the cap, and the default cap stops the 450 MB page")
    func accountingStaysUnderTheCap() throws {
        #expect(MuPDFContext.defaultMemoryLimit < 450 << 20)
        let context = try MuPDFContext(memoryLimit: MuPDFContext.defaultMemoryLimit)
        let document = try PDFDocument(path: Self.path, context: context)
        _ = try? Bitmap.render(document, page: 1, scale: 0.2, region: PixelBox(x: 0, y: 0, width: 122, height: 158))
        #expect(context.memoryInUse > 0 && context.memoryInUse <= 64 << 20, "\(context.memoryInUse) bytes held after")
    }
}
