import Testing

@testable import LecternCore

@Suite("Spreads and page binding")
struct SpreadsTests {
    func ranges(_ spreads: Spreads) -> [[Int]] {
        (0..<spreads.spreadCount).map { Array(spreads.pageRange(forSpread: $0)) }
    }

    @Test func singleMode() {
        let spreads = Spreads(pageCount: 3, mode: .single)
        #expect(ranges(spreads) == [[0], [1], [2]])
    }

    @Test func doubleModeOddAndEven() {
        #expect(ranges(Spreads(pageCount: 4, mode: .double)) == [[0, 1], [2, 3]])
        #expect(ranges(Spreads(pageCount: 5, mode: .double)) == [[0, 1], [2, 3], [4]])
    }

    @Test func coverModeWithOddPageCount() {
        let spreads = Spreads(pageCount: 5, mode: .cover)
        #expect(ranges(spreads) == [[0], [1, 2], [3, 4]])
        #expect(spreads.spreadIndex(forPage: 0) == 0)
        #expect(spreads.spreadIndex(forPage: 2) == 1)
        #expect(spreads.spreadIndex(forPage: 3) == 2)
    }

    @Test func coverModeWithEvenPageCount() {
        let spreads = Spreads(pageCount: 4, mode: .cover)
        #expect(ranges(spreads) == [[0], [1, 2], [3]], "the last spread holds one page")
        #expect(spreads.spreadIndex(forPage: 3) == 2)
        #expect(ranges(Spreads(pageCount: 1, mode: .cover)) == [[0]])
        #expect(ranges(Spreads(pageCount: 2, mode: .cover)) == [[0], [1]])
        #expect(Spreads(pageCount: 0, mode: .cover).spreadCount == 0)
    }

    @Test func rightEdgeBindingFlipsPagesInsideSpreads() {
        let rtl = Spreads(pageCount: 5, mode: .cover, binding: .rightEdge)
        #expect(rtl.displayOrder(ofSpread: 0) == [0])
        #expect(rtl.displayOrder(ofSpread: 1) == [2, 1])
        #expect(rtl.displayOrder(ofSpread: 2) == [4, 3])
        #expect(rtl.displayOrder(ofSpreads: 0..<3) == [2, 1, 0], "thumbnail strips flip too")
        let unknown = Spreads(pageCount: 4, mode: .double, binding: .unknown)
        #expect(unknown.displayOrder(ofSpread: 1) == [2, 3], "unknown binding behaves as left edge")
    }

    @Test func bindingFromViewerPreferences() {
        #expect(PageBinding(pdfDirection: "R2L") == .rightEdge)
        #expect(PageBinding(pdfDirection: "L2R") == .leftEdge)
        #expect(PageBinding(pdfDirection: nil) == .unknown)
    }

    @Test func mixedPagesShareHeightAndCentre() {
        // A landscape page (rotated portrait) beside a small portrait page.
        let pages = PageTable([page(400, 300), page(200, 400, rotation: 90), page(100, 200)])
        let spreads = Spreads(pageCount: 3, mode: .cover)
        let geometry = spreads.geometry(ofSpread: 1, pages: pages)
        // Page 1 displays 400 × 200, page 2 100 × 200: same height, no scaling needed.
        #expect(geometry.size == Size(width: 500, height: 200))
        #expect(geometry.slots.map(\.page) == [1, 2])
        #expect(geometry.slots[1].frame == Rect(x: 400, y: 0, width: 100, height: 200))
        #expect(geometry.slots.allSatisfy { $0.frame.midY == 100 })

        let other = Spreads(pageCount: 3, mode: .double).geometry(ofSpread: 0, pages: pages)
        // Page 0 is 400 × 300, page 1 displays 400 × 200 → scaled by 1.5 to 600 × 300.
        #expect(other.size == Size(width: 1000, height: 300))
        #expect(other.slots[1].scale == 1.5)
        #expect(spreads.size(ofSpread: 1, pages: pages) == geometry.size)
    }

    @Test func rightEdgeBindingFlipsVerticalDoubleSpreadsToo() throws {
        let config = ViewConfiguration(
            spreadMode: .double, pageBinding: .rightEdge, scrollMode: .continuous, scrollDirection: .vertical)
        let view = DocumentView(
            pages: PageTable([page(100, 100), page(100, 100)]), configuration: config,
            viewportSize: Size(width: 400, height: 400))
        #expect(viewFrame(of: 1, in: view).minX < viewFrame(of: 0, in: view).minX, "page 1 is shown left of page 0")
    }
}
