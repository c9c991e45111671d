import Testing

@testable import LecternCore

/// Keys and the wheel.
@Suite("Keyboard and wheel")
struct KeyboardWheelTests {
    @Test func arrowsTurnSpreadsInPerSpreadModeAndScrollWhenZoomed() throws {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        #expect(controller.key(.right, at: 0))
        #expect(host.documentView.destinationSpread == 1)
        controller.key(.down, at: 0.1)
        #expect(host.documentView.destinationSpread == 2, "keys count from where a turn in progress heads")
        controller.key(.left, at: 0.2)
        controller.key(.up, at: 0.3)
        #expect(host.documentView.destinationSpread == 0)
        host.settle(from: 0.3)
        controller.key(.plus, at: 1)
        #expect(close(host.documentView.currentZoomScale, 1.5))
        let before = try #require(host.documentView.spreadZooms[0]).offset
        controller.key(.down, at: 1.1)
        #expect(host.documentView.currentSpread == 0 && !host.documentView.isAnimating)
        #expect(host.documentView.spreadZooms[0]?.offset == before + Point(x: 0, y: 48), "zoomed in, it scrolls")
        controller.key(.minus, at: 1.2)
        #expect(!host.documentView.isZoomedIn)
    }

    @Test func underRightEdgeBindingTheLeftArrowLeadsOn() {
        let host = TestHost.paged(binding: .rightEdge)
        let controller = InteractionController(host: host)
        controller.key(.left, at: 0)
        #expect(host.documentView.destinationSpread == 1)
        controller.key(.right, at: 0.1)
        #expect(host.documentView.destinationSpread == 0)
    }

    @Test func pageKeysTurnSpreadsOrScrollAScreenful() {
        let paged = TestHost.paged()
        let pagedController = InteractionController(host: paged)
        pagedController.key(.pageDown, at: 0)
        pagedController.key(.pageDown, at: 0.1)
        pagedController.key(.pageUp, at: 0.2)
        #expect(paged.documentView.destinationSpread == 1)

        let continuous = TestHost.continuous()
        let controller = InteractionController(host: continuous)
        controller.key(.pageDown, at: 0)
        #expect(continuous.documentView.contentOffset.y == 300)
        controller.key(.down, at: 0.1)
        #expect(continuous.documentView.contentOffset.y == 348)
        controller.key(.pageUp, at: 0.2)
        controller.key(.up, at: 0.3)
        #expect(continuous.documentView.contentOffset.y == 0)
    }

    @Test(
        "in continuous horizontal mode the up and down arrows move along the pages (mirrored right to left)",
        arguments: [PageBinding.leftEdge, .rightEdge])
    func verticalArrowsAlongHorizontalPages(binding: PageBinding) {
        let host = TestHost.continuousHorizontal(binding: binding)
        let controller = InteractionController(host: host)
        let start = host.documentView.contentOffset
        // Down leads on: right, or left under right-edge binding, by one step (48 px).
        let forward = binding.isRightToLeft ? -48.0 : 48.0
        controller.key(.down, at: 0)
        #expect(host.documentView.contentOffset == start + Point(x: forward, y: 0))
        controller.key(.down, at: 0.1)
        controller.key(.up, at: 0.2)
        #expect(host.documentView.contentOffset == start + Point(x: forward, y: 0))
    }

    @Test func homeAndEndGoToTheFirstAndLastPage() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        controller.key(.end, at: 0)
        #expect(host.documentView.dominantPage() == 9)
        controller.key(.home, at: 1)
        #expect(host.documentView.dominantPage() == 0 && host.documentView.contentOffset == .zero)
    }

    @Test func plusAndMinusZoomAboutTheViewCentre() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        controller.key(.pageDown, at: 0)
        let centre = host.documentView.viewBounds.center
        let underCentre = host.documentView.convert(centre, from: .view, to: .content)
        controller.key(.plus, at: 0.1)
        #expect(close(host.documentView.zoomScale, 1.5))
        #expect(host.documentView.convert(underCentre, from: .content, to: .view).distance(to: centre) < 1e-9)
        controller.key(.plus, at: 0.2)
        controller.key(.minus, at: 0.3)
        #expect(close(host.documentView.zoomScale, 1.5))
    }

    @Test func otherKeysDoNothing() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        for key in [Key.escape, .enter, .backspace, .digit(1), .other(0x71)] {
            #expect(!controller.key(key, at: 0), "\(key)")
        }
        #expect(host.documentView.currentSpread == 0 && host.isUserInterfaceVisible)
    }

    @Test func theWheelScrollsTheDocument() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        // A detent scrolls a tenth of the 300-px viewport (WheelTests has the rest).
        #expect(controller.handle(InputEvent(.scroll(delta: Point(x: 0, y: 15), steps: Point(x: 0, y: 1)), time: 0)))
        #expect(host.documentView.contentOffset.y == 30)
        controller.handle(InputEvent(.scroll(delta: Point(x: 0, y: 60), steps: nil), time: 0.1))
        #expect(host.documentView.contentOffset.y == 90)
        #expect(controller.handle(InputEvent(.scroll(delta: Point(x: 0, y: -500), steps: nil), time: 0.2)))
        #expect(host.documentView.contentOffset.y == 0)
    }

    @Test func theWheelTurnsSpreadsInPerSpreadMode() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.handle(InputEvent(.scroll(delta: Point(x: 0, y: 10), steps: Point(x: 0, y: 1)), time: 0))
        #expect(host.documentView.destinationSpread == 1, "one detent, one spread")
        controller.handle(InputEvent(.scroll(delta: Point(x: 0, y: 70), steps: nil), time: 0.1))
        #expect(host.documentView.destinationSpread == 1)
        controller.handle(InputEvent(.scroll(delta: Point(x: 0, y: 70), steps: nil), time: 0.15))
        #expect(host.documentView.destinationSpread == 2, "120 px of smooth scrolling turn one")
        controller.handle(InputEvent(.scroll(delta: Point(x: 0, y: -10), steps: Point(x: 0, y: -1)), time: 0.2))
        #expect(host.documentView.destinationSpread == 1)
    }
}
