import LecternCore
import Testing

@testable import LecternPDF

/// Text blocks in PDF user space, checked against where the text is drawn.
@Suite struct TextBlockTests {
    /// `rect` (PDF user space) in the displayed page at `scale`: what a caller does with /Rotate and the crop box.
    static func displayRect(_ rect: Rect, _ info: PageInfo, scale: Double) -> PixelBox {
        let c = info.cropBox
        let (u0, v0, u1, v1): (Double, Double, Double, Double) =
            switch info.rotation {
            case 90: (rect.minY - c.minY, rect.minX - c.minX, rect.maxY - c.minY, rect.maxX - c.minX)
            case 180: (c.maxX - rect.maxX, rect.minY - c.minY, c.maxX - rect.minX, rect.maxY - c.minY)
            case 270: (c.maxY - rect.maxY, c.maxX - rect.maxX, c.maxY - rect.minY, c.maxX - rect.minX)
            default: (rect.minX - c.minX, c.maxY - rect.maxY, rect.maxX - c.minX, c.maxY - rect.minY)
            }
        let x = Int((u0 * scale).rounded(.down))
        let y = Int((v0 * scale).rounded(.down))
        return PixelBox(
            x: x, y: y, width: Int((u1 * scale).rounded(.up)) - x, height: Int((v1 * scale).rounded(.up)) - y)
    }

    @Test func blocksSitWhereTheTextIsWritten() throws {
        // text-3pages.pdf page 1: "Page One" 72 pt at (60, 700), "Lectern fixture" 36 pt at (60, 600).
        let blocks = try PDFDocument(path: Fixture.text3Pages).textBlocks(page: 0)
        #expect(!blocks.isEmpty)
        let title = try #require(blocks.first { $0.minY < 700 && $0.maxY > 700 + 40 })
        #expect(abs(title.minX - 60) < 3)
        #expect(title.maxX > 300)
        #expect(blocks.contains { $0.minY < 600 && $0.maxY > 620 && abs($0.minX - 60) < 3 })
        #expect(
            blocks.allSatisfy { $0.minX >= 0 && $0.maxX <= 595 && $0.minY >= 0 && $0.maxY <= 842 && $0.maxY > $0.minY })
    }

    @Test func rotatedPageBlocksAreInUnrotatedUserSpace() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        // Page 3 is page 1's layout with /Rotate 90: the same user-space position, drawn turned.
        let upright = try document.textBlocks(page: 0)
        let rotated = try document.textBlocks(page: 2)
        let title = try #require(rotated.first)
        #expect(rotated.count == 1)
        #expect(abs(title.minX - upright[0].minX) < 0.5 && abs(title.minY - upright[0].minY) < 0.5)
        #expect(abs(title.maxY - upright[0].maxY) < 0.5)
        #expect(title.width > title.height)  // a line of text, horizontal in user space
        // Mapped with /Rotate, the block covers the drawn text, and nothing is drawn outside it.
        let info = try document.pageInfo(at: 2)
        let bitmap = try Bitmap.renderPage(document, page: 2, scale: 1)
        let rect = Self.displayRect(title, info, scale: 1)
        #expect(rect.width < rect.height)  // a column on screen
        let inside = bitmap.darkPixels(in: rect)
        #expect(inside > 2000)
        #expect(bitmap.darkPixels(in: bitmap.fullRect) == inside)
    }

    @Test func sampleSidewaysPageHeadingIsAtTheTopOnScreen() throws {
        // sample.pdf page 5: /Rotate 90, content drawn turned so it reads upright once rotated.
        let document = try PDFDocument(path: Fixture.sample)
        let info = try document.pageInfo(at: 4)
        #expect(info.rotation == 90)
        let blocks = try document.textBlocks(page: 4)
        #expect(blocks.count >= 4)
        let onScreen = blocks.map { Self.displayRect($0, info, scale: 1) }
        let (width, height) = info.pixelSize(scale: 1)
        #expect(
            onScreen.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.width <= width && $0.y + $0.height <= height })
        // In user space the lines run up the page; on screen they run across it.
        #expect(blocks.filter { $0.height > $0.width }.count * 2 > blocks.count)
        #expect(onScreen.filter { $0.width > $0.height }.count * 2 > onScreen.count)
        // The heading ("A page stored sideways") is the topmost block and is drawn there.
        let top = try #require(onScreen.min { $0.y < $1.y })
        #expect(top.y < height / 4)
        let bitmap = try Bitmap.renderPage(document, page: 4, scale: 1)
        #expect(bitmap.darkPixels(in: top) > 100)
    }

    @Test func errors() throws {
        let document = try PDFDocument(path: Fixture.path("damaged-page.pdf"))
        let damaged = try #require(throws: PDFError.self) { try document.textBlocks(page: 1) }
        #expect(damaged.kind == .damaged)
        #expect(damaged.message.contains("image width is zero"))
        // Skipped garbage still leaves the text before it.
        #expect(try !document.textBlocks(page: 2).isEmpty)
        for index in [-1, 3] {
            let error = try #require(throws: PDFError.self) { try document.textBlocks(page: index) }
            #expect(error.kind == .pageOutOfRange)
        }
    }
}
