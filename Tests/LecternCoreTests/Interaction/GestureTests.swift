import Testing

@testable import LecternCore

/// Gestures under spread-based zooming, exact rubber-banding and zoom limits during a pinch.
@Suite("Gestures")
struct GestureTests {
    /// Four 100 × 100 pages, one per 400 × 300 cell (each shown 300 × 300 at x 50), 20 px apart.
    func pagedView(axis: Axis = .horizontal) -> DocumentView {
        DocumentView(
            pages: PageTable((0..<4).map { _ in page(100, 100) }),
            configuration: ViewConfiguration(scrollMode: .perSpread, scrollDirection: axis, spacing: 20),
            viewportSize: Size(width: 400, height: 300))
    }

    /// Ten 100 × 200 pages, 400 × 800 each in a 400 × 300 viewport, no gaps.
    func continuousView() -> DocumentView {
        DocumentView(
            pages: PageTable((0..<10).map { _ in page(100, 200) }),
            configuration: ViewConfiguration(spacing: 0), viewportSize: Size(width: 400, height: 300))
    }

    @Test func aPinchOnASpreadKeepsThePointUnderTheFingers() throws {
        var v = pagedView()
        try v.goToPage(2)
        let start = Point(x: 150, y: 100)
        let underFingers = v.convert(start, from: .view, to: .page(2))
        v.beginPinch(focal: start)
        // Scales at which the zoomed spread is larger than the viewport, so nothing clamps.
        for (scale, focal) in [(1.5, Point(x: 140, y: 104)), (2.0, Point(x: 160, y: 110)), (2.6, Point(x: 170, y: 90))]
        {
            v.pinch(scale: scale, focal: focal)
            #expect(abs(v.currentZoomScale - scale) < 1e-12 && v.zoomScale == 1, "the spread zooms, not the document")
            let there = v.convert(underFingers, from: .page(2), to: .view)
            #expect(there.distance(to: focal) < 0.5, "at \(scale): \(there) vs \(focal)")
        }
        #expect(v.contentOffset == v.restingOffset(forSpread: 2), "a pinch never pages")
        v.pinch(scale: 100, focal: start)
        #expect(v.currentZoomScale == 8, "the maximum holds during a pinch")
        v.pinch(scale: 0.01, focal: start)
        #expect(v.currentZoomScale == 1 && v.spreadZooms[2] == nil, "and the minimum")
        v.endPinch()
    }

    @Test func documentPinchRespectsTheLimits() {
        var v = continuousView()
        v.beginPinch(focal: Point(x: 200, y: 150))
        v.pinch(scale: 20, focal: Point(x: 200, y: 150))
        #expect(v.zoomScale == 8)
        v.pinch(scale: 0.5, focal: Point(x: 200, y: 150))
        #expect(v.zoomScale == 1)
        v.endPinch()
    }

    @Test func zoomToRectOnASpreadFillsTheViewport() throws {
        var v = pagedView()
        try v.goToPage(1)
        let clock = ManualClock()
        // The middle quarter of page 1's displayed frame, in content space.
        let frame = v.frame(forPage: 1)
        let target = Rect(x: frame.midX - 75, y: frame.midY - 75, width: 150, height: 150)
        v.zoom(toRect: target, animated: true, at: clock.now)
        #expect(v.currentZoomScale == 1, "nothing happens before the clock moves")
        clock.advance(by: 0.15)
        v.advanceAnimations(clock: clock)
        #expect(v.currentZoomScale > 1 && v.currentZoomScale < 2)
        clock.advance(by: 1)
        v.advanceAnimations(clock: clock)
        #expect(v.currentZoomScale == 2 && v.currentSpread == 1)
        let shown = v.transform(from: .spread(1), to: .view).apply(
            to: v.transform(from: .content, to: .spread(1)).apply(to: target))
        #expect(cornerDistance(shown, Rect(x: 50, y: 0, width: 300, height: 300)) < 1e-9, "\(shown)")
    }

    @Test func aFlingInsideAZoomedSpreadDeceleratesAndStopsAtItsEdge() throws {
        var v = pagedView()
        v.zoom(to: 3, about: Point(x: 200, y: 150))
        let bounds = v.spreadOffsetBounds(spread: 0, scale: 3)
        let clock = ManualClock()
        v.beginDrag()
        v.endDrag(velocity: Point(x: 0, y: -1500), at: clock.now)
        #expect(v.isAnimating)
        var previous = v.spreadZooms[0]!.offset.y
        var steps: [Double] = []
        while v.isAnimating && steps.count < 1000 {
            clock.advance(by: 1.0 / 60)
            v.advanceAnimations(clock: clock)
            steps.append(v.spreadZooms[0]!.offset.y - previous)
            previous = v.spreadZooms[0]!.offset.y
        }
        #expect(steps.first! > 20 && steps.first! <= 1500.0 / 60 + 1e-9, "it starts at the release speed")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.1 <= $0.0 + 1e-9 }, "and only slows down")
        #expect(v.spreadZooms[0]!.offset.y == bounds.upper.y, "it stops at the spread's edge")
        #expect(v.contentOffset == .zero && v.currentZoomScale == 3, "it neither pages nor zooms")
    }

    @Test func rubberBandingFollowsTheFormulaExactly() {
        var v = continuousView()
        v.beginDrag()
        for pull in [10.0, 100, 250, 1000] {
            v.drag(translation: Point(x: 0, y: pull))
            let expected = -(1 - 1 / (pull * DocumentView.rubberBandCoefficient / 300 + 1)) * 300
            #expect(abs(v.contentOffset.y - expected) < 1e-9, "pulled \(pull)")
        }
        v.endDrag(velocity: .zero, at: 0)
        // At the far end the same, mirrored.
        v.scroll(by: Point(x: 0, y: 1e6))
        let end = v.contentOffset.y
        v.beginDrag()
        v.drag(translation: Point(x: 0, y: -100))
        #expect(abs(v.contentOffset.y - end - (1 - 1 / (100 * 0.55 / 300 + 1)) * 300) < 1e-9)
    }

    @Test func contentThatFitsAnAxisDoesNotMoveAlongItWhileDragged() {
        var v = continuousView()
        v.beginDrag()
        v.drag(translation: Point(x: 60, y: -40))
        #expect(v.contentOffset == Point(x: 0, y: 40), "the page fits the width: a sideways drift does not move it")
        v.endDrag(velocity: .zero, at: 0)
        v.zoom(to: 2, about: Point(x: 200, y: 150))
        let before = v.contentOffset
        v.beginDrag()
        v.drag(translation: Point(x: 60, y: 0))
        #expect(v.contentOffset == Point(x: before.x - 60, y: before.y), "zoomed in, it pans sideways")
        v.endDrag(velocity: .zero, at: 0)
    }
}
