import Testing

@testable import LecternCore

@Suite("Geometry and transforms")
struct GeometryTests {
    @Test func rectIntersectionNeedsPositiveArea() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersects(Rect(x: 9, y: 9, width: 5, height: 5)))
        #expect(!a.intersects(Rect(x: 10, y: 0, width: 5, height: 5)), "touching edges do not intersect")
        #expect(!a.intersects(Rect(x: 5, y: 5, width: 0, height: 3)), "an empty rect intersects nothing")
        #expect(a.intersection(Rect(x: 5, y: -5, width: 10, height: 10)) == Rect(x: 5, y: 0, width: 5, height: 5))
    }

    @Test func aspectFitCentresContent() {
        let cell = Rect(x: 100, y: 0, width: 400, height: 200)
        #expect(cell.aspectFit(Size(width: 1, height: 1)) == Rect(x: 200, y: 0, width: 200, height: 200))
        #expect(cell.aspectFit(Size(width: 4, height: 1)) == Rect(x: 100, y: 50, width: 400, height: 100))
    }

    @Test func transformsConcatenateInApplicationOrder() {
        let t = AffineTransform.scale(2).concatenating(.translation(x: 10, y: 0))
        #expect(t.apply(to: Point(x: 1, y: 1)) == Point(x: 12, y: 2))
        let u = AffineTransform.translation(x: 10, y: 0).concatenating(.scale(2))
        #expect(u.apply(to: Point(x: 1, y: 1)) == Point(x: 22, y: 2))
    }

    @Test func inverseUndoesTransform() throws {
        let t = AffineTransform.rotation(quarterTurns: 1)
            .concatenating(.scale(x: 3, y: 0.5))
            .concatenating(.translation(x: -7, y: 11))
        let inverse = try #require(t.inverted())
        let p = Point(x: 12.5, y: -3.25)
        let q = inverse.apply(to: t.apply(to: p))
        #expect(p.distance(to: q) < 1e-12)
        #expect(AffineTransform.scale(x: 0, y: 1).inverted() == nil)
    }

    @Test func quarterTurnsAreExact() {
        let p = Point(x: 3, y: 5)
        #expect(AffineTransform.rotation(quarterTurns: 1).apply(to: p) == Point(x: -5, y: 3))
        #expect(AffineTransform.rotation(quarterTurns: 2).apply(to: p) == Point(x: -3, y: -5))
        #expect(AffineTransform.rotation(quarterTurns: -1).apply(to: p) == Point(x: 5, y: -3))
    }

    @Test func exponentialMatchesKnownValues() {
        #expect(exponential(0) == 1)
        #expect(abs(exponential(1) - 2.718_281_828_459_045) < 1e-15)
        #expect(abs(exponential(-2) - 0.135_335_283_236_612_7) < 1e-16)
        #expect(abs(exponential(10) / 22026.465_794_806_718 - 1) < 1e-15)
        #expect(exponential(-800) == 0)
        #expect(exponential(800) == .infinity)
    }
}

@Suite("Page geometry")
struct PageGeometryTests {
    /// Where the crop box's corners land in display space, for a 200 × 100 crop box at (10, 20).
    @Test(arguments: [0, 90, 180, 270])
    func rotationMapsCornersToDisplay(rotation: Int) throws {
        let page = try PageGeometry(
            mediaBox: Rect(x: 0, y: 0, width: 300, height: 300),
            cropBox: Rect(x: 10, y: 20, width: 200, height: 100), rotation: rotation)
        let topLeft = Point(x: 10, y: 120)  // PDF: y up, so the top edge is at maxY
        let topRight = Point(x: 210, y: 120)
        let bottomLeft = Point(x: 10, y: 20)
        let display = page.displaySize
        switch rotation {
        case 0:
            #expect(display == Size(width: 200, height: 100))
            #expect(page.displayPoint(fromPage: topLeft) == Point(x: 0, y: 0))
            #expect(page.displayPoint(fromPage: bottomLeft) == Point(x: 0, y: 100))
        case 90:
            // Turned clockwise: the top-left corner moves to the top-right.
            #expect(display == Size(width: 100, height: 200))
            #expect(page.displayPoint(fromPage: topLeft) == Point(x: 100, y: 0))
            #expect(page.displayPoint(fromPage: topRight) == Point(x: 100, y: 200))
        case 180:
            #expect(page.displayPoint(fromPage: topLeft) == Point(x: 200, y: 100))
            #expect(page.displayPoint(fromPage: bottomLeft) == Point(x: 200, y: 0))
        default:
            #expect(display == Size(width: 100, height: 200))
            #expect(page.displayPoint(fromPage: topLeft) == Point(x: 0, y: 200))
            #expect(page.displayPoint(fromPage: bottomLeft) == Point(x: 100, y: 200))
        }
        let p = Point(x: 47, y: 83)
        #expect(page.pagePoint(fromDisplay: page.displayPoint(fromPage: p)).distance(to: p) < 1e-12)
    }

    @Test func negativeAndLargeRotationsNormalise() throws {
        #expect(try PageGeometry(size: Size(width: 1, height: 2), rotation: -90).rotation == 270)
        #expect(try PageGeometry(size: Size(width: 1, height: 2), rotation: 450).rotation == 90)
    }

    @Test func malformedPagesThrowTypedErrors() {
        #expect(throws: DocumentViewError.invalidRotation(45)) {
            try PageGeometry(size: Size(width: 100, height: 100), rotation: 45)
        }
        #expect(throws: DocumentViewError.self) {
            try PageGeometry(size: Size(width: 0, height: 100))
        }
        let message = DocumentViewError.pageOutOfRange(page: 12, pageCount: 10).description
        #expect(message.contains("12") && message.contains("10 pages"))
    }

    @Test func cropBoxIsClippedToMediaBox() throws {
        let page = try PageGeometry(
            mediaBox: Rect(x: 0, y: 0, width: 100, height: 100), cropBox: Rect(x: 50, y: -20, width: 100, height: 100))
        #expect(page.cropBox == Rect(x: 50, y: 0, width: 50, height: 80))
    }

    @Test func estimatedTableAnswersUntilToldOtherwise() throws {
        var table = PageTable(count: 15_000, estimate: page(612, 792))
        #expect(!table.isKnown(14_999))
        #expect(table[14_999].displaySize == Size(width: 612, height: 792))
        #expect(try table.setGeometry(page(842, 595), forPage: 14_999))
        #expect(table.isKnown(14_999))
        #expect(table[14_999].displaySize == Size(width: 842, height: 595))
        #expect(throws: DocumentViewError.pageOutOfRange(page: 15_000, pageCount: 15_000)) {
            try table.setGeometry(page(1, 1), forPage: 15_000)
        }
    }
}
