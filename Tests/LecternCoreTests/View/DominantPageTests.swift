import Testing

@testable import LecternCore

/// The dominant page is the page covering the most of the viewport; the page the reader
/// navigated to stays dominant until the view moves.
@Suite("Dominant page")
struct DominantPageTests {
    /// US-letter portrait (1553.0 px tall at 1200 px wide), landscape (925.8 px) and a
    /// 2000 × 100 banner (60 px) in a 1200 × 800 continuous vertical view, 10 px apart.
    func view(_ pages: [PageGeometry], config: ViewConfiguration = ViewConfiguration(spacing: 10)) -> DocumentView {
        DocumentView(pages: PageTable(pages), configuration: config, viewportSize: Size(width: 1200, height: 800))
    }

    let portraitHeight = 1200.0 * 792 / 612

    @Test func thePageCoveringMoreOfTheScreenWinsOverAShorterPageShowingMoreOfItself() throws {
        var v = view([page(612, 792), page(792, 612), page(612, 792)])
        // Page 0 shows its bottom 450 px (29 % of it), page 1 its top 340 px (37 % of it).
        v.setContentOffset(Point(x: 0, y: portraitHeight - 450))
        let visible = v.visibleLayout().flatMap(\.pages)
        #expect(visible.map(\.page) == [0, 1])
        #expect(abs(visible[0].visibleRect.height - 450) < 1e-6 && abs(visible[1].visibleRect.height - 340) < 1e-6)
        #expect(v.dominantPage() == 0, "450 px of the screen beat 340 px")
        #expect(v.viewState().pageIndex == 0)
    }

    @Test func aSmallPageFullyVisibleAtTheEdgeDoesNotBeatThePageFillingTheScreen() throws {
        var v = view([page(612, 792), page(612, 792), page(2000, 100), page(612, 792)])
        // Page 1 fills 730 px, the 60 px banner below it is entirely on screen.
        let bannerBottom = 2 * portraitHeight + 20 + 60
        v.setContentOffset(Point(x: 0, y: bannerBottom - 800))
        #expect(visiblePages(v) == [1, 2])
        #expect(v.dominantPage() == 1)
    }

    @Test func goingToAPageThenCapturingGivesThatPageEvenWhenTheEndOfTheDocumentIsClamped() throws {
        // Going to the banner cannot scroll it to the top: it ends the document, so the view
        // is clamped and shows 730 px of page 3 above the 60 px banner.
        var v = view([page(612, 792), page(612, 792), page(612, 792), page(612, 792), page(2000, 100)])
        try v.goToPage(4)
        #expect(v.contentOffset.y == v.documentOffsetBounds().upper.y, "clamped at the end")
        #expect(visiblePages(v) == [3, 4])
        #expect(v.viewState() == ViewState(pageIndex: 4))
        var restored = view([page(612, 792), page(612, 792), page(612, 792), page(612, 792), page(2000, 100)])
        try restored.restore(v.viewState())
        #expect(restored.contentOffset == v.contentOffset && restored.viewState() == ViewState(pageIndex: 4))
        // Once the reader scrolls, the page covering the most of the screen wins again.
        v.scroll(by: Point(x: 0, y: -1))
        #expect(v.dominantPage() == 3)
        // An animated page turn ends on the page it turned to; half way it is not there yet.
        let clock = ManualClock()
        try v.goToPage(0)
        try v.goToPage(4, animated: true, at: clock.now)
        clock.advance(by: 0.15)
        v.advanceAnimations(clock: clock)
        #expect(v.dominantPage() != 4)
        clock.advance(by: 1)
        v.advanceAnimations(clock: clock)
        #expect(v.viewState() == ViewState(pageIndex: 4))
    }

    @Test func goingToTheNarrowerPageOfASpreadThenCapturingGivesThatPage() throws {
        // Double spread: a portrait page beside a landscape one (scaled to the same height).
        let pages = [page(612, 792), page(792, 612), page(612, 792), page(612, 792)]
        var v = view(
            pages, config: ViewConfiguration(spreadMode: .double, scrollMode: .perSpread, scrollDirection: .horizontal))
        try v.goToPage(0)
        #expect(v.viewState() == ViewState(pageIndex: 0))
        try v.goToPage(1)
        #expect(v.viewState() == ViewState(pageIndex: 1))
        // Paged back to the spread without navigating to a page: the wider page wins.
        let clock = ManualClock()
        try v.goToPage(2)
        v.beginDrag()
        v.drag(translation: Point(x: 300, y: 0))
        v.endDrag(velocity: Point(x: 1000, y: 0), at: clock.now)
        clock.advance(by: 1)
        v.advanceAnimations(clock: clock)
        #expect(v.currentSpread == 0)
        #expect(v.dominantPage() == 1, "the landscape page covers more of the screen")
    }

    @Test func equalPagesOfASpreadTieToTheFirstInReadingOrder() throws {
        let pages = (0..<6).map { _ in page(612, 792) }
        for binding in [PageBinding.leftEdge, .rightEdge] {
            var v = view(
                pages, config: ViewConfiguration(spreadMode: .double, pageBinding: binding, scrollMode: .perSpread))
            try v.goToPage(3)
            #expect(v.dominantPage() == 3)
            // Back on spread 0 by scrolling, not by navigating: its two pages cover the same area.
            v.setContentOffset(v.restingOffset(forSpread: 0))
            let shown = v.visibleLayout().flatMap(\.pages)
            #expect(shown.count == 2 && abs(shown[0].visibleRect.area - shown[1].visibleRect.area) < 1e-6)
            #expect(v.dominantPage() == 0, "\(binding): a tie goes to the first page in reading order")
        }
    }

    @Test func refiningEstimatesKeepsTheNavigatedPageDominant() throws {
        var v = DocumentView(
            pages: PageTable(count: 20, estimate: page(612, 792)), configuration: ViewConfiguration(spacing: 10),
            viewportSize: Size(width: 1200, height: 800))
        try v.goToPage(9)
        try v.updatePageGeometries((0..<9).map { ($0, page(792, 612)) })
        #expect(v.viewState() == ViewState(pageIndex: 9))
        #expect(abs(viewFrame(of: 9, in: v).minY) < 1e-6, "page 9 stays at the top of the screen")
    }
}
