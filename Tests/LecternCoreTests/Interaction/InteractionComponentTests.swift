import Testing

@testable import LecternCore

/// The interaction components on a real document view.
@Suite("Interaction components")
struct InteractionComponentTests {
    @Test func aTapInTheRightEdgeZoneTurnsTheSpreadAtOnce() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        #expect(controller.tap(390, 150, at: 0), "the page turn starts on the lift, no double-tap wait")
        #expect(host.documentView.isAnimating && host.documentView.destinationSpread == 1)
        host.settle(from: 0.05)
        #expect(host.documentView.currentSpread == 1 && host.documentView.dominantPage() == 1)
        controller.tick(now: 5)
        #expect(host.isUserInterfaceVisible, "the tap did not also toggle the chrome")
        controller.tap(10, 150, at: 6)
        host.settle(from: 6.05)
        #expect(host.documentView.currentSpread == 0)
    }

    @Test func quickRepeatedTapsTurnOneSpreadEach() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        for i in 0..<3 { controller.tap(390, 150, at: 0.12 * Double(i)) }
        #expect(host.documentView.destinationSpread == 3)
        host.settle(from: 0.3)
        #expect(host.documentView.currentSpread == 3)
        #expect(host.documentView.zoomScale == 1 && !host.documentView.isZoomedIn, "no double tap zoomed in")
    }

    @Test func underRightEdgeBindingTheLeftZoneLeadsOn() {
        let host = TestHost.paged(binding: .rightEdge)
        let controller = InteractionController(host: host)
        controller.tap(10, 150, at: 0)
        #expect(host.documentView.destinationSpread == 1)
        host.settle(from: 0.05)
        controller.tap(390, 150, at: 2)
        #expect(host.documentView.destinationSpread == 0)
        host.settle(from: 2.05)
        // On the first spread the right zone has nowhere to go: the tap toggles the chrome.
        controller.tap(390, 150, at: 4)
        #expect(!host.documentView.isAnimating && host.isUserInterfaceVisible)
        controller.tick(now: 5)
        #expect(!host.isUserInterfaceVisible)
    }

    @Test func theEdgeZonesAreConfigurable() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.tap(300, 150, at: 0)
        #expect(!host.documentView.isAnimating, "x 300 is outside the outer 20 %")
        controller.configuration.fastScrollEdgeFraction = 0.3
        controller.tap(300, 150, at: 1)
        #expect(host.documentView.destinationSpread == 1)
    }

    @Test func aPinchZoomsAboutItsFocalPoint() throws {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        var anchor: Point?
        controller.pinchRecognizer.addAction { recognizer in
            guard recognizer.state == .began, let pinch = recognizer as? PinchGestureRecognizer else { return }
            anchor = host.documentView.convert(pinch.focalPoint, from: .view, to: .page(0))
        }
        controller.down(1, 150, 100, at: 0)
        controller.down(2, 250, 100, at: 0.01)
        controller.move(1, 140, 100, at: 0.02)
        #expect(controller.pinchRecognizer.state == .began && anchor != nil)
        controller.move(2, 260, 102, at: 0.03)
        controller.move(1, 100, 150, at: 0.04)
        controller.move(2, 300, 150, at: 0.05)
        let view = host.documentView
        #expect(close(view.zoomScale, 2.0 / 1.1, 1e-9), "\(view.zoomScale)")
        let there = view.convert(try #require(anchor), from: .page(0), to: .view)
        #expect(there.distance(to: Point(x: 200, y: 150)) < 1e-6, "\(there)")
        controller.up(1, at: 0.06)
        controller.up(2, at: 0.07)
        #expect(!host.documentView.isAnimating && host.documentView.zoomScale == view.zoomScale)
    }

    @Test func aPinchOnASpreadZoomsThatSpread() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.down(1, 150, 150, at: 0)
        controller.down(2, 250, 150, at: 0.01)
        controller.move(1, 100, 150, at: 0.02)
        controller.move(2, 300, 150, at: 0.03)
        // Scale 2 over the 1.5 the fingers had reached when the pinch began.
        #expect(host.documentView.zoomScale == 1 && close(host.documentView.currentZoomScale, 4.0 / 3))
        #expect(host.documentView.spreadZooms[0] != nil)
    }

    @Test func aPanScrollsAndFlingsAfterRelease() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        controller.down(1, 200, 280, at: 0)
        for i in 1...10 { controller.move(1, 200, 280 - 20 * Double(i), at: 0.01 * Double(i)) }
        #expect(host.documentView.contentOffset.y == 200, "the content follows the finger")
        controller.up(1, at: 0.105)
        #expect(host.documentView.isAnimating)
        var previous = host.documentView.contentOffset.y
        var steps: [Double] = []
        let clock = ManualClock(start: 0.105)
        for _ in 0..<30 {
            clock.advance(by: 1.0 / 60)
            host.documentView.advanceAnimations(clock: clock)
            steps.append(host.documentView.contentOffset.y - previous)
            previous = host.documentView.contentOffset.y
        }
        #expect(steps.allSatisfy { $0 > 0 }, "it keeps moving: \(steps)")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.1 < $0.0 }, "by smaller amounts")
        #expect(steps[0] > 1500.0 / 60, "at about the finger's speed (2000 px/s)")
    }

    @Test func aFingerJoiningAPanPinchesThenDragsOn() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        controller.down(1, 200, 250, at: 0)
        controller.move(1, 200, 200, at: 0.1)
        #expect(host.documentView.contentOffset.y == 50)
        controller.down(2, 200, 100, at: 0.2)
        controller.move(2, 200, 50, at: 0.3)
        controller.move(2, 200, 0, at: 0.35)
        #expect(host.documentView.zoomScale > 1)
        controller.up(2, at: 0.4)
        let before = host.documentView.contentOffset
        controller.move(1, 200, 180, at: 0.5)
        #expect(host.documentView.contentOffset == Point(x: before.x, y: before.y + 20), "no jump")
    }

    @Test func aDoubleTapOnATextBlockZoomsToItAndAgainZoomsOut() {
        let host = TestHost.continuous()
        // Page 0: x 10…50, y 150…170 in PDF space (y up) is view x 40…200, y 120…200.
        let block = Rect(x: 10, y: 150, width: 40, height: 20)
        host.blocks[0] = [Rect(x: 0, y: 0, width: 100, height: 200), block]
        let controller = InteractionController(host: host)
        var context: SmartZoomContext?
        controller.smartZoom.addActivationCallback { c, _, _ in context = c }
        controller.tap(120, 160, at: 0)
        #expect(!controller.tap(121, 161, at: 0.2) || host.documentView.isAnimating)
        #expect(host.documentView.isAnimating && context?.zoomsOut == false && context?.page == 0)
        host.settle(from: 0.25)
        let padded = block.inset(by: EdgeInsets(all: -8))
        let shown = host.documentView.convert(padded, from: .page(0), to: .view)
        #expect(abs(shown.width - 400) < 1e-6 && abs(shown.midX - 200) < 1e-6, "\(shown)")
        #expect(abs(shown.midY - 150) < 1e-6, "\(shown)")
        #expect(close(host.documentView.zoomScale, 400 / 224))
        controller.tick(now: 5)
        #expect(host.isUserInterfaceVisible, "a double tap does not toggle the chrome")

        controller.tap(200, 150, at: 6)
        controller.tap(200, 150, at: 6.2)
        #expect(context?.zoomsOut == true)
        host.settle(from: 6.25)
        #expect(host.documentView.zoomScale == 1)
    }

    @Test func aDoubleTapOnATextBlockZoomsThatSpreadInPerSpreadMode() {
        let host = TestHost.paged()
        // Page 0 is shown at view x 50…350, y 0…300, 3 px per point.
        let block = Rect(x: 20, y: 60, width: 40, height: 20)
        host.blocks[0] = [block]
        let controller = InteractionController(host: host)
        controller.tap(170, 90, at: 0)
        controller.tap(170, 90, at: 0.2)
        host.settle(from: 0.25)
        let shown = host.documentView.convert(block.inset(by: EdgeInsets(all: -8)), from: .page(0), to: .view)
        #expect(host.documentView.zoomScale == 1 && host.documentView.currentZoomScale > 2)
        #expect(abs(shown.width - 400) < 1e-6 && abs(shown.midY - 150) < 1e-6, "\(shown)")
        controller.tap(200, 150, at: 2)
        controller.tap(200, 150, at: 2.2)
        host.settle(from: 2.25)
        #expect(!host.documentView.isZoomedIn && host.documentView.spreadZooms.isEmpty)
    }

    @Test func aDoubleTapWithNoTextBlockZoomsTwiceAboutTheFinger() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        let finger = Point(x: 100, y: 100)
        let underFinger = host.documentView.convert(finger, from: .view, to: .page(0))
        controller.tap(finger.x, finger.y, at: 0)
        controller.tap(finger.x, finger.y, at: 0.2)
        host.settle(from: 0.25)
        #expect(close(host.documentView.zoomScale, 2))
        #expect(host.documentView.convert(underFinger, from: .page(0), to: .view).distance(to: finger) < 1e-6)
    }

    @Test func aSingleTapTogglesTheChromeOnlyAfterTheDoubleTapWindow() throws {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        #expect(!controller.tap(200, 150, at: 0))
        #expect(host.isUserInterfaceVisible)
        let deadline = try #require(controller.nextDeadline)
        #expect(deadline > 0.05 && deadline <= 0.5)
        #expect(!controller.tick(now: deadline - 0.01))
        #expect(host.isUserInterfaceVisible)
        #expect(controller.tick(now: deadline))
        #expect(!host.isUserInterfaceVisible && controller.nextDeadline == nil)
        controller.tap(200, 150, at: 1)
        controller.tick(now: 2)
        #expect(host.isUserInterfaceVisible)
    }

    @Test func aFalseActivationConditionBlocksTheComponent() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        var evaluated: [String] = []
        var callbacks = 0
        controller.toggleUserInterface.addActivationCondition { _, _, _ in
            evaluated.append("first")
            return false
        }
        controller.toggleUserInterface.addActivationCondition { _, _, _ in
            evaluated.append("second")
            return true
        }
        controller.toggleUserInterface.addActivationCallback { _, _, _ in callbacks += 1 }
        controller.tap(200, 150, at: 0)
        controller.tick(now: 1)
        #expect(host.isUserInterfaceVisible && evaluated == ["first"] && callbacks == 0)
        #expect(controller.toggleUserInterface.gestureRecognizers[0].state == .failed)
    }

    @Test func aFalseConditionOnFastScrollLetsTheTapFallThrough() throws {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        var seen: [(FastScrollContext, Point, CoordinateSpace)] = []
        controller.fastScroll.addActivationCondition { context, point, space in
            seen.append((context, point, space))
            return false
        }
        controller.tap(390, 150, at: 0)
        #expect(!host.documentView.isAnimating)
        try #require(seen.count == 1)
        #expect(seen[0].0 == FastScrollContext(direction: .next, targetSpread: 1))
        #expect(seen[0].1 == Point(x: 390, y: 150) && seen[0].2 == .view)
        controller.tick(now: 1)
        #expect(!host.isUserInterfaceVisible, "the chrome toggle that waited on fast scroll proceeds")
    }

    @Test func callbacksRunJustBeforeTheAction() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        var visibleInCallback: Bool?
        var point: Point?
        controller.toggleUserInterface.addActivationCallback { context, p, space in
            visibleInCallback = host.isUserInterfaceVisible
            point = p
            #expect(space == .view && context == EmptyInteractionContext())
        }
        controller.tap(200, 150, at: 0)
        #expect(visibleInCallback == nil)
        controller.tick(now: 1)
        #expect(visibleInCallback == true && !host.isUserInterfaceVisible && point == Point(x: 200, y: 150))
    }

    @Test func aCustomRecognizerThatRequiresFastScrollToFail() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        let custom = TapGestureRecognizer(name: "custom")
        custom.require(toFail: controller.fastScroll)
        var fired = 0
        custom.addAction { _ in fired += 1 }
        controller.addGestureRecognizer(custom)
        controller.tap(390, 150, at: 0)
        #expect(fired == 0 && host.documentView.destinationSpread == 1, "fast scroll won")
        host.settle(from: 0.05)
        controller.tap(200, 150, at: 2)
        #expect(fired == 1, "fast scroll failed in the middle: the custom tap fires at once")
        controller.tick(now: 3)
        #expect(host.isUserInterfaceVisible, "and it took the tap from the chrome toggle")
    }

    @Test func aComponentThatRequiresACustomRecognizerToFail() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        let custom = TapGestureRecognizer(name: "custom")
        var customWants = true
        custom.shouldBegin = { _ in customWants }
        controller.fastScroll.require(toFail: custom)
        controller.addGestureRecognizer(custom)
        controller.tap(390, 150, at: 0)
        #expect(custom.state == .ended && !host.documentView.isAnimating)
        customWants = false
        controller.tap(390, 150, at: 2)
        #expect(custom.state == .failed && host.documentView.destinationSpread == 1)
    }

    @Test func canActivateIgnoresIsEnabledButNotConditions() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        let fast = controller.fastScroll
        fast.isEnabled = false
        #expect(fast.canActivate(at: Point(x: 390, y: 150), in: .view))
        #expect(!fast.canActivate(at: Point(x: 200, y: 150), in: .view))
        // Page 0 is shown at view x 50…350, 3 px per point: page x 99 is view x 347, in the
        // right zone; page x 1 is view x 53, in the left zone, with no spread before it.
        #expect(fast.canActivate(at: Point(x: 99, y: 50), in: .page(0)))
        #expect(!fast.canActivate(at: Point(x: 1, y: 50), in: .page(0)))
        #expect(!fast.canActivate(at: Point(x: 50, y: 50), in: .page(0)))
        controller.tap(390, 150, at: 0)
        #expect(!host.documentView.isAnimating, "disabled, it does not act")
        fast.isEnabled = true
        fast.addActivationCondition { _, _, _ in false }
        #expect(!fast.canActivate(at: Point(x: 390, y: 150), in: .view))
        #expect(controller.toggleUserInterface.canActivate(at: .zero, in: .view))
        #expect(!controller.selectAnnotation.canActivate(at: Point(x: 200, y: 150), in: .view))
    }

    @Test func componentsKnowTheirRecognizers() {
        let controller = InteractionController(host: TestHost.paged())
        let tap = controller.fastScroll.gestureRecognizers[0]
        #expect(controller.fastScroll.contains(tap) && !controller.smartZoom.contains(tap))
        #expect(controller.allInteractions.contains(tap) && !controller.allTextInteractions.contains(tap))
        #expect(!controller.allInteractions.contains(controller.panRecognizer))
        #expect(controller.allAnnotationInteractions.contains(controller.transformAnnotation.gestureRecognizers[0]))
        #expect(controller.allInteractions.components.count == 10)
    }

    @Test func disablingACompositeDisablesItsMembers() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.allInteractions.isEnabled = false
        #expect(!controller.fastScroll.isEnabled && !controller.allTextInteractions.isEnabled)
        controller.tap(390, 150, at: 0)
        controller.tap(200, 150, at: 1)
        controller.tick(now: 2)
        #expect(!host.documentView.isAnimating && host.isUserInterfaceVisible)
        controller.allInteractions.isEnabled = true
        var contexts: [String] = []
        controller.allInteractions.addActivationCondition { context, _, _ in
            contexts.append(String(describing: type(of: context)))
            return true
        }
        controller.tap(390, 150, at: 3)
        #expect(contexts == ["FastScrollContext"] && host.documentView.destinationSpread == 1)
    }

    @Test func anIntegratorCanReimplementAComponent() {
        let host = TestHost.continuous()
        let controller = InteractionController(host: host)
        controller.smartZoom.isEnabled = false
        let triple = TapGestureRecognizer(numberOfTaps: 3, name: "tripleTapZoom")
        triple.addAction { recognizer in
            controller.tryToSmartZoom(at: recognizer.location, in: .view)
        }
        controller.addGestureRecognizer(triple)
        // The chrome toggle must not take the first taps of a triple tap.
        controller.toggleUserInterface.require(toFail: triple)
        controller.tap(100, 100, at: 0)
        controller.tap(100, 100, at: 0.2)
        host.settle(from: 0.25)
        #expect(host.documentView.zoomScale == 1, "the double tap does nothing now")
        controller.tap(100, 100, at: 1)
        controller.tap(100, 100, at: 1.2)
        controller.tap(100, 100, at: 1.4)
        host.settle(from: 1.45)
        #expect(close(host.documentView.zoomScale, 2))
        #expect(!controller.tryToSelectAnnotation(at: Point(x: 100, y: 100), in: .view), "a later issue")
        #expect(!controller.tryToFastScroll(at: Point(x: 200, y: 100), in: .view))
        let visible = host.isUserInterfaceVisible
        #expect(controller.tryToToggleUserInterface(at: .zero, in: .view) && host.isUserInterfaceVisible != visible)
    }

    @Test func thePointerClicksLikeAFinger() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.handle(InputEvent(.pointerEnter(location: Point(x: 395, y: 100)), time: 0))
        controller.handle(InputEvent(.pointerButton(.left, isPressed: true), time: 0.1))
        #expect(controller.handle(InputEvent(.pointerButton(.left, isPressed: false), time: 0.15)))
        #expect(host.documentView.destinationSpread == 1)
    }

    @Test func aCancelledPanSpringsBackAndTheNextTapWorks() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        controller.down(1, 300, 150, at: 0)
        controller.move(1, 250, 150, at: 0.05)
        #expect(host.documentView.contentOffset.x == 50 && host.documentView.isDragging)
        controller.handle(InputEvent(.touchCancel, time: 0.1))
        #expect(!host.documentView.isDragging)
        host.settle(from: 0.1)
        #expect(host.documentView.contentOffset.x == 0)
        controller.tap(390, 150, at: 1)
        #expect(host.documentView.destinationSpread == 1)
    }
}
