import LecternCore
import LecternPDF
import Testing

/// Where a page's images are drawn (`PDFDocument.imageAreas`), which the contrast modes leave in
/// their own colours: Tests/Fixtures/contrast.pdf draws one image at x 240…360, y 60…180 (PDF
/// points, y up) of a 400 × 300 pt page, beside text and a hairline.
@Suite("Image areas")
struct ImageAreaTests {
    @Test("the image's box, in the pixels of the region drawn, and nothing for text or strokes")
    func imageBox() throws {
        let document = try PDFDocument(path: Fixture.path("contrast.pdf"))
        let whole = try document.imageAreas(page: 0, scale: 2, region: PixelBox(x: 0, y: 0, width: 800, height: 600))
        #expect(whole == [PixelBox(x: 480, y: 240, width: 240, height: 240)])
        // A region to the right of the page's middle: the same box, moved and cut at its edge.
        let part = try document.imageAreas(page: 0, scale: 2, region: PixelBox(x: 600, y: 300, width: 200, height: 300))
        #expect(part == [PixelBox(x: 0, y: 0, width: 120, height: 180)])
        // Only the text: no image.
        let text = try document.imageAreas(page: 0, scale: 2, region: PixelBox(x: 0, y: 0, width: 400, height: 600))
        #expect(text.isEmpty)
    }
}
