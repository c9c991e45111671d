import Testing

@testable import LecternCore

@Suite("Scrolling, zooming and animation")
struct ScrollZoomTests {
    /// Ten 100 × 200 pages in a 400 × 300 viewport: each page is 400 × 800, no gaps.
    func continuousView(pages: Int = 10) -> DocumentView {
        DocumentView(
            pages: PageTable((0..<pages).map { _ in page(100, 200) }),
            configuration: ViewConfiguration(spacing: 0), viewportSize: Size(width: 400, height: 300))
    }

    func pagedView(binding: PageBinding = .leftEdge) -> DocumentView {
        DocumentView(
            pages: PageTable((0..<4).map { _ in page(100, 100) }),
            configuration: ViewConfiguration(
                pageBinding: binding, scrollMode: .perSpread, scrollDirection: .horizontal, spacing: 20),
            viewportSize: Size(width: 400, height: 300))
    }

    @Test func scrollingStopsAtTheBounds() {
        var view = continuousView()
        view.scroll(by: Point(x: 50, y: -100))
        #expect(view.contentOffset == .zero)
        view.scroll(by: Point(x: 0, y: 100_000))
        #expect(view.contentOffset == Point(x: 0, y: 8000 - 300))
    }

    @Test func draggingPastTheStartRubberBandsAndSpringsBack() {
        var view = continuousView()
        let clock = ManualClock()
        view.beginDrag()
        view.drag(translation: Point(x: 0, y: 100))
        let first = view.contentOffset.y
        #expect(first < 0 && first > -100, "the content follows the finger, with resistance")
        view.drag(translation: Point(x: 0, y: 1000))
        let second = view.contentOffset.y
        #expect(second < first && second > -300, "the overshoot never exceeds the viewport")
        #expect(second - first > -(1000 - 100) / 2)
        view.endDrag(velocity: .zero, at: clock.now)
        #expect(view.isAnimating)
        clock.advance(by: 0.1)
        view.advanceAnimations(clock: clock)
        #expect(view.contentOffset.y > second && view.contentOffset.y < 0)
        clock.advance(by: 1)
        let stillRunning = view.advanceAnimations(clock: clock)
        #expect(!stillRunning)
        #expect(view.contentOffset.y == 0)
    }

    @Test func flingDeceleratesAndStops() {
        var view = continuousView(pages: 50)
        try? view.goToPage(10)
        let start = view.contentOffset.y
        let clock = ManualClock(start: 5)
        view.beginDrag()
        view.endDrag(velocity: Point(x: 0, y: -2000), at: clock.now)
        var previous = start
        var steps: [Double] = []
        while view.isAnimating {
            clock.advance(by: 1.0 / 60)
            view.advanceAnimations(clock: clock)
            steps.append(view.contentOffset.y - previous)
            previous = view.contentOffset.y
            if steps.count > 10_000 { break }
        }
        #expect(steps.count > 60 && steps.count < 600)
        #expect(steps.first! > 30 && steps.first! < 2000.0 / 60 + 1, "the first frame moves at the release speed")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.1 <= $0.0 + 1e-9 }, "it only slows down")
        // v/k minus what is left when it stops at 20 px/s: (2000 − 20) / 2.
        #expect(abs(view.contentOffset.y - start - 990) < 2)
    }

    @Test func flingStopsAtTheEnd() {
        var view = continuousView()
        view.scroll(by: Point(x: 0, y: 7500))
        let clock = ManualClock()
        view.beginDrag()
        view.endDrag(velocity: Point(x: 0, y: -5000), at: clock.now)
        for _ in 0..<30 {
            clock.advance(by: 1.0 / 60)
            view.advanceAnimations(clock: clock)
        }
        #expect(view.contentOffset.y == 7700)
        #expect(!view.isAnimating)
    }

    @Test func pagingSnapsToTheNearestSpreadOrTheNextOneWhenFlicked() {
        var view = pagedView()
        let clock = ManualClock()
        view.beginDrag()
        view.drag(translation: Point(x: -100, y: 40))
        #expect(view.contentOffset == Point(x: 100, y: 0), "paging moves along the scroll axis only")
        view.endDrag(velocity: .zero, at: clock.now)
        clock.advance(by: 1)
        view.advanceAnimations(clock: clock)
        #expect(view.contentOffset.x == 0, "a slow short drag snaps back")

        view.beginDrag()
        view.drag(translation: Point(x: -100, y: 0))
        view.endDrag(velocity: Point(x: -1000, y: 0), at: clock.now)
        clock.advance(by: 1)
        view.advanceAnimations(clock: clock)
        #expect(view.contentOffset.x == 420 && view.currentSpread == 1, "a flick turns the page")

        view.beginDrag()
        view.drag(translation: Point(x: -1000, y: 0))
        view.endDrag(velocity: Point(x: -5000, y: 0), at: clock.now)
        clock.advance(by: 1)
        view.advanceAnimations(clock: clock)
        #expect(view.currentSpread == 2, "at most one spread per flick")
    }

    @Test func pagingRunsRightToLeftUnderRightEdgeBinding() {
        var view = pagedView(binding: .rightEdge)
        #expect(view.contentOffset.x == 3 * 420, "spread 0 is the rightmost cell")
        let clock = ManualClock()
        view.beginDrag()
        view.drag(translation: Point(x: 100, y: 0))
        view.endDrag(velocity: Point(x: 1000, y: 0), at: clock.now)
        clock.advance(by: 1)
        view.advanceAnimations(clock: clock)
        #expect(view.currentSpread == 1 && view.contentOffset.x == 2 * 420, "swiping right turns forward")
    }

    @Test func zoomKeepsTheFocalPointAndRespectsLimits() {
        var view = continuousView()
        let focal = Point(x: 100, y: 200)
        let before = view.convert(focal, from: .view, to: .page(0))
        view.zoom(to: 3, about: focal)
        #expect(view.zoomScale == 3)
        let after = view.convert(before, from: .page(0), to: .view)
        #expect(after.distance(to: focal) < 1e-9, "the content under the fingers stays there")
        view.zoom(to: 100, about: focal)
        #expect(view.zoomScale == 8)
        view.zoom(to: 0.1, about: focal)
        #expect(view.zoomScale == 1)
        #expect(view.contentOffset.x == 0, "at zoom 1 the width fits again")
    }

    @Test func pinchFollowsTheFingers() {
        var view = continuousView()
        view.beginPinch(focal: Point(x: 200, y: 150))
        let anchor = view.convert(Point(x: 200, y: 150), from: .view, to: .content)
        view.pinch(scale: 2, focal: Point(x: 220, y: 160))
        view.endPinch()
        #expect(view.zoomScale == 2)
        #expect(view.convert(anchor, from: .content, to: .view).distance(to: Point(x: 220, y: 160)) < 1e-9)
    }

    @Test func spreadBasedZoomKeepsEachSpreadsOwnZoom() throws {
        var view = pagedView()
        view.zoom(to: 2.5, about: Point(x: 200, y: 150))
        #expect(view.currentZoomScale == 2.5 && view.zoomScale == 1)
        #expect(view.activeScrollTarget == .spread(0))
        try view.goToPage(1)
        #expect(view.currentSpread == 1 && view.currentZoomScale == 1)
        view.zoom(to: 1.5, about: Point(x: 200, y: 150))
        view.setContentOffset(view.restingOffset(forSpread: 0))
        #expect(view.currentZoomScale == 2.5, "spread 0 kept its zoom")
        #expect(view.spreadZooms[1]?.scale == 1.5)
        // Panning while zoomed moves inside the spread, not to the next one.
        view.scroll(by: Point(x: 50, y: 0))
        #expect(view.contentOffset.x == 0 && view.currentSpread == 0)
    }

    @Test func aZoomedSpreadPansToItsEdgeThenPages() {
        var view = pagedView()
        let clock = ManualClock()
        view.zoom(to: 2, about: Point(x: 200, y: 150))
        let inner = view.spreadZooms[0]!.offset
        let edge = view.spreadOffsetBounds(spread: 0, scale: 2).upper.x
        view.beginDrag()
        view.drag(translation: Point(x: -(edge - inner.x) + 1, y: 0))
        #expect(view.contentOffset.x == 0, "inside the spread the pan moves only the zoomed spread")
        view.drag(translation: Point(x: -(edge - inner.x) - 150, y: 0))
        #expect(view.spreadZooms[0]!.offset.x == edge)
        #expect(view.contentOffset.x == 150, "past the spread's edge the pan pages")
        view.endDrag(velocity: Point(x: -800, y: 0), at: clock.now)
        clock.advance(by: 1)
        view.advanceAnimations(clock: clock)
        #expect(view.currentSpread == 1 && view.contentOffset.x == 420)
        #expect(view.spreadZooms[0]?.scale == 2, "the spread left behind keeps its zoom")
    }

    @Test func animatedPageTurnIsDrivenByTheClock() throws {
        var view = continuousView()
        let clock = ManualClock(start: 100)
        try view.goToPage(3, animated: true, at: clock.now)
        #expect(view.contentOffset.y == 0, "nothing moves before the clock does")
        clock.advance(by: DocumentView.pageTurnDuration / 2)
        view.advanceAnimations(clock: clock)
        #expect(view.contentOffset.y > 0 && view.contentOffset.y < 2400)
        #expect(abs(view.contentOffset.y - 2100) < 1e-6, "easeOut is 7/8 of the way at half time")
        clock.advance(by: DocumentView.pageTurnDuration / 2)
        let stillRunning = view.advanceAnimations(clock: clock)
        #expect(!stillRunning)
        #expect(view.contentOffset.y == 2400 && view.dominantPage() == 3)
    }

    @Test func zoomToRectFillsTheViewport() {
        var view = continuousView()
        let clock = ManualClock()
        let target = Rect(x: 100, y: 1000, width: 100, height: 50)
        view.zoom(toRect: target, animated: true, at: clock.now)
        clock.advance(by: 0.5)
        view.advanceAnimations(clock: clock)
        #expect(view.zoomScale == 4)
        let shown = view.convert(target, from: .content, to: .view)
        #expect(cornerDistance(shown, Rect(x: 0, y: 50, width: 400, height: 200)) < 1e-9)
    }

    @Test func rubberBandFormula() {
        #expect(DocumentView.rubberBand(50, lower: 0, upper: 100, dimension: 300) == 50)
        let pulled = DocumentView.rubberBand(-300, lower: 0, upper: 100, dimension: 300)
        #expect(abs(pulled - -(1 - 1 / 1.55) * 300) < 1e-9)
        #expect(DocumentView.rubberBand(1e9, lower: 0, upper: 100, dimension: 300) < 400)
    }
}
