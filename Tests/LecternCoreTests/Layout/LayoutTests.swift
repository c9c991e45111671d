import Testing

@testable import LecternCore

@Suite("Layouts")
struct LayoutTests {
    func context(
        _ pages: [PageGeometry], mode: SpreadMode = .single, binding: PageBinding = .leftEdge, viewport: Size
    ) -> LayoutContext {
        LayoutContext(
            viewportSize: viewport, spreads: Spreads(pageCount: pages.count, mode: mode, binding: binding),
            pages: PageTable(pages))
    }

    @Test func continuousVerticalFitsWidthWithSpacingAndInsets() {
        var layout = ContinuousScrollingLayout(
            axis: .vertical, interitemSpacing: 10, contentInsets: EdgeInsets(top: 20, left: 50, bottom: 30, right: 50))
        layout.prepare(
            context([page(100, 200), page(200, 100), page(100, 100)], viewport: Size(width: 500, height: 300)))
        // Content width 400 → heights 800, 200, 400.
        #expect(layout.frame(forSpread: 0) == Rect(x: 50, y: 20, width: 400, height: 800))
        #expect(layout.frame(forSpread: 1) == Rect(x: 50, y: 830, width: 400, height: 200))
        #expect(layout.frame(forSpread: 2) == Rect(x: 50, y: 1040, width: 400, height: 400))
        #expect(layout.contentSize == Size(width: 500, height: 1470))
        #expect(layout.visibleSpreads(in: Rect(x: 0, y: 819, width: 500, height: 12)) == [0, 1])
        #expect(layout.visibleSpreads(in: Rect(x: 0, y: 820, width: 500, height: 10)) == [], "the gap shows no spread")
        #expect(layout.continuousSpreadIndex(forContentOffset: Point(x: 0, y: 830)) == 1)
        #expect(layout.continuousSpreadIndex(forContentOffset: Point(x: 0, y: 935)) == 1.5)
        #expect(layout.contentOffset(forContinuousSpreadIndex: 2) == Point(x: 0, y: 1040))
        #expect(!layout.spreadBasedZooming && !layout.isPagingEnabled)

        var view = DocumentView(
            pages: PageTable([page(100, 200), page(200, 100), page(100, 100)]),
            configuration: ViewConfiguration(
                spacing: 10, contentInsets: EdgeInsets(top: 20, left: 50, bottom: 30, right: 50)),
            viewportSize: Size(width: 500, height: 300))
        #expect(view.contentOffset == .zero, "the document opens showing its top inset")
        try? view.goToPage(1)
        #expect(view.contentOffset == Point(x: 0, y: 830), "other pages rest at the top of the viewport")
    }

    @Test func continuousHorizontalRunsRightToLeftUnderRightEdgeBinding() {
        var layout = ContinuousScrollingLayout(axis: .horizontal, interitemSpacing: 0)
        layout.prepare(
            context([page(100, 100), page(200, 100)], binding: .rightEdge, viewport: Size(width: 300, height: 100)))
        #expect(layout.contentSize == Size(width: 300, height: 100))
        #expect(
            layout.frame(forSpread: 0) == Rect(x: 200, y: 0, width: 100, height: 100), "the first spread is rightmost")
        #expect(layout.frame(forSpread: 1) == Rect(x: 0, y: 0, width: 200, height: 100))
        #expect(layout.continuousSpreadIndex(forContentOffset: Point(x: 0, y: 0)) == 0, "the start is at the right end")
    }

    @Test func scrollPerSpreadAspectFitsEachSpreadInAViewportCell() {
        var layout = ScrollPerSpreadLayout(axis: .horizontal, spacing: 20, contentInsets: EdgeInsets(all: 10))
        layout.prepare(
            context([page(100, 100), page(300, 100), page(100, 400)], viewport: Size(width: 400, height: 300)))
        #expect(layout.contentSize == Size(width: 3 * 400 + 2 * 20, height: 300))
        #expect(layout.cell(forSpread: 1) == Rect(x: 420, y: 0, width: 400, height: 300))
        #expect(layout.frame(forSpread: 0) == Rect(x: 60, y: 10, width: 280, height: 280))
        let wide = layout.frame(forSpread: 1)
        #expect(wide.minX == 430 && wide.width == 380, "fit to the cell's width less the insets")
        #expect(abs(wide.height - 380.0 / 3) < 1e-9 && abs(wide.midY - 150) < 1e-9, "centred vertically")
        #expect(layout.frame(forSpread: 2).height == 280)
        #expect(layout.scrollViewFrameInsets == EdgeInsets(left: -10, right: -10))
        #expect(layout.contentOffset(forContinuousSpreadIndex: 2) == Point(x: 840, y: 0))
        #expect(layout.continuousSpreadIndex(forContentOffset: Point(x: 630, y: 0)) == 1.5)
        #expect(layout.visibleSpreads(in: Rect(x: 400, y: 0, width: 20, height: 300)) == [], "the gap between cells")
        #expect(layout.spreadBasedZooming && layout.isPagingEnabled)
    }

    @Test func mixedLandscapeAndPortraitDocument() {
        // Portrait, landscape, portrait rotated to landscape, landscape rotated to portrait.
        let pages = [page(600, 800), page(800, 600), page(600, 800, rotation: 90), page(800, 600, rotation: 270)]
        var layout = ContinuousScrollingLayout(axis: .vertical, interitemSpacing: 0)
        layout.prepare(context(pages, viewport: Size(width: 600, height: 1000)))
        #expect(layout.frame(forSpread: 0).height == 800)
        #expect(layout.frame(forSpread: 1).height == 450)
        #expect(layout.frame(forSpread: 2).height == 450)
        #expect(layout.frame(forSpread: 3).height == 800)
        #expect(layout.visibleSpreads(in: Rect(x: 0, y: 0, width: 600, height: 1000)) == [0, 1])

        var doubled = ContinuousScrollingLayout(axis: .vertical, interitemSpacing: 0)
        doubled.prepare(context(pages, mode: .double, viewport: Size(width: 600, height: 1000)))
        // Spread 0: 600×800 beside 800×600 scaled to 800 high (1066.67 wide) → 1666.67 × 800.
        let frame = doubled.frame(forSpread: 0)
        #expect(abs(frame.height - 600 * 800 / (600 + 800 * 800 / 600)) < 1e-9)

        let view = DocumentView(
            pages: PageTable(pages), configuration: ViewConfiguration(spreadMode: .double, spacing: 0),
            viewportSize: Size(width: 600, height: 1000))
        let a = viewFrame(of: 0, in: view), b = viewFrame(of: 1, in: view)
        #expect(
            abs(a.height - b.height) < 1e-9 && abs(a.midY - b.midY) < 1e-9, "pages of a spread share height and centre")
        #expect(a.maxX == b.minX)
    }

    @Test func fifteenThousandPagesOpenWithEstimatesAndQueryInLogTime() {
        var view = DocumentView(
            pages: PageTable(count: 15_000, estimate: page(612, 792)), viewportSize: Size(width: 1920, height: 1080))
        #expect(view.layout.spreadCount == 15_000)
        try? view.goToPage(14_000)
        #expect(view.visibleLayout().first?.pages.first?.page == 14_000)
        #expect(view.dominantPage() == 14_000)
    }

    @Test func derivedLayoutFollowsConfigurationAndCustomLayoutIsNeverTouched() {
        var view = DocumentView(
            pages: PageTable([page(100, 100), page(100, 100), page(100, 100)]),
            viewportSize: Size(width: 300, height: 300))
        #expect(view.layout is ContinuousScrollingLayout && !view.isCustomLayout)
        var config = view.configuration
        config.scrollMode = .perSpread
        config.scrollDirection = .horizontal
        view.setConfiguration(config)
        #expect(view.layout is ScrollPerSpreadLayout, "a derived layout follows the configuration")

        let custom = ContinuousScrollingLayout(axis: .horizontal, interitemSpacing: 33)
        view.setCustomLayout(custom)
        config.scrollMode = .continuous
        config.scrollDirection = .vertical
        config.spacing = 1
        config.spreadMode = .double
        view.setConfiguration(config)
        let kept = view.layout as? ContinuousScrollingLayout
        #expect(kept?.scrollAxis == .horizontal && kept?.interitemSpacing == 33, "a custom layout is never replaced")
        #expect(view.layout.spreadCount == 2, "but it is laid out for the new spreads")
        view.useDerivedLayout()
        #expect(view.layout.scrollAxis == .vertical && !view.isCustomLayout)
    }

    /// A custom layout: spreads in a diagonal line, using the protocol's default scan.
    struct DiagonalLayout: DocumentViewLayout {
        var spreads = Spreads(pageCount: 0, mode: .single)
        var scrollAxis: Axis { .vertical }
        var contentSize: Size {
            Size(width: Double(spreads.spreadCount) * 100, height: Double(spreads.spreadCount) * 100)
        }
        mutating func prepare(_ context: LayoutContext) { spreads = context.spreads }
        func frame(forSpread spread: Int) -> Rect {
            Rect(x: Double(spread) * 100, y: Double(spread) * 100, width: 100, height: 100)
        }
        func continuousSpreadIndex(forContentOffset offset: Point) -> Double { offset.y / 100 }
        func contentOffset(forContinuousSpreadIndex index: Double) -> Point { Point(x: 0, y: index * 100) }
    }

    @Test func customLayoutsConformToTheProtocol() {
        var view = DocumentView(
            pages: PageTable((0..<5).map { _ in page(100, 100) }), viewportSize: Size(width: 250, height: 250))
        view.setCustomLayout(DiagonalLayout())
        #expect(view.layout.visibleSpreads(in: Rect(x: 150, y: 150, width: 100, height: 100)) == [1, 2])
        #expect(viewFrame(of: 2, in: view) == Rect(x: 200, y: 200, width: 100, height: 100))
        #expect(
            !view.layout.isPagingEnabled && !view.layout.spreadBasedZooming
                && view.layout.scrollViewFrameInsets == .zero)
        view.scroll(by: Point(x: 0, y: 120))
        #expect(
            view.layout.visibleSpreads(in: Rect(x: 0, y: 120, width: 250, height: 250)).contains(view.currentSpread))
    }
}
