import Testing

@testable import LecternCore

/// How the arena settles recognizers against each other, and its robustness to what
/// compositors really send.
@Suite("Gesture arena")
struct GestureArenaTests {
    /// A single tap that waits for a double tap to fail, the classic pair.
    func tapAndDoubleTap() -> (GestureArena, single: TapGestureRecognizer, double: TapGestureRecognizer) {
        let arena = GestureArena()
        let double = TapGestureRecognizer(numberOfTaps: 2, name: "double")
        let single = TapGestureRecognizer(name: "single")
        single.require(toFail: double)
        arena.add(single)
        arena.add(double)
        return (arena, single, double)
    }

    @Test func aTapThatRequiresADoubleTapToFailWaitsForIt() {
        let (arena, single, double) = tapAndDoubleTap()
        let log = StateLog(single)
        arena.tap(100, 100, at: 0)
        #expect(single.state == .possible && single.isWaitingForFailureRequirements)
        #expect(arena.nextDeadline == 0.05 + double.maximumTapInterval)
        arena.tick(now: 0.3)
        #expect(log.states.isEmpty)
        arena.tick(now: 0.35)
        #expect(double.state == .failed && single.state == .ended && log.states == [.ended])
        #expect(arena.nextDeadline == nil)
    }

    @Test func aTapThatRequiresADoubleTapToFailFailsWhenItIsRecognized() {
        let (arena, single, double) = tapAndDoubleTap()
        let singles = StateLog(single)
        arena.tap(100, 100, at: 0)
        arena.tap(100, 100, at: 0.2)
        #expect(double.state == .ended && single.state == .failed && singles.states.isEmpty)
        // And the next tap starts both afresh.
        arena.tap(100, 100, at: 2)
        arena.tick(now: 3)
        #expect(single.state == .ended && singles.states == [.ended])
    }

    @Test func shouldBeginFalseFailsTheRecognizerAndLetsWaitersProceed() {
        let (arena, single, double) = tapAndDoubleTap()
        var asked = 0
        double.shouldBegin = { _ in
            asked += 1
            return false
        }
        arena.tap(100, 100, at: 0)
        arena.tap(100, 100, at: 0.2)
        #expect(asked == 1 && double.state == .failed)
        #expect(single.state == .ended, "the single tap waiting on it is recognized")
    }

    @Test func shouldBeginIsAskedOnlyOnceTheRequirementsFailed() {
        let (arena, single, _) = tapAndDoubleTap()
        var askedAt: [Double] = []
        single.shouldBegin = { _ in
            askedAt.append(arena.now)
            return true
        }
        arena.tap(100, 100, at: 0)
        #expect(askedAt.isEmpty)
        arena.tick(now: 1)
        #expect(askedAt == [1] && single.state == .ended)
    }

    @Test func recognizersExcludeEachOtherUnlessAllowed() {
        for allowed in [false, true] {
            let arena = GestureArena()
            let pan = PanGestureRecognizer(name: "pan")
            let pinch = PinchGestureRecognizer(name: "pinch")
            if allowed { pan.allowSimultaneousRecognition(with: pinch) }
            arena.add(pan)
            arena.add(pinch)
            arena.down(1, 100, 100, at: 0)
            arena.down(2, 200, 100, at: 0.01)
            arena.move(1, 100, 125, at: 0.02)
            #expect(pan.state == .began && pinch.state == (allowed ? .possible : .failed), "allowed: \(allowed)")
            arena.move(2, 260, 120, at: 0.03)
            #expect(pinch.state == (allowed ? .began : .failed), "allowed: \(allowed)")
            #expect(pan.state == .changed)
        }
    }

    @Test func simultaneousRecognitionThroughTheHook() {
        let arena = GestureArena()
        let a = TapGestureRecognizer(name: "a")
        let b = TapGestureRecognizer(name: "b")
        arena.add(a)
        arena.add(b)
        arena.tap(10, 10, at: 0)
        #expect(a.state == .ended && b.state == .failed, "the first added wins")
        b.shouldRecognizeSimultaneously = { _, other in other === a }
        arena.tap(10, 10, at: 1)
        #expect(a.state == .ended && b.state == .ended)
    }

    @Test func aRecognizerCanRequireOneAddedAfterIt() {
        let arena = GestureArena()
        let press = LongPressGestureRecognizer()
        let pan = PanGestureRecognizer()
        pan.require(toFail: press)
        arena.add(pan)
        arena.add(press)
        let pans = StateLog(pan)
        // The finger moves: the press fails, the pan waiting on it begins.
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 100, 115, at: 0.05)
        #expect(press.state == .failed && pan.state == .began && pans.states == [.began])
        arena.up(1, at: 0.1)
        // The finger rests: the press is recognized, the pan fails even though it moved later.
        arena.down(1, 100, 100, at: 1)
        arena.tick(now: 1.6)
        arena.move(1, 100, 150, at: 1.7)
        #expect(press.state == .changed && pan.state == .failed)
    }

    /// A custom recognizer: fails at a fixed time unless told to recognize.
    final class Gate: GestureRecognizer {
        var failsAt: Double
        init(failsAt: Double) {
            self.failsAt = failsAt
            super.init(name: "gate")
        }
        override var deadline: Double? { state == .possible ? failsAt : nil }
        override func timeDidPass(to now: Double) { transition(to: .failed) }
    }

    @Test func aPanWaitingForARequirementKeepsItsMotions() {
        let arena = GestureArena()
        let gate = Gate(failsAt: 0.5)
        let pan = PanGestureRecognizer()
        pan.require(toFail: gate)
        arena.add(gate)
        arena.add(pan)
        let log = StateLog(pan)
        arena.down(1, 0, 0, at: 0)
        arena.move(1, 0, 20, at: 0.1)
        #expect(pan.isWaitingForFailureRequirements && log.states.isEmpty, "the gate may still recognize")
        arena.move(1, 0, 40, at: 0.2)
        #expect(pan.translation == Point(x: 0, y: 40) && log.states.isEmpty)
        arena.tick(now: 0.5)
        #expect(gate.state == .failed)
        #expect(pan.state == .began && log.states == [.began])
        arena.move(1, 0, 50, at: 0.6)
        #expect(pan.state == .changed && pan.translation == Point(x: 0, y: 50))
    }

    @Test func aPanThatEndsWhileWaitingBeginsAndEndsWhenGranted() {
        let arena = GestureArena()
        let gate = Gate(failsAt: 0.5)
        let pan = PanGestureRecognizer()
        pan.require(toFail: gate)
        arena.add(gate)
        arena.add(pan)
        let log = StateLog(pan)
        arena.down(1, 0, 0, at: 0)
        arena.move(1, 0, 20, at: 0.1)
        arena.up(1, at: 0.2)
        #expect(log.states.isEmpty && arena.nextDeadline == 0.5)
        arena.tick(now: 0.5)
        #expect(log.states == [.began, .ended])
    }

    @Test func aDeadlineThatIsIgnoredIsNotReportedAgain() {
        final class Stubborn: GestureRecognizer {
            override var deadline: Double? { 0.5 }
        }
        let arena = GestureArena()
        arena.add(Stubborn())
        arena.down(1, 0, 0, at: 0)
        #expect(arena.nextDeadline == 0.5)
        arena.tick(now: 0.5)
        #expect(arena.nextDeadline == nil, "a main loop arming a timer for it would spin")
    }

    @Test func cyclicRequirementsAreRefused() {
        let a = TapGestureRecognizer()
        let b = TapGestureRecognizer()
        let c = TapGestureRecognizer()
        #expect(a.require(toFail: b) && b.require(toFail: c))
        #expect(!c.require(toFail: a) && !a.require(toFail: a))
    }

    @Test func touchCancelMidPanLeavesNoStuckGesture() {
        let arena = GestureArena()
        let pan = PanGestureRecognizer()
        let (single, double) = (TapGestureRecognizer(), TapGestureRecognizer(numberOfTaps: 2))
        single.require(toFail: double)
        for r in [pan, single, double] { arena.add(r) }
        let pans = StateLog(pan)
        let singles = StateLog(single)
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 100, 150, at: 0.1)
        arena.move(1, 100, 160, at: 0.12)
        arena.cancel(at: 0.15)
        #expect(pan.state == .cancelled && pans.states == [.began, .changed, .cancelled])
        #expect(arena.liveTouches.isEmpty && arena.nextDeadline == nil)
        // Late events for the cancelled finger are ignored.
        arena.move(1, 100, 300, at: 0.2)
        arena.up(1, at: 0.25)
        #expect(pans.states == [.began, .changed, .cancelled])
        // The next finger starts clean: a pan, then a tap.
        arena.down(1, 100, 100, at: 1)
        arena.move(1, 100, 130, at: 1.1)
        arena.up(1, at: 1.2)
        #expect(pans.states.suffix(2) == [.began, .ended])
        arena.tap(100, 100, at: 2)
        arena.tick(now: 3)
        #expect(singles.states == [.ended])
    }

    @Test func touchCancelFailsATapWaitingForADoubleTap() {
        let (arena, single, double) = tapAndDoubleTap()
        arena.tap(100, 100, at: 0)
        arena.cancel(at: 0.1)
        arena.tick(now: 1)
        #expect(single.state == .failed && double.state == .failed, "nothing fires after a cancel")
    }

    @Test func touchesWithoutFrameEventsWork() {
        let arena = GestureArena()
        let pinch = PinchGestureRecognizer()
        arena.add(pinch)
        // cage never sends wl_touch.frame: every event takes effect on its own.
        arena.down(1, 100, 100, at: 0)
        arena.down(2, 200, 100, at: 0)
        arena.move(1, 50, 100, at: 0.01)
        #expect(pinch.state == .began && pinch.scale == 1.5)
        // A frame, when one does come, changes nothing.
        arena.handle(InputEvent(.touchFrame, time: 0.02))
        #expect(pinch.state == .began && pinch.scale == 1.5)
    }

    @Test func unknownTouchIdsAreIgnored() {
        let arena = GestureArena()
        let tap = TapGestureRecognizer()
        let pan = PanGestureRecognizer()
        arena.add(tap)
        arena.add(pan)
        arena.move(7, 300, 300, at: 0)
        arena.up(7, at: 0.01)
        #expect(arena.liveTouches.isEmpty)
        arena.down(1, 100, 100, at: 0.1)
        arena.move(9, 500, 500, at: 0.12)
        arena.up(9, at: 0.13)
        #expect(tap.state == .possible && pan.state == .possible)
        arena.up(1, at: 0.15)
        #expect(tap.state == .ended)
    }

    @Test func aRepeatedDownEndsTheStaleFinger() {
        let arena = GestureArena()
        let pan = PanGestureRecognizer()
        arena.add(pan)
        let log = StateLog(pan)
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 100, 200, at: 0.1)
        arena.down(1, 400, 400, at: 0.2)
        #expect(log.states == [.began, .ended] && arena.liveTouches.count == 1)
        arena.move(1, 400, 450, at: 0.3)
        #expect(pan.state == .began && pan.translation == Point(x: 0, y: 50))
    }

    @Test func losingTheTouchScreenCancelsTouchGestures() {
        let arena = GestureArena()
        let pan = PanGestureRecognizer()
        arena.add(pan)
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 100, 200, at: 0.1)
        arena.handle(InputEvent(.capabilitiesChanged([.pointer, .keyboard]), time: 0.2))
        #expect(pan.state == .cancelled && arena.liveTouches.isEmpty)
        // Regaining it starts clean.
        arena.handle(InputEvent(.capabilitiesChanged([.pointer, .keyboard, .touch]), time: 0.3))
        arena.down(2, 100, 100, at: 0.4)
        arena.move(2, 100, 130, at: 0.5)
        #expect(pan.state == .began)
    }

    @Test func thePointersLeftButtonIsAFinger() {
        let arena = GestureArena()
        let (single, double) = (TapGestureRecognizer(), TapGestureRecognizer(numberOfTaps: 2))
        let pan = PanGestureRecognizer()
        single.require(toFail: double)
        for r in [pan, double, single] { arena.add(r) }
        func button(_ pressed: Bool, _ t: Double, _ which: PointerButton = .left) {
            arena.handle(InputEvent(.pointerButton(which, isPressed: pressed), time: t))
        }
        arena.handle(InputEvent(.pointerEnter(location: Point(x: 50, y: 60)), time: 0))
        button(true, 0.1, .right)
        button(false, 0.15, .right)
        #expect(single.state == .possible && arena.liveTouches.isEmpty, "only the left button")
        button(true, 0.2)
        button(false, 0.25)
        button(true, 0.3)
        button(false, 0.35)
        #expect(double.state == .ended && double.location == Point(x: 50, y: 60))
        button(true, 1)
        arena.handle(InputEvent(.pointerMotion(location: Point(x: 50, y: 100)), time: 1.1))
        #expect(pan.state == .began && pan.translation == Point(x: 0, y: 40))
        arena.handle(InputEvent(.pointerLeave, time: 1.2))
        #expect(pan.state == .cancelled && arena.liveTouches.isEmpty)
    }

    @Test func disablingARecognizerLetsThoseWaitingOnItProceed() {
        let (arena, single, double) = tapAndDoubleTap()
        arena.tap(100, 100, at: 0)
        double.isEnabled = false
        #expect(single.state == .ended)
        arena.tap(100, 100, at: 1)
        arena.tap(100, 100, at: 1.1)
        #expect(double.state != .ended && single.state == .ended)
    }
}
