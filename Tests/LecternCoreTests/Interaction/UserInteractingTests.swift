import Testing

@testable import LecternCore

/// `InteractionController.isUserInteracting`: what keeps an idle reset from firing.
@Suite("Whether the visitor is interacting")
struct UserInteractingTests {
    @Test func aFingerHeldStillIsInteractionForAsLongAsItIsDown() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        #expect(!controller.isUserInteracting, "at rest")
        controller.down(0, 200, 150, at: 0)
        #expect(controller.isUserInteracting)
        // Past the double-tap window and the long-press time, for a minute: still down.
        for time in [0.3, 0.6, 1, 5, 60] {
            controller.tick(now: time)
            #expect(controller.isUserInteracting, "held still at \(time) s")
        }
        controller.up(0, at: 60.1)
        controller.tick(now: 61)
        #expect(!controller.isUserInteracting, "lifted")
        #expect(host.documentView.currentSpread == 0)
    }

    @Test func aHeldPointerButtonIsInteraction() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.handle(InputEvent(.pointerEnter(location: Point(x: 200, y: 150)), time: 0))
        #expect(!controller.isUserInteracting, "a pointer over the page is not interaction")
        for button in [PointerButton.left, .right] {
            controller.handle(InputEvent(.pointerButton(button, isPressed: true), time: 1))
            controller.tick(now: 30)
            #expect(controller.isUserInteracting, "\(button) held")
            controller.handle(InputEvent(.pointerButton(button, isPressed: false), time: 31))
            controller.tick(now: 32)
            #expect(!controller.isUserInteracting, "\(button) released")
        }
        controller.handle(InputEvent(.pointerButton(.middle, isPressed: true), time: 40))
        controller.handle(InputEvent(.pointerLeave, time: 41))
        #expect(!controller.isUserInteracting, "a pointer that left holds nothing")
    }

    @Test func aDragAndTheFlingAfterItAreInteraction() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        controller.down(0, 200, 280, at: 0)
        for step in 1...5 { controller.move(0, 200, 280 - 40 * Double(step), at: 0.02 * Double(step)) }
        #expect(controller.isUserInteracting && host.documentView.isDragging)
        controller.up(0, at: 0.1)
        #expect(host.documentView.isAnimating, "a fling")
        #expect(controller.isUserInteracting, "while the fling runs")
        host.settle(from: 0.1)
        controller.tick(now: 31)
        #expect(!controller.isUserInteracting)
    }

    @Test func aPageTurnIsInteractionUntilItEnds() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.tap(390, 150, at: 0)
        #expect(host.documentView.isTurningPage)
        #expect(controller.isUserInteracting)
        host.documentView.advanceAnimations(to: 0.2)
        #expect(controller.isUserInteracting)
        host.documentView.advanceAnimations(to: 0.3)
        #expect(!controller.isUserInteracting, "the turn ended at 0.05 + 0.25 s")
    }

    @Test func theChromeFollowingAFingerIsInteraction() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        host.isChromeTrackingInput = true
        #expect(controller.isUserInteracting)
        host.isChromeTrackingInput = false
        #expect(!controller.isUserInteracting)
    }

    @Test func aCancelledTouchHoldsNothing() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.down(0, 200, 150, at: 0)
        controller.down(1, 250, 150, at: 0)
        controller.handle(InputEvent(.touchCancel, time: 0.1))
        #expect(!controller.isUserInteracting)
    }
}
