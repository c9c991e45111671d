import Testing

@testable import LecternCore

/// Each recognizer's state machine, alone in an arena.
@Suite("Gesture recognizers")
struct GestureRecognizerTests {
    @Test func aTapIsRecognizedWhenTheFingerLifts() {
        let arena = GestureArena()
        let tap = TapGestureRecognizer()
        let log = StateLog(tap)
        arena.add(tap)
        arena.down(1, 100, 100, at: 0)
        #expect(tap.state == .possible && log.states.isEmpty)
        arena.move(1, 105, 103, at: 0.05)
        arena.up(1, at: 0.1)
        #expect(tap.state == .ended && log.states == [.ended])
        #expect(tap.location == Point(x: 100, y: 100))
    }

    @Test func aTapFailsWhenTheFingerMovesOrStaysTooLong() {
        let arena = GestureArena()
        let tap = TapGestureRecognizer()
        arena.add(tap)
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 130, 100, at: 0.05)
        #expect(tap.state == .failed)
        arena.up(1, at: 0.1)
        #expect(tap.state == .failed)
        arena.down(2, 100, 100, at: 1)
        #expect(tap.state == .possible, "the next finger starts clean")
        #expect(arena.nextDeadline == 1 + tap.maximumTapDuration)
        arena.tick(now: 1 + tap.maximumTapDuration)
        #expect(tap.state == .failed, "held too long for a tap")
    }

    @Test func aDoubleTapNeedsTheSecondTapInsideTheWindow() {
        let arena = GestureArena()
        let double = TapGestureRecognizer(numberOfTaps: 2)
        let log = StateLog(double)
        arena.add(double)
        arena.tap(100, 100, at: 0)
        #expect(double.state == .possible && double.tapsCompleted == 1)
        #expect(arena.nextDeadline == 0.05 + double.maximumTapInterval)
        arena.tap(104, 98, at: 0.2)
        #expect(double.state == .ended && log.states == [.ended])

        // Too slow: the window expires on a tick, with no event at all.
        arena.tap(100, 100, at: 1)
        arena.tick(now: 1.2)
        #expect(double.state == .possible)
        arena.tick(now: 1.05 + double.maximumTapInterval)
        #expect(double.state == .failed && arena.nextDeadline == nil)
        #expect(log.states == [.ended])
    }

    @Test func aLateSecondTapStartsANewDoubleTap() {
        let arena = GestureArena()
        let double = TapGestureRecognizer(numberOfTaps: 2)
        arena.add(double)
        arena.tap(100, 100, at: 0)
        // The second tap comes after the window; the event's own time expires it.
        arena.tap(100, 100, at: 0.5)
        #expect(double.state == .possible && double.tapsCompleted == 1)
        arena.tap(100, 100, at: 0.7)
        #expect(double.state == .ended)
    }

    @Test func aSecondTapFarAwayIsAFirstTap() {
        let arena = GestureArena()
        let double = TapGestureRecognizer(numberOfTaps: 2)
        arena.add(double)
        arena.tap(100, 100, at: 0)
        arena.tap(300, 100, at: 0.15)
        #expect(double.state == .possible && double.tapsCompleted == 1, "the far tap began a new double tap")
        arena.tap(302, 100, at: 0.3)
        #expect(double.state == .ended && double.location == Point(x: 300, y: 100))
    }

    @Test func aTwoFingerTapNeedsExactlyTwoFingers() {
        let arena = GestureArena()
        let two = TapGestureRecognizer(numberOfTaps: 1, numberOfTouches: 2)
        arena.add(two)
        arena.tap(100, 100, at: 0)
        #expect(two.state == .failed, "one finger is not enough")
        arena.down(1, 100, 100, at: 1)
        arena.down(2, 200, 100, at: 1.02)
        arena.up(1, at: 1.1)
        #expect(two.state == .possible)
        arena.up(2, at: 1.12)
        #expect(two.state == .ended && two.location == Point(x: 150, y: 100))
        arena.down(1, 100, 100, at: 2)
        arena.down(2, 200, 100, at: 2.01)
        arena.down(3, 300, 100, at: 2.02)
        #expect(two.state == .failed, "three are too many")
        arena.up(1, at: 2.1)
        arena.up(2, at: 2.1)
        arena.up(3, at: 2.1)
        // A finger added after one lifted is a different gesture.
        arena.down(1, 100, 100, at: 3)
        arena.up(1, at: 3.05)
        arena.down(2, 200, 100, at: 3.06)
        #expect(two.state != .ended)
    }

    @Test func aTwoFingerDoubleTap() {
        let arena = GestureArena()
        let recognizer = TapGestureRecognizer(numberOfTaps: 2, numberOfTouches: 2)
        arena.add(recognizer)
        for start in [0.0, 0.2] {
            arena.down(1, 100, 100, at: start)
            arena.down(2, 140, 100, at: start + 0.01)
            #expect(recognizer.state == .possible)
            arena.up(1, at: start + 0.05)
            arena.up(2, at: start + 0.06)
        }
        #expect(recognizer.state == .ended)
    }

    @Test func aLongPressBeginsAfterItsDurationAndFollowsTheFinger() {
        let arena = GestureArena()
        let press = LongPressGestureRecognizer()
        let log = StateLog(press)
        arena.add(press)
        arena.down(1, 100, 100, at: 10)
        #expect(arena.nextDeadline == 10.5)
        arena.tick(now: 10.4)
        #expect(press.state == .possible)
        arena.tick(now: 10.5)
        #expect(press.state == .began)
        arena.move(1, 150, 100, at: 10.6)
        #expect(press.state == .changed && press.location == Point(x: 150, y: 100))
        arena.up(1, at: 10.7)
        #expect(log.states == [.began, .changed, .ended])
    }

    @Test func aLongPressFailsWhenTheFingerMovesOrLiftsEarly() {
        let arena = GestureArena()
        let press = LongPressGestureRecognizer()
        arena.add(press)
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 100, 130, at: 0.2)
        #expect(press.state == .failed)
        arena.up(1, at: 0.3)
        arena.down(1, 100, 100, at: 1)
        arena.up(1, at: 1.2)
        #expect(press.state == .failed && arena.nextDeadline == nil)
        // A motion event after the duration is late news: time passes first, so it begins.
        arena.down(1, 100, 100, at: 2)
        arena.move(1, 101, 100, at: 2.6)
        #expect(press.state == .changed)
    }

    @Test func aPanFollowsTheFingerAndEstimatesItsVelocity() {
        let arena = GestureArena()
        let pan = PanGestureRecognizer()
        let log = StateLog(pan)
        arena.add(pan)
        arena.down(1, 100, 500, at: 0)
        arena.move(1, 100, 495, at: 0.01)
        #expect(pan.state == .possible, "under the minimum distance")
        // 1000 px/s upwards, sampled at uneven intervals with whole-pixel jitter.
        var t = 0.01
        for (i, dt) in [0.008, 0.012, 0.009, 0.011, 0.008, 0.012, 0.010, 0.010].enumerated() {
            t += dt
            let jitter = i % 2 == 0 ? 1.0 : -1.0
            arena.move(1, 100, 500 - 1000 * t + jitter, at: t)
        }
        #expect(pan.state == .changed)
        #expect(abs(pan.translation.y - (-1000 * t - 1)) < 1e-9)
        arena.up(1, at: t + 0.005)
        #expect(pan.state == .ended && log.states.first == .began && log.states.last == .ended)
        #expect(abs(pan.velocity.y + 1000) < 60, "\(pan.velocity)")
        #expect(abs(pan.velocity.x) < 1e-9)
    }

    @Test func aFingerThatRestsBeforeLiftingHasNoVelocity() {
        let arena = GestureArena()
        let pan = PanGestureRecognizer()
        arena.add(pan)
        arena.down(1, 100, 100, at: 0)
        for i in 1...10 { arena.move(1, 100 + 20 * Double(i), 100, at: 0.01 * Double(i)) }
        #expect(pan.velocity.x > 1500)
        arena.up(1, at: 0.4)
        #expect(pan.velocity == .zero)
    }

    @Test func aSecondFingerDoesNotMakeThePanJump() {
        let arena = GestureArena()
        let pan = PanGestureRecognizer()
        arena.add(pan)
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 100, 150, at: 0.1)
        #expect(pan.translation == Point(x: 0, y: 50))
        arena.down(2, 300, 100, at: 0.2)
        #expect(pan.translation == Point(x: 0, y: 50))
        arena.move(2, 300, 120, at: 0.3)
        #expect(pan.translation == Point(x: 0, y: 60), "the centroid moved 10")
        arena.up(1, at: 0.4)
        #expect(pan.state == .changed && pan.translation == Point(x: 0, y: 60))
        arena.move(2, 300, 130, at: 0.5)
        #expect(pan.translation == Point(x: 0, y: 70))
    }

    @Test func aPinchMeasuresScaleAndFocalPoint() {
        let arena = GestureArena()
        let pinch = PinchGestureRecognizer()
        let log = StateLog(pinch)
        arena.add(pinch)
        arena.down(1, 100, 100, at: 0)
        arena.down(2, 200, 100, at: 0.01)
        #expect(pinch.state == .possible && pinch.focalPoint == Point(x: 150, y: 100))
        arena.move(2, 205, 100, at: 0.02)
        #expect(pinch.state == .possible, "under the minimum change")
        arena.move(1, 50, 100, at: 0.03)
        arena.move(2, 250, 100, at: 0.04)
        #expect(pinch.state == .changed || pinch.state == .began)
        #expect(pinch.scale == 2 && pinch.focalPoint == Point(x: 150, y: 100))
        arena.move(1, 100, 200, at: 0.05)
        arena.move(2, 150, 200, at: 0.06)
        #expect(pinch.scale == 0.5 && pinch.focalPoint == Point(x: 125, y: 200))
        arena.up(2, at: 0.07)
        #expect(pinch.state == .ended && log.states.first == .began && log.states.last == .ended)
        #expect(log.states.filter { $0 == .ended }.count == 1)
    }

    @Test func aSingleFingerIsNoPinch() {
        let arena = GestureArena()
        let pinch = PinchGestureRecognizer()
        arena.add(pinch)
        arena.down(1, 100, 100, at: 0)
        arena.move(1, 300, 100, at: 0.1)
        #expect(pinch.state == .possible)
        arena.up(1, at: 0.2)
        #expect(pinch.state == .failed)
    }
}
