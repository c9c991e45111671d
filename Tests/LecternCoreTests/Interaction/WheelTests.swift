import Testing

@testable import LecternCore

/// The wheel in every mode: how far a detent scrolls, where vertical motion goes in
/// continuous horizontal mode, and turning the page from a zoomed spread's edge.
@Suite("The wheel")
struct WheelTests {
    // MARK: Continuous vertical: how far a detent scrolls

    @Test func aDetentScrollsATenthOfTheViewport() {
        let host = TestHost.continuous()  // 400 × 300
        let controller = InteractionController(host: host)
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15), at: 0)
        #expect(host.documentView.contentOffset.y == 30, "one detent: 0.1 × 300 px, not the axis's 15")
        controller.wheel(steps: Point(x: 0, y: 2), delta: Point(x: 0, y: 30), at: 0.1)
        #expect(host.documentView.contentOffset.y == 90, "two detents in one frame scroll twice as far")
        controller.wheel(steps: Point(x: 0, y: -1), delta: Point(x: 0, y: -15), at: 0.2)
        #expect(host.documentView.contentOffset.y == 60)
    }

    @Test func aHighResolutionWheelScrollsTheSamePer120Units() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        // axis_value120 30 four times: a quarter detent each.
        for i in 0..<4 {
            controller.wheel(steps: Point(x: 0, y: 0.25), delta: Point(x: 0, y: 3.75), at: Double(i) * 0.01)
            #expect(host.documentView.contentOffset.y == 7.5 * Double(i + 1))
        }
        #expect(host.documentView.contentOffset.y == 30, "120 units: one detent")
    }

    @Test func smoothScrollingMovesByItsOwnPixels() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        controller.wheel(steps: nil, delta: Point(x: 0, y: 12.5), at: 0)
        #expect(host.documentView.contentOffset.y == 12.5)
    }

    @Test func theDetentIsAConfigurationValue() {
        let host = TestHost.continuous()
        var configuration = InteractionConfiguration()
        configuration.wheelDetentFraction = 0.25
        let controller = InteractionController(host: host, configuration: configuration)
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15), at: 0)
        #expect(host.documentView.contentOffset.y == 75)
    }

    // MARK: Continuous horizontal: vertical motion goes along the pages

    @Test func inContinuousHorizontalModeTheWheelMovesAlongThePages() {
        let host = TestHost.continuousHorizontal()
        let controller = InteractionController(host: host)
        #expect(host.documentView.contentOffset == .zero)
        #expect(controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15), at: 0))
        #expect(host.documentView.contentOffset == Point(x: 40, y: 0), "down: a tenth of the width on")
        controller.wheel(steps: Point(x: 0, y: 3), delta: Point(x: 0, y: 45), at: 0.1)
        #expect(host.documentView.contentOffset.x == 160)
        controller.wheel(steps: Point(x: 0, y: -1), delta: Point(x: 0, y: -15), at: 0.2)
        #expect(host.documentView.contentOffset.x == 120, "up: back")
        controller.wheel(steps: nil, delta: Point(x: 0, y: 25), at: 0.3)
        #expect(host.documentView.contentOffset.x == 145, "a touchpad's vertical motion too, in pixels")
        controller.wheel(steps: Point(x: 1, y: 0), delta: Point(x: 15, y: 0), at: 0.4)
        #expect(host.documentView.contentOffset.x == 185, "a sideways detent moves sideways")
    }

    @Test func underRightEdgeBindingWheelingDownMovesLeftwardsThroughThePages() {
        let host = TestHost.continuousHorizontal(binding: .rightEdge)
        let controller = InteractionController(host: host)
        // Page 1 is on the right: the view starts at the right end of the 3000-px strip.
        #expect(host.documentView.contentOffset.x == 2600)
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15), at: 0)
        #expect(host.documentView.contentOffset.x == 2560, "down leads on, to the left")
        controller.wheel(steps: nil, delta: Point(x: 0, y: 25), at: 0.1)
        #expect(host.documentView.contentOffset.x == 2535)
        controller.wheel(steps: Point(x: 0, y: -1), delta: Point(x: 0, y: -15), at: 0.2)
        #expect(host.documentView.contentOffset.x == 2575)
        // The physical sideways motion of a tilt wheel is not mirrored.
        controller.wheel(steps: Point(x: 1, y: 0), delta: Point(x: 15, y: 0), at: 0.3)
        #expect(host.documentView.contentOffset.x == 2600)
    }

    @Test func zoomedInWithRoomToScrollDownTheWheelScrollsDown() {
        let host = TestHost.continuousHorizontal()
        let controller = InteractionController(host: host)
        host.documentView.zoom(to: 2, about: Point(x: 200, y: 150))
        let before = host.documentView.contentOffset
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15), at: 0)
        #expect(host.documentView.contentOffset == before + Point(x: 0, y: 30))
    }

    // MARK: Per spread, at zoom 1

    @Test func perSpreadAHighResolutionWheelTurnsOneSpreadPer120Units() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        for i in 0..<3 {
            controller.wheel(steps: Point(x: 0, y: 0.25), delta: Point(x: 0, y: 3.75), at: Double(i) * 0.01)
        }
        #expect(host.documentView.destinationSpread == 0, "three quarters of a detent turn nothing")
        controller.wheel(steps: Point(x: 0, y: 0.25), delta: Point(x: 0, y: 3.75), at: 0.03)
        #expect(host.documentView.destinationSpread == 1, "the fourth quarter turns one spread")
        controller.wheel(steps: Point(x: 0, y: 2), delta: Point(x: 0, y: 30), at: 0.1)
        #expect(host.documentView.destinationSpread == 3, "two detents at once turn two")
    }

    // MARK: Zoomed in per spread: to the edge, then the page turns

    /// The paged host (300 × 300 pages in 400 × 300 cells) zoomed 2× about the centre of
    /// `spread`: its own vertical offset runs 0...300 and starts at 150.
    static func zoomedPaged(spread: Int = 0) throws -> TestHost {
        let host = TestHost.paged()
        try host.documentView.goToPage(spread)
        host.documentView.zoom(to: 2, about: Point(x: 200, y: 150))
        #expect(host.documentView.spreadZooms[spread] == SpreadZoom(scale: 2, offset: Point(x: 200, y: 150)))
        return host
    }

    @Test func zoomedInTheWheelPansToTheEdgeAndAFlickPastItDoesNotTurn() throws {
        let host = try Self.zoomedPaged()
        let controller = InteractionController(host: host)
        let down = (steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15))
        for i in 0..<3 { controller.wheel(steps: down.steps, delta: down.delta, at: Double(i) * 0.1) }
        #expect(host.documentView.spreadZooms[0]?.offset.y == 240, "three detents of 30 px pan the page")
        // A flick: eleven detents 20 ms apart. Two reach the bottom edge; the rest stop there.
        for i in 0..<11 { controller.wheel(steps: down.steps, delta: down.delta, at: 0.3 + Double(i) * 0.02) }
        #expect(host.documentView.spreadZooms[0]?.offset.y == 300, "at the page's bottom edge")
        #expect(host.documentView.destinationSpread == 0 && !host.documentView.isAnimating, "no page turned")
        // 0.2 s later the flick still counts as going on.
        controller.wheel(steps: down.steps, delta: down.delta, at: 0.7)
        #expect(host.documentView.destinationSpread == 0 && !host.documentView.isAnimating)
        // After a pause of 0.3 s, one detent turns one page.
        controller.wheel(steps: down.steps, delta: down.delta, at: 1.0)
        #expect(host.documentView.destinationSpread == 1, "the next detent at the edge turns the page")
        // A detent while the turn is under way turns on from where it heads (the turn goes on).
        controller.wheel(steps: down.steps, delta: down.delta, at: 1.01)
        #expect(host.documentView.destinationSpread == 2 && host.documentView.isTurningPage)
        host.settle(from: 1.01)
        #expect(host.documentView.currentSpread == 2 && !host.documentView.isZoomedIn)
    }

    @Test func aDetentThatReachesTheEdgeStopsThere() throws {
        let host = try Self.zoomedPaged()
        let controller = InteractionController(host: host)
        controller.wheel(steps: nil, delta: Point(x: 0, y: 140), at: 0)
        #expect(host.documentView.spreadZooms[0]?.offset.y == 290)
        // Half a second later: 10 px to go, the rest of the detent goes nowhere.
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15), at: 0.5)
        #expect(host.documentView.spreadZooms[0]?.offset.y == 300 && host.documentView.destinationSpread == 0)
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 15), at: 1.0)
        #expect(host.documentView.destinationSpread == 1)
    }

    @Test func zoomedInAtTheTopEdgeTheWheelTurnsBack() throws {
        let host = try Self.zoomedPaged(spread: 2)
        let controller = InteractionController(host: host)
        for i in 0..<5 { controller.wheel(steps: Point(x: 0, y: -1), delta: Point(x: 0, y: -15), at: Double(i) * 0.5) }
        #expect(host.documentView.spreadZooms[2]?.offset.y == 0)
        #expect(host.documentView.destinationSpread == 2, "panning to the top turns nothing")
        controller.wheel(steps: Point(x: 0, y: -1), delta: Point(x: 0, y: -15), at: 2.5)
        #expect(host.documentView.destinationSpread == 1)
    }

    @Test func zoomedInATouchpadTurnsAfterItsPageTurnDistanceAtTheEdge() throws {
        let host = try Self.zoomedPaged()
        let controller = InteractionController(host: host)
        controller.wheel(steps: nil, delta: Point(x: 0, y: 200), at: 0)
        #expect(host.documentView.spreadZooms[0]?.offset.y == 300)
        controller.wheel(steps: nil, delta: Point(x: 0, y: 60), at: 0.5)
        #expect(host.documentView.destinationSpread == 0)
        controller.wheel(steps: nil, delta: Point(x: 0, y: 60), at: 0.6)
        #expect(host.documentView.destinationSpread == 1, "120 px at the edge: one page")
    }

    @Test func zoomedInASidewaysDetentAtTheSideEdgeTurnsUnderEitherBinding() throws {
        for binding in [PageBinding.leftEdge, .rightEdge] {
            let host = TestHost.paged(binding: binding)
            try host.documentView.goToPage(1)
            host.documentView.zoom(to: 2, about: Point(x: 200, y: 150))
            let controller = InteractionController(host: host)
            // Sideways the zoomed page's offset runs 100...300; the zoom put it at 200, and a
            // detent moves a tenth of the 400-px width.
            let toward = binding == .rightEdge ? -1.0 : 1.0
            for i in 0..<3 {
                controller.wheel(
                    steps: Point(x: toward, y: 0), delta: Point(x: 15 * toward, y: 0), at: Double(i) * 0.5)
            }
            #expect(host.documentView.spreadZooms[1]?.offset.x == (binding == .rightEdge ? 100 : 300))
            #expect(host.documentView.destinationSpread == 1, "\(binding): panning sideways turns nothing")
            controller.wheel(steps: Point(x: toward, y: 0), delta: Point(x: 15 * toward, y: 0), at: 2)
            #expect(host.documentView.destinationSpread == 2, "\(binding): the next detent leads on")
        }
    }
}

extension InteractionController {
    /// One wheel (`steps`) or touchpad (`steps` nil) frame.
    @discardableResult
    func wheel(steps: Point?, delta: Point, at time: Double) -> Bool {
        handle(InputEvent(.scroll(delta: delta, steps: steps), time: time))
    }
}
