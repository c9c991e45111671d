import LecternCore
import Testing

@testable import LecternPDF

/// Page count and geometry of the fixtures, against the sizes make-fixtures writes.
@Suite struct PageInfoTests {
    @Test func pageCount() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        #expect(document.pageCount == 3)
        #expect(document.path == Fixture.text3Pages)
    }

    @Test func portraitA4() throws {
        let info = try PDFDocument(path: Fixture.text3Pages).pageInfo(at: 0)
        #expect(info.index == 0)
        #expect(info.mediaBox == Rect(corner: Point(x: 0, y: 0), corner: Point(x: 595, y: 842)))
        #expect(info.cropBox == info.mediaBox)
        #expect(info.rotation == 0)
        #expect(info.displaySize == Size(width: 595, height: 842))
        #expect(info.label == nil)
    }

    @Test func landscape() throws {
        let info = try PDFDocument(path: Fixture.text3Pages).pageInfo(at: 1)
        #expect(info.mediaBox == Rect(corner: Point(x: 0, y: 0), corner: Point(x: 842, y: 595)))
        #expect(info.rotation == 0)
        #expect(info.displaySize == Size(width: 842, height: 595))
    }

    @Test func rotatedPageSwapsItsDisplaySize() throws {
        let info = try PDFDocument(path: Fixture.text3Pages).pageInfo(at: 2)
        #expect(info.mediaBox == Rect(corner: Point(x: 0, y: 0), corner: Point(x: 595, y: 842)))
        #expect(info.rotation == 90)
        #expect(info.displaySize == Size(width: 842, height: 595))
    }

    @Test func cropBoxAndRightToLeft() throws {
        let document = try PDFDocument(path: Fixture.path("rtl.pdf"))
        #expect(document.isRightToLeft)
        let info = try document.pageInfo(at: 0)
        #expect(info.cropBox == Rect(corner: Point(x: 50, y: 50), corner: Point(x: 545, y: 792)))
        #expect(info.mediaBox == Rect(corner: Point(x: 0, y: 0), corner: Point(x: 595, y: 842)))
        #expect(info.displaySize == Size(width: 495, height: 742))
    }

    @Test func leftToRightByDefault() throws {
        #expect(try !PDFDocument(path: Fixture.text3Pages).isRightToLeft)
    }

    @Test(arguments: [-1, 3, 1000])
    func pageOutOfRange(index: Int) throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let error = try #require(throws: PDFError.self) { try document.pageInfo(at: index) }
        #expect(error.kind == .pageOutOfRange)
        #expect(error.message == "\(Fixture.text3Pages) has 3 pages; there is no page \(index + 1)")
    }

    @Test func fitScale() throws {
        let info = try PDFDocument(path: Fixture.text3Pages).pageInfo(at: 0)
        let scale = info.fitScale(width: 1280, height: 720)
        #expect(abs(scale - 720.0 / 842.0) < 1e-9)
        let size = info.pixelSize(scale: scale)
        #expect(size.height == 720)
        #expect(size.width == 509)
    }
}
