import Testing

@testable import LecternCore

/// `DocumentView.pageCurl()`: which spread lifts, which lies beneath, how far (issue 16, item 6).
@Suite("Page curl layout")
struct PageCurlLayoutTests {
    func view(
        _ transition: ViewConfiguration.PageTransition, binding: PageBinding = .leftEdge, spreads: SpreadMode = .single
    ) -> DocumentView {
        DocumentView(
            pages: PageTable((0..<6).map { _ in page(612, 792) }),
            configuration: ViewConfiguration(
                spreadMode: spreads, pageBinding: binding, scrollMode: .perSpread, scrollDirection: .horizontal,
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
        #expect(curl.leaf == nil, "a single page folds away: no leaf turns")
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

    @Test(arguments: [PageBinding.leftEdge, .rightEdge])
    func doubleSpreadsTurnALeafHeldWhereTheTurnBegan(binding: PageBinding) throws {
        var v = view(.curl, binding: binding, spreads: .double)
        let forward = binding.isRightToLeft ? 1.0 : -1.0
        v.beginDrag()
        v.drag(translation: Point(x: 300 * forward, y: 0))
        var curl = try #require(v.pageCurl())
        #expect(curl.leaf == PageCurl.Leaf(front: 1, back: 2, turnsBack: false), "from 1|2 the leaf 2/3 lifts")
        v.drag(translation: Point(x: 900 * forward, y: 0))
        #expect(v.pageCurl()?.leaf?.turnsBack == false, "past half way it is still held where it lifted")
        v.endDrag(velocity: .zero, at: 0)
        v.finishPageTurn()
        #expect(v.currentSpread == 1 && v.pageCurl() == nil)

        // From 3|4 back: the same leaf, held by its back.
        v.beginDrag()
        v.drag(translation: Point(x: -200 * forward, y: 0))
        curl = try #require(v.pageCurl())
        #expect(curl.leaf == PageCurl.Leaf(front: 1, back: 2, turnsBack: true) && curl.top.spread == 0)
        // Let go early: it falls back down the way it lifted.
        v.endDrag(velocity: .zero, at: 0)
        _ = v.advanceAnimations(to: 0.05)
        #expect(v.pageCurl()?.leaf?.turnsBack == true, "falling back onto 3|4")
        v.finishPageTurn()

        // A tap's turn back, and one forward, from rest.
        v.showPreviousSpread(at: 1)
        _ = v.advanceAnimations(to: 1.05)
        #expect(v.pageCurl()?.leaf?.turnsBack == true)
        v.finishPageTurn()
        v.showNextSpread(at: 2)
        _ = v.advanceAnimations(to: 2.05)
        #expect(v.pageCurl()?.leaf == PageCurl.Leaf(front: 1, back: 2, turnsBack: false))
    }

    @Test func coverSpreadsTurnTheLonePagesAsLeaves() throws {
        var v = view(.curl, spreads: .cover)
        #expect(v.layout.spreadCount == 4, "1, 2|3, 4|5, 6")
        v.setContentOffset(v.restingOffset(forSpread: 1) * 0.25)
        #expect(v.pageCurl()?.leaf == PageCurl.Leaf(front: 0, back: 1, turnsBack: false), "the cover, 2 on its back")
        v.setContentOffset(v.restingOffset(forSpread: 3))
        v.setContentOffset(v.restingOffset(forSpread: 3) - Point(x: 10, y: 0))
        #expect(
            v.pageCurl()?.leaf == PageCurl.Leaf(front: 4, back: 5, turnsBack: true),
            "from the last page back: 5 on the front of the leaf, 6 on its back")
    }
}
