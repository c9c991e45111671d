import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Moving and resizing the annotations whose /Rect MuPDF derives from their points (Ink, Line,
/// Polygon, PolyLine, text markup), with real MuPDF on copies of Tests/Fixtures/annotations-geometry.pdf.
@Suite struct AnnotationMoveTests {
    static var geometryPDF: String { Fixture.path("annotations-geometry.pdf") }

    /// Whether every edge of `a` lies within `tolerance` points of the same edge of `b`.
    static func edges(of a: Rect, near b: Rect, within tolerance: Double) -> Bool {
        abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
            && abs(a.maxX - b.maxX) <= tolerance && abs(a.maxY - b.maxY) <= tolerance
    }

    static func offset(_ rect: Rect, _ dx: Double, _ dy: Double) -> Rect {
        Rect(x: rect.minX + dx, y: rect.minY + dy, width: rect.size.width, height: rect.size.height)
    }

    static func annotation(_ document: PDFDocument, _ subtype: String) throws -> PDFAnnotation {
        try AnnotationEditTests.annotation(document) { $0.subtype == subtype }
    }

    /// The /Rect MuPDF computes for the annotation where it is: "moved" onto its own /Rect, which
    /// maps every point onto itself.
    static func recomputedRect(_ subtype: String) throws -> Rect {
        let document = try PDFDocument(path: geometryPDF)
        let original = try annotation(document, subtype)
        try document.setAnnotationRect(original.rect, objectNumber: original.objectNumber, page: 0)
        return try annotation(document, subtype).rect
    }

    @Test func movingInkAndAHighlightMovesTheirPointsThroughASaveAndTheirPixels() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("geometry.pdf").path
        try FileManager.default.copyItem(atPath: Self.geometryPDF, toPath: source)
        let document = try PDFDocument(path: source)
        let ink = try Self.annotation(document, "Ink")
        let highlight = try Self.annotation(document, "Highlight")
        // Ink (100 500 200 600) by (+200, -350); the highlight (100 300 300 320) by (+50, +400).
        try document.setAnnotationRect(Self.offset(ink.rect, 200, -350), objectNumber: ink.objectNumber, page: 0)
        try document.setAnnotationRect(
            Self.offset(highlight.rect, 50, 400), objectNumber: highlight.objectNumber, page: 0)
        let copy = directory.appendingPathComponent("moved.pdf").path
        try document.saveIncrementally(to: copy)

        let reopened = try PDFDocument(path: copy)
        #expect(!reopened.wasRepaired)
        let movedInk = try Self.annotation(reopened, "Ink")
        let movedHighlight = try Self.annotation(reopened, "Highlight")
        // MuPDF recomputes /Rect from the moved points: the rect it computes for them where they
        // were, moved by the delta.
        #expect(
            Self.edges(of: movedInk.rect, near: Self.offset(try Self.recomputedRect("Ink"), 200, -350), within: 0.01))
        #expect(
            Self.edges(
                of: movedHighlight.rect, near: Self.offset(try Self.recomputedRect("Highlight"), 50, 400),
                within: 0.01))
        #expect(movedInk.objectNumber == ink.objectNumber)

        // The stroke is drawn in the new place (user 300 150 400 250: device y 542-642) and no
        // longer in the old one (user 100 500 200 600: device y 192-292).
        let shown = try Bitmap.renderPage(reopened, page: 0, scale: 1)
        let oldInk = PixelBox(x: 96, y: 188, width: 108, height: 108)
        let newInk = PixelBox(x: 296, y: 538, width: 108, height: 108)
        #expect(shown.darkPixels(in: newInk) > 200)
        #expect(shown.darkPixels(in: oldInk) == 0)
        // The highlight's yellow too (user 100 300 300 320 → 150 700 350 720).
        let oldHighlight = PixelBox(x: 90, y: 466, width: 220, height: 32)
        let newHighlight = PixelBox(x: 140, y: 66, width: 220, height: 32)
        #expect(shown.yellowPixels(in: newHighlight) > 3000)
        #expect(shown.yellowPixels(in: oldHighlight) == 0)
    }

    /// How far MuPDF's recomputed /Rect may lie from the requested one, per subtype, measured on
    /// this resize (MuPDF 1.21). The points are mapped from /Rect as written, then MuPDF pads their
    /// bounds for the stroke: a polygon, a line by 1 point; an underline by 2.5; a highlight's
    /// rounded ends by 9.4 sideways at 40 points high; the ink's /Rect has 10 points of margin around
    /// its points, doubled to 20 vertically by the resize, less the 4-point stroke's padding: 16 in.
    static let resizeTolerance: [String: Double] = [
        "Ink": 17, "Highlight": 10, "Underline": 3, "Line": 2, "Polygon": 2, "PolyLine": 2,
    ]

    @Test func resizingEverySubtypeWithPointsFitsTheRequestedRectAndOthersAreRefused() throws {
        let document = try PDFDocument(path: Self.geometryPDF)
        for (subtype, tolerance) in Self.resizeTolerance {
            let original = try Self.annotation(document, subtype)
            // Half as wide, twice as tall, 20 points right and 30 down.
            let requested = Rect(
                x: original.rect.minX + 20, y: original.rect.minY - 30, width: original.rect.size.width / 2,
                height: original.rect.size.height * 2)
            try document.setAnnotationRect(requested, objectNumber: original.objectNumber, page: 0)
            let got = try Self.annotation(document, subtype).rect
            #expect(Self.edges(of: got, near: requested, within: tolerance), "\(subtype): \(got) for \(requested)")
        }
        // A watermark has neither a rect MuPDF 1.21 sets nor points: refused, and nothing changes.
        let fresh = try PDFDocument(path: Self.geometryPDF)
        let watermark = try Self.annotation(fresh, "Watermark")
        #expect(throws: PDFError.self) {
            try fresh.setAnnotationRect(
                Rect(x: 10, y: 10, width: 50, height: 50), objectNumber: watermark.objectNumber, page: 0)
        }
        // A polygon whose points lie 100 points outside its 1-point rect: stretching the rect
        // 900,000 times would throw them 90,000,000 points out. Refused, and nothing changes.
        let stray = try AnnotationEditTests.annotation(fresh) { $0.subtype == "Polygon" && $0.rect.minX == 500 }
        #expect(throws: PDFError.self) {
            try fresh.setAnnotationRect(
                Rect(x: 0, y: 0, width: 900_000, height: 900_000), objectNumber: stray.objectNumber, page: 0)
        }
        #expect(!fresh.hasUnsavedChanges)
        #expect(try fresh.annotations(page: 0) == PDFDocument(path: Self.geometryPDF).annotations(page: 0))
    }
}

extension Bitmap {
    /// Pixels in `rect` that are yellow: red and green above 200, blue below 100.
    func yellowPixels(in rect: PixelBox) -> Int {
        var count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let (b, g, r, _) = pixel(x, y)
                if r > 200 && g > 200 && b < 100 { count += 1 }
            }
        }
        return count
    }
}
