import Testing

@testable import LecternCore

/// Real page sizes arriving for pages opened with estimates must not move what is on screen.
@Suite("Refining estimated page sizes")
struct RefinementTests {
    /// 200 US-letter estimates, 1200 × 800, continuous vertical, 10 px apart.
    func estimatedView(_ config: ViewConfiguration = ViewConfiguration(spacing: 10)) -> DocumentView {
        DocumentView(
            pages: PageTable(count: 200, estimate: page(612, 792)), configuration: config,
            viewportSize: Size(width: 1200, height: 800))
    }

    /// Landscape sizes for `pages`: each of them gets 627 px shorter at 1200 px wide.
    func landscape(_ pages: Range<Int>) -> [(page: Int, geometry: PageGeometry)] {
        pages.map { ($0, page(792, 612)) }
    }

    @Test func anOutOfRangeUpdateChangesNothing() throws {
        var v = estimatedView()
        try v.goToPage(50)
        let offset = v.contentOffset
        #expect(throws: DocumentViewError.pageOutOfRange(page: 200, pageCount: 200)) {
            try v.updatePageGeometries([(3, page(792, 612)), (200, page(792, 612))])
        }
        #expect(!v.pages.isKnown(3), "the valid update before the bad one was not applied either")
        #expect(v.contentOffset == offset)
        let fresh = DocumentView(pages: v.pages, configuration: v.configuration, viewportSize: v.viewportSize)
        #expect(fresh.layout.frame(forSpread: 60) == v.layout.frame(forSpread: 60), "the layout matches the pages")
    }

    @Test(arguments: [1.0, 3.0])
    func pagesBeforeTheDominantOneDoNotMoveItEvenZoomedIn(zoom: Double) throws {
        var v = estimatedView()
        try v.goToPage(50)
        v.zoom(to: zoom, about: Point(x: 700, y: 300))
        v.scroll(by: Point(x: 0, y: 250))
        let dominant = v.dominantPage()
        let before = viewFrame(of: dominant, in: v)
        try v.updatePageGeometries(landscape(0..<dominant))
        #expect(v.dominantPage() == dominant)
        #expect(cornerDistance(viewFrame(of: dominant, in: v), before) < 1e-6)
        let state = v.viewState()
        #expect((state.viewport != nil) == (zoom > 1))
    }

    @Test func pagesBeforeTheDominantOneDoNotMoveItRightToLeft() throws {
        var v = estimatedView(ViewConfiguration(pageBinding: .rightEdge, scrollDirection: .horizontal, spacing: 10))
        try v.goToPage(50)
        v.scroll(by: Point(x: -300, y: 0))
        let dominant = v.dominantPage()
        let before = viewFrame(of: dominant, in: v)
        try v.updatePageGeometries((0..<dominant).map { ($0, page(300, 792)) })
        #expect(cornerDistance(viewFrame(of: dominant, in: v), before) < 1e-6)
    }

    /// Flings the view from page 50 and returns it after `frames` frames, with the sizes of
    /// pages 0..<40 arriving after the third frame when `refine` is set.
    func fling(refine: Bool, frames: Int) throws -> (view: DocumentView, page: Int) {
        var v = estimatedView()
        try v.goToPage(50)
        let clock = ManualClock()
        v.beginDrag()
        v.endDrag(velocity: Point(x: 0, y: -3000), at: clock.now)
        for frame in 0..<frames {
            clock.advance(by: 1.0 / 60)
            v.advanceAnimations(clock: clock)
            if refine && frame == 2 { try v.updatePageGeometries(landscape(0..<40)) }
        }
        #expect(v.isAnimating)
        return (v, 50)
    }

    @Test func aFlingCarriesOnSmoothlyWhenSizesArrive() throws {
        let (plain, page) = try fling(refine: false, frames: 10)
        let (refined, _) = try fling(refine: true, frames: 10)
        // Page 50 follows exactly the same path on screen, as if nothing had happened.
        #expect(cornerDistance(viewFrame(of: page, in: plain), viewFrame(of: page, in: refined)) < 1e-6)
    }

    @Test func aDragCarriesOnSmoothlyWhenSizesArrive() throws {
        var v = estimatedView()
        try v.goToPage(50)
        v.beginDrag()
        v.drag(translation: Point(x: 0, y: -100))
        let before = viewFrame(of: 50, in: v)
        try v.updatePageGeometries(landscape(0..<40))
        v.drag(translation: Point(x: 0, y: -110))
        let after = viewFrame(of: 50, in: v)
        #expect(abs(after.minY - (before.minY - 10)) < 1e-6, "the page follows the finger by 10 px, no jump")
        v.endDrag(velocity: .zero, at: 0)
    }

    @Test func aPinchKeepsItsFocalPointWhenSizesArrive() throws {
        var v = estimatedView()
        try v.goToPage(50)
        let focal = Point(x: 600, y: 400)
        let under = v.convert(focal, from: .view, to: .page(50))
        v.beginPinch(focal: focal)
        v.pinch(scale: 1.5, focal: focal)
        try v.updatePageGeometries(landscape(0..<40))
        v.pinch(scale: 2, focal: focal)
        #expect(v.convert(under, from: .page(50), to: .view).distance(to: focal) < 1e-6)
        v.endPinch()
    }

    @Test func aPageTurnInFlightStillEndsOnItsPage() throws {
        var v = estimatedView()
        try v.goToPage(40)
        let clock = ManualClock()
        try v.goToPage(45, animated: true, at: clock.now)
        clock.advance(by: 0.1)
        v.advanceAnimations(clock: clock)
        let dominant = v.dominantPage()
        let before = viewFrame(of: dominant, in: v)
        // Sizes arrive for pages before the one on screen and between it and the target.
        try v.updatePageGeometries(landscape(0..<44))
        let origin = viewFrame(of: dominant, in: v).origin
        #expect(origin.distance(to: before.origin) < 1e-6, "nothing moves when they arrive")
        clock.advance(by: 0.01)
        v.advanceAnimations(clock: clock)
        let step = viewFrame(of: dominant, in: v).minY - before.minY
        #expect(step < 0 && step > -600, "the next frame carries on from there (moved \(step) px)")
        clock.advance(by: 1)
        v.advanceAnimations(clock: clock)
        #expect(!v.isAnimating)
        #expect(abs(viewFrame(of: 45, in: v).minY) < 1e-6, "page 45 ends at the top of the screen")
        #expect(v.viewState() == ViewState(pageIndex: 45))
    }
}
