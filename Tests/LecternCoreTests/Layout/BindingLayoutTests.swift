import Testing

@testable import LecternCore

/// Cover mode and right-edge binding as laid out on screen, not only as index arithmetic.
@Suite("Cover mode and binding on screen")
struct BindingLayoutTests {
    func view(
        pageCount: Int, _ config: ViewConfiguration, size: Size = Size(width: 1200, height: 800)
    )
        -> DocumentView
    {
        DocumentView(
            pages: PageTable((0..<pageCount).map { _ in page(612, 792) }), configuration: config, viewportSize: size)
    }

    /// The pages on screen from left to right.
    func onScreen(_ view: DocumentView) -> [Int] {
        view.visibleLayout().flatMap(\.pages).sorted { $0.frame.minX < $1.frame.minX }.map(\.page)
    }

    @Test(arguments: [PageBinding.leftEdge, .rightEdge])
    func coverModeWithAnOddPageCount(binding: PageBinding) throws {
        var v = view(
            pageCount: 5,
            ViewConfiguration(
                spreadMode: .cover, pageBinding: binding, scrollMode: .perSpread, scrollDirection: .horizontal))
        #expect(v.layout.spreadCount == 3)
        let rtl = binding == .rightEdge
        let expected: [[Int]] = rtl ? [[0], [2, 1], [4, 3]] : [[0], [1, 2], [3, 4]]
        for (spread, pages) in expected.enumerated() {
            try v.goToPage(v.spreads.pageRange(forSpread: spread).lowerBound)
            #expect(v.currentSpread == spread)
            #expect(onScreen(v) == pages, "spread \(spread)")
        }
        // The cover is alone and centred in its cell.
        try v.goToPage(0)
        let cover = viewFrame(of: 0, in: v)
        #expect(abs(cover.midX - 600) < 1e-9 && abs(cover.height - 800) < 1e-9)
        // Under right-edge binding the first cell is the rightmost one.
        let firstCell = v.zoomCell(forSpread: 0), lastCell = v.zoomCell(forSpread: 2)
        #expect(rtl ? firstCell.minX > lastCell.minX : firstCell.minX < lastCell.minX)
        #expect(rtl ? firstCell.maxX == v.layout.contentSize.width : firstCell.minX == 0)
    }

    @Test(arguments: [PageBinding.leftEdge, .rightEdge])
    func coverModeWithAnEvenPageCountEndsOnASinglePage(binding: PageBinding) throws {
        var v = view(
            pageCount: 6,
            ViewConfiguration(
                spreadMode: .cover, pageBinding: binding, scrollMode: .perSpread, scrollDirection: .horizontal))
        #expect(v.layout.spreadCount == 4)
        try v.goToPage(5)
        #expect(v.currentSpread == 3 && onScreen(v) == [5])
        #expect(abs(viewFrame(of: 5, in: v).midX - 600) < 1e-9, "the last page is alone and centred")
        try v.goToPage(4)
        #expect(onScreen(v) == (binding == .rightEdge ? [4, 3] : [3, 4]))
        // The two pages of a spread touch at the binding and share height and centre.
        let left = viewFrame(of: onScreen(v)[0], in: v), right = viewFrame(of: onScreen(v)[1], in: v)
        #expect(abs(left.maxX - right.minX) < 1e-9 && left.height == right.height && left.midY == right.midY)
    }

    @Test func rightEdgeBindingRunsAContinuousHorizontalDoubleLayoutRightToLeft() {
        let v = view(
            pageCount: 7,
            ViewConfiguration(
                spreadMode: .double, pageBinding: .rightEdge, scrollDirection: .horizontal, spacing: 0),
            size: Size(width: 4000, height: 200))
        // Everything fits: the pages read right to left, also inside each spread.
        #expect(v.contentOffset.x == v.documentOffsetBounds().upper.x, "the document opens at its right end")
        #expect(onScreen(v) == [6, 5, 4, 3, 2, 1, 0])
        var ltr = v
        ltr.setConfiguration(
            ViewConfiguration(spreadMode: .double, pageBinding: .leftEdge, scrollDirection: .horizontal, spacing: 0))
        #expect(onScreen(ltr) == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test func rightEdgeBindingFlipsVerticalDoubleAndCoverSpreadsButNotTheirOrder() throws {
        for mode in [SpreadMode.double, .cover] {
            let v = view(
                pageCount: 5,
                ViewConfiguration(spreadMode: mode, pageBinding: .rightEdge, scrollDirection: .vertical, spacing: 0),
                size: Size(width: 400, height: 2000))
            let rows = v.visibleLayout().map { $0.pages.map(\.page) }
            let expected: [[Int]] = mode == .double ? [[1, 0], [3, 2], [4]] : [[0], [2, 1], [4, 3]]
            #expect(rows == expected, "\(mode): spreads still run top to bottom, pages inside flip")
            for row in rows where row.count == 2 {
                #expect(viewFrame(of: row[0], in: v).maxX <= viewFrame(of: row[1], in: v).minX + 1e-9)
            }
        }
    }

    @Test func thumbnailOrderFlipsUnderRightEdgeBinding() {
        for binding in PageBinding.allCases {
            let spreads = Spreads(pageCount: 6, mode: .cover, binding: binding)
            // A thumbnail strip of spreads, each showing its pages left to right.
            let strip = spreads.displayOrder(ofSpreads: 0..<spreads.spreadCount).flatMap {
                spreads.displayOrder(ofSpread: $0)
            }
            #expect(strip == (binding == .rightEdge ? [5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5]), "\(binding)")
            // A grid row of page thumbnails.
            #expect(binding.displayOrder([0, 1, 2]) == (binding == .rightEdge ? [2, 1, 0] : [0, 1, 2]))
        }
    }
}
