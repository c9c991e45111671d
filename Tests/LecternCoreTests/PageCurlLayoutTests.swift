import Testing

@testable import LecternCore

/// `DocumentView.pageCurl()`: which spread lifts, which lies beneath, how far (issue 16, item 6).
@Suite("Page curl layout")
struct PageCurlLayoutTests {
    func view(_ transition: ViewConfiguration.PageTransition, binding: PageBinding = .leftEdge) -> DocumentView {
        DocumentView(
            pages: PageTable((0..<6).map { _ in page(612, 792) }),
            configuration: ViewConfiguration(
                pageBinding: binding, scrollMode: .perSpread, scrollDirection: .horizontal,
                pageTransition: transition),
            viewportSize: Size(width: 1200, height: 800))
    }

    @Test func betweenTwoSpreadsBothRestWhileTheEarlierOneTurns() throws {
        var v = view(.curl)
        #expect(v.pageCurl() == nil, "at rest nothing curls")
        let resting = try #require(v.restingLayout(ofSpread: 0))
        v.beginDrag()
        v.drag(translation: Point(x: -300, y: 0))
        let curl = try #require(v.pageCurl())
        #expect(curl.top.spread == 0 && curl.under.spread == 1)
        #expect(abs(curl.progress - 0.25) < 1e-9, "300 of 1200 px: \(curl.progress)")
        #expect(!curl.liftsFromLeft)
        #expect(curl.top == resting, "the lifting spread stays where it rested")
        let (a, b) = (curl.under.frame, resting.frame)
        #expect(
            abs(a.minX - b.minX) < 1e-6 && abs(a.maxX - b.maxX) < 1e-6 && abs(a.minY - b.minY) < 1e-6
                && abs(a.maxY - b.maxY) < 1e-6, "the next one lies beneath: \(a) \(b)")
        v.drag(translation: Point(x: 300, y: 0))
        #expect(v.pageCurl() == nil, "dragged back to rest")
        #expect(view(.scroll).pageCurl() == nil, "a slide never curls")
    }

    @Test func rightEdgeBindingLiftsFromTheLeft() throws {
        var v = view(.curl, binding: .rightEdge)
        v.beginDrag()
        v.drag(translation: Point(x: 600, y: 0))
        let curl = try #require(v.pageCurl())
        #expect(curl.top.spread == 0 && curl.under.spread == 1 && curl.liftsFromLeft)
        #expect(abs(curl.progress - 0.5) < 1e-9)
    }

    @Test func aZoomedSpreadSlides() throws {
        var v = view(.curl)
        v.zoom(to: 2, about: Point(x: 600, y: 400))
        v.setContentOffset(Point(x: 300, y: 0))
        #expect(v.pageCurl() == nil)
    }

    @Test func finishingAPageTurnLandsOnTheNextSpread() throws {
        var v = view(.curl)
        v.showNextSpread(at: 0)
        #expect(v.isAnimating)
        v.finishPageTurn()
        #expect(!v.isAnimating && v.currentSpread == 1 && v.pageCurl() == nil)
    }
}
