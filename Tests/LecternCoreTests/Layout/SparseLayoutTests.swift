import PropertyBased
import Testing

@testable import LecternCore

/// Issue 10: a page tree may claim 1,410,065,407 pages. Laying such a document out must cost
/// what a short one costs: the layouts store only the spreads whose size differs from the
/// uniform one, and answer every question arithmetically in between.
@Suite("Layouts of documents that claim billions of pages")
struct SparseLayoutTests {
    static let claimed = 1_410_065_407
    static let viewport = Size(width: 1280, height: 720)

    static let configurations: [ViewConfiguration] = [
        ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical, spacing: 8),
        ViewConfiguration(spreadMode: .double, scrollMode: .continuous, scrollDirection: .horizontal, spacing: 8),
        ViewConfiguration(spreadMode: .cover, scrollMode: .perSpread, scrollDirection: .horizontal, spacing: 20),
        ViewConfiguration(
            spreadMode: .double, pageBinding: .rightEdge, scrollMode: .perSpread, scrollDirection: .vertical,
            spacing: 20),
        ViewConfiguration(
            spreadMode: .cover, pageBinding: .rightEdge, scrollMode: .continuous, scrollDirection: .horizontal,
            spacing: 8, contentInsets: EdgeInsets(all: 12)),
    ]

    static func stack(_ layout: any DocumentViewLayout) -> StackViewLayout {
        if let layout = layout as? ContinuousScrollingLayout { return layout.stack }
        return (layout as! ScrollPerSpreadLayout).stack
    }

    @Test("1,410,065,407 estimated pages open, and every page is found where it should be", arguments: configurations)
    func billionsOfPagesOpenAndAnswer(configuration: ViewConfiguration) throws {
        var view = DocumentView(
            pages: PageTable(count: Self.claimed, estimate: page(612, 792)), configuration: configuration,
            viewportSize: Self.viewport)
        #expect(view.pages.count == Self.claimed)
        #expect(view.dominantPage() == 0)
        for target in [Self.claimed - 1, 705_032_703, 1, 0, 1_000_000_001] {
            try view.goToPage(target)
            #expect(view.dominantPage() == target, "page \(target)")
            let shown = visiblePages(view)
            #expect(shown.contains(target), "page \(target) is on screen: \(shown)")
            // Offsets and fractional spread indices convert both ways. Mirrored (right-to-left)
            // offsets count from the far end, about 1e12 px away: rounding there is 1e-4 px.
            let spread = Double(view.spreads.spreadIndex(forPage: target)) + 0.25
            let offset = view.layout.contentOffset(forContinuousSpreadIndex: spread)
            #expect(abs(view.layout.continuousSpreadIndex(forContentOffset: offset) - spread) < 1e-6)
        }
        // Scrolling on from the last page goes nowhere: it is the end of the content.
        try view.goToPage(Self.claimed - 1)
        let forward = view.layout.scrollAxis == .horizontal && configuration.pageBinding == .rightEdge ? -5000.0 : 5000
        view.scroll(by: Point(x: forward, y: forward))
        #expect(visiblePages(view).contains(Self.claimed - 1))
    }

    @Test("the layout stores the spreads that differ, not one per page", arguments: configurations)
    func storageGrowsWithExceptionsNotPages(configuration: ViewConfiguration) throws {
        var view = DocumentView(
            pages: PageTable(count: Self.claimed, estimate: page(612, 792)), configuration: configuration,
            viewportSize: Self.viewport)
        // At most the first and the last spread hold fewer pages than the others.
        #expect(Self.stack(view.layout).storedSpreadCount <= 2)
        try view.updatePageGeometries([
            (5, page(792, 612)), (900_000_000, page(300, 900)), (Self.claimed - 3, page(1, 2)),
        ])
        #expect(Self.stack(view.layout).storedSpreadCount <= 5)
        // A page measured to the estimated size again costs nothing.
        try view.updatePageGeometries([(5, page(612, 792))])
        #expect(Self.stack(view.layout).storedSpreadCount <= 4)
    }

    @Test("pages of other sizes among a billion estimated ones sit where their neighbours make room")
    func mixedSizesInABillionPages() throws {
        let spacing = 8.0
        let configuration = ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical, spacing: spacing)
        var view = DocumentView(
            pages: PageTable(count: Self.claimed, estimate: page(612, 792)), configuration: configuration,
            viewportSize: Self.viewport)
        let odd = [7, 705_032_703, Self.claimed - 1]
        try view.updatePageGeometries(odd.map { ($0, page(792, 612)) })
        let layout = view.layout
        let width = Self.viewport.width
        let portrait = width * 792 / 612, landscape = width * 612 / 792
        for p in odd + [0, 6, 8, 705_032_702, 705_032_704, Self.claimed - 2] {
            let frame = layout.frame(forSpread: p)
            let below = odd.filter { $0 < p }.count
            let expectedY = Double(p - below) * (portrait + spacing) + Double(below) * (landscape + spacing)
            #expect(
                abs(frame.minY - expectedY) <= 1e-9 * expectedY + 1e-6, "page \(p) at \(frame.minY), not \(expectedY)")
            #expect(close(frame.height, odd.contains(p) ? landscape : portrait, 1e-12), "page \(p)")
            #expect(frame.width == width)
        }
        let total = Double(Self.claimed - 3) * (portrait + spacing) + 3 * (landscape + spacing) - spacing
        #expect(close(layout.contentSize.height, total, 1e-12))
        try view.goToPage(705_032_703)
        #expect(view.dominantPage() == 705_032_703)
        let frame = viewFrame(of: 705_032_703, in: view)
        #expect(abs(frame.minY) < 1e-3 && close(frame.height, landscape, 1e-9), "\(frame)")
    }

    @Test("a layout of a few exceptions among uniform pages matches one laid out spread by spread")
    func sparseLayoutMatchesBruteForce() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 1...120), Generators.page.array(of: 0...6), Gen.double(in: 0...1).array(of: 6),
            zip(Gen<SpreadMode>.case, Gen<PageBinding>.case, Gen.element(of: LayoutKind.allCases)),
            zip(Gen.int(in: 0...30), Generators.insets, Generators.viewport), Gen.double(in: -0.1...1.1).array(of: 4)
        ) { count, odd, where_, modes, space, f in
            let (spreadMode, binding, kind) = modes
            let configuration = ViewConfiguration(
                spreadMode: spreadMode, pageBinding: binding, scrollMode: kind!.scrollMode,
                scrollDirection: kind!.axis, spacing: Double(space.0), contentInsets: space.1)
            var pages = PageTable(count: count, estimate: page(612, 792))
            for (geometry, at) in zip(odd, where_) {
                try pages.setGeometry(geometry, forPage: Int(at * Double(count - 1)))
            }
            let view = DocumentView(pages: pages, configuration: configuration, viewportSize: space.2)
            let layout = view.layout
            let n = layout.spreadCount
            #expect(Self.stack(layout).storedSpreadCount <= odd.count + 2)

            // Brute force: every spread has its own natural aspect ratio; continuous spreads
            // fill the cross axis and follow each other `spacing` apart from the leading inset;
            // paged spreads sit centred in viewport-sized cells.
            let axis = layout.scrollAxis
            let mirrored = axis == .horizontal && binding == .rightEdge
            var main = space.1.leading(along: axis)
            let stride = space.2.extent(along: axis) + Double(space.0)
            for s in 0..<n {
                let frame = layout.frame(forSpread: s)
                let ratio = view.spreads.size(ofSpread: s, pages: pages).aspectRatio
                #expect(close(frame.width / frame.height, ratio, 1e-9), "spread \(s) of \(n)")
                let lead: Double
                if mirrored {
                    lead = layout.contentSize.width - frame.maxX
                } else {
                    lead = frame.minimum(along: axis)
                }
                if kind!.scrollMode == .continuous {
                    #expect(abs(lead - main) <= 1e-6 * max(1, main), "spread \(s) starts at \(lead), not \(main)")
                    main = lead + frame.size.extent(along: axis) + Double(space.0)
                } else {
                    let cell = Double(s) * stride
                    let centre = mirrored ? layout.contentSize.width - frame.midX : frame.center.coordinate(along: axis)
                    #expect(abs(centre - (cell + space.2.extent(along: axis) / 2)) <= 1e-6 * max(1, cell))
                }
            }
            if kind!.scrollMode == .continuous {
                let end = main - Double(space.0) + space.1.trailing(along: axis)
                #expect(abs(layout.contentSize.extent(along: axis) - end) <= 1e-6 * max(1, end))
            }

            // Visible spreads are exactly those whose frames meet the rect.
            let size = layout.contentSize
            let rect = Rect(
                x: min(f[0], f[1]) * size.width, y: min(f[2], f[3]) * size.height,
                width: abs(f[1] - f[0]) * size.width, height: abs(f[3] - f[2]) * size.height)
            let expected = (0..<n).filter { layout.frame(forSpread: $0).intersects(rect) }
            #expect(layout.visibleSpreads(in: rect) == expected, "rect \(rect)")

            // Offsets and fractional indices convert both ways.
            let index = f[0].magnitude.truncatingRemainder(dividingBy: 1) * Double(n)
            let back = layout.continuousSpreadIndex(
                forContentOffset: layout.contentOffset(forContinuousSpreadIndex: index))
            #expect(close(back, index, 1e-9))

            // Measuring the pages one by one, in any order, ends where a fresh layout starts.
            var refined = DocumentView(
                pages: PageTable(count: count, estimate: page(612, 792)), configuration: configuration,
                viewportSize: space.2)
            for p in pages.recordedPages.reversed() { try refined.updatePageGeometry(pages[p], forPage: p) }
            for s in 0..<n {
                #expect(cornerDistance(refined.layout.frame(forSpread: s), layout.frame(forSpread: s)) < 1e-6)
            }
        }
    }
}

extension Point {
    fileprivate func coordinate(along axis: Axis) -> Double { axis == .vertical ? y : x }
}
