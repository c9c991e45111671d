import LecternCore
import LecternTestSupport
import LecternWayland
import Testing

/// The seat as Lectern's reader sees it: a real `Display` against the in-process test
/// compositor, checking the exact `InputEvent`s delivered.
@Suite("Seat input", .serialized)
struct SeatInputTests {
    /// The `wl_seat` versions the tests run at: 8 sends the wheel as `axis_value120`, 5 to 7
    /// (cage 0.1.4 offers 7) as `axis_discrete`; `wl_pointer.frame` from 5.
    static let seatVersions: [Int32] = [5, 7, 8]

    // MARK: Touch

    @Test(
        "touch points go down, move and lift in surface coordinates, each frame closing its batch",
        arguments: seatVersions)
    func multiTouchWithFrames(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        #expect(c.touchDown(id: 1, x: 10.5, y: 20, time: 1000))
        #expect(c.touchDown(id: 2, x: 300, y: 250.25, time: 1000))
        #expect(c.touchFrame())
        #expect(c.touchMotion(id: 1, x: 12, y: 22.5, time: 1016))
        #expect(c.touchMotion(id: 2, x: 298, y: 249, time: 1016))
        #expect(c.touchFrame())
        #expect(c.touchUp(id: 1, time: 1032))
        #expect(c.touchFrame())
        #expect(c.touchUp(id: 2, time: 1048))
        #expect(c.touchFrame())
        #expect(seat.run { seat.events.count == 10 })
        try seat.sync()
        #expect(
            seat.take() == [
                InputEvent(.touchDown(id: 1, location: pt(10.5, 20)), time: 1.0),
                InputEvent(.touchDown(id: 2, location: pt(300, 250.25)), time: 1.0),
                InputEvent(.touchFrame, time: 1.0),
                InputEvent(.touchMotion(id: 1, location: pt(12, 22.5)), time: 1.016),
                InputEvent(.touchMotion(id: 2, location: pt(298, 249)), time: 1.016),
                InputEvent(.touchFrame, time: 1.016),
                InputEvent(.touchUp(id: 1), time: 1.032),
                InputEvent(.touchFrame, time: 1.032),
                InputEvent(.touchUp(id: 2), time: 1.048),
                InputEvent(.touchFrame, time: 1.048),
            ])
        try seat.finish()
    }

    @Test("without frame events (cage 0.1.4) every touch event is delivered on its own", arguments: seatVersions)
    func touchWithoutFrames(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.touchDown(id: 7, x: 40, y: 50, time: 500)
        #expect(seat.run { seat.events.count == 1 })
        #expect(seat.takeKinds() == [.touchDown(id: 7, location: pt(40, 50))])
        c.touchMotion(id: 7, x: 60, y: 70, time: 520)
        #expect(seat.run { seat.events.count == 1 })
        #expect(seat.takeKinds() == [.touchMotion(id: 7, location: pt(60, 70))])
        c.touchUp(id: 7, time: 540)
        #expect(seat.run { seat.events.count == 1 })
        #expect(seat.take() == [InputEvent(.touchUp(id: 7), time: 0.54)])
        seat.roundtrip()
        #expect(seat.events.isEmpty, "no frame is invented")
        try seat.finish()
    }

    @Test("a frame that comes after its events were delivered still closes them, once", arguments: seatVersions)
    func lateFrame(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.touchDown(id: 1, x: 1, y: 2)
        #expect(seat.run { seat.events.count == 1 })
        c.touchFrame()
        c.touchFrame()  // a frame with nothing in it
        try seat.sync()
        #expect(seat.takeKinds() == [.touchDown(id: 1, location: pt(1, 2)), .touchFrame])
        try seat.finish()
    }

    @Test("cancel ends every point; later points start clean and stale ids are ignored", arguments: seatVersions)
    func cancel(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.touchDown(id: 1, x: 10, y: 10)
        c.touchDown(id: 2, x: 20, y: 20)
        c.touchFrame()
        c.touchCancel()
        // Events for points the cancel ended are not ours any more.
        c.touchMotion(id: 1, x: 11, y: 11)
        c.touchUp(id: 2)
        c.touchDown(id: 1, x: 30, y: 30)
        c.touchUp(id: 1)
        c.touchFrame()
        try seat.sync()
        #expect(
            seat.takeKinds() == [
                .touchDown(id: 1, location: pt(10, 10)), .touchDown(id: 2, location: pt(20, 20)), .touchFrame,
                .touchCancel,
                .touchDown(id: 1, location: pt(30, 30)), .touchUp(id: 1), .touchFrame,
            ])
        try seat.finish()
    }

    // MARK: Pointer

    @Test("pointer enter, motion, buttons, wheel and leave", arguments: seatVersions)
    func pointer(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.pointerMotion(x: 1, y: 1)  // before enter: not over Lectern
        c.pointerFrame()
        c.pointerEnter(x: 5, y: 6)
        c.pointerFrame()
        c.pointerMotion(x: 7.5, y: 8, time: 2000)
        c.pointerButton(0x110, pressed: true, time: 2010)
        c.pointerFrame()
        // One wheel detent down with a horizontal component: one scroll.
        c.pointerAxis(.vertical, value: 15, value120: 120, source: 0, time: 2020)
        c.pointerAxis(.horizontal, value: -7.5, time: 2020)
        c.pointerFrame()
        c.pointerButton(0x110, pressed: false, time: 2030)
        c.pointerButton(0x111, pressed: true, time: 2040)
        c.pointerButton(0x111, pressed: false, time: 2050)
        c.pointerFrame()
        c.pointerLeave()
        c.pointerFrame()
        c.pointerMotion(x: 2, y: 2)  // after leave: ignored
        c.pointerFrame()
        try seat.sync()
        #expect(
            seat.take() == [
                InputEvent(.pointerEnter(location: pt(5, 6)), time: 0),
                InputEvent(.pointerMotion(location: pt(7.5, 8)), time: 2.0),
                InputEvent(.pointerButton(.left, isPressed: true), time: 2.01),
                InputEvent(.scroll(delta: pt(-7.5, 15), steps: pt(0, 1)), time: 2.02),
                InputEvent(.pointerButton(.left, isPressed: false), time: 2.03),
                InputEvent(.pointerButton(.right, isPressed: true), time: 2.04),
                InputEvent(.pointerButton(.right, isPressed: false), time: 2.05),
                InputEvent(.pointerLeave, time: 2.05),
            ])
        try seat.finish()
    }

    @Test(
        "touchpad scrolling has no steps; half a detent is half a step; each frame is one scroll",
        arguments: seatVersions)
    func scrollSteps(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.pointerEnter(x: 0, y: 0)
        c.pointerFrame()
        c.pointerAxis(.vertical, value: 3.5, source: 1)  // finger
        c.pointerFrame()
        c.pointerAxis(.vertical, value: 2, source: 1)
        c.pointerFrame()
        c.pointerAxis(.vertical, value: -7.5, value120: -60, source: 0)
        c.pointerFrame()
        try seat.sync()
        // Before version 8 half a detent has no axis_discrete: the compositor sends the axis only.
        #expect(
            seat.takeKinds() == [
                .pointerEnter(location: pt(0, 0)),
                .scroll(delta: pt(0, 3.5), steps: nil),
                .scroll(delta: pt(0, 2), steps: nil),
                .scroll(delta: pt(0, -7.5), steps: seatVersion >= 8 ? pt(0, -0.5) : nil),
            ])
        try seat.finish()
    }

    @Test(
        "a wheel detent is one step: axis_discrete before version 8, axis_value120 (120 a detent) from 8",
        arguments: seatVersions)
    func wheelDetents(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.pointerEnter(x: 0, y: 0)
        c.pointerFrame()
        // Two detents at once (a fast wheel), then one back, then one sideways.
        c.pointerAxis(.vertical, value: 30, value120: 240, source: 0, time: 100)
        c.pointerFrame()
        c.pointerAxis(.vertical, value: -15, value120: -120, source: 0, time: 120)
        c.pointerFrame()
        c.pointerAxis(.horizontal, value: 15, value120: 120, source: 0, time: 140)
        c.pointerFrame()
        try seat.sync()
        #expect(
            seat.take() == [
                InputEvent(.pointerEnter(location: pt(0, 0)), time: 0),
                InputEvent(.scroll(delta: pt(0, 30), steps: pt(0, 2)), time: 0.1),
                InputEvent(.scroll(delta: pt(0, -15), steps: pt(0, -1)), time: 0.12),
                InputEvent(.scroll(delta: pt(15, 0), steps: pt(1, 0)), time: 0.14),
            ])
        try seat.finish()
    }

    @Test("a high-resolution wheel (version 8) moves in parts of a step, 120 units a step")
    func highResolutionWheel() throws {
        let seat = try SeatHarness(seatVersion: 8)
        let c = seat.compositor
        c.pointerEnter(x: 0, y: 0)
        c.pointerFrame()
        for _ in 0..<4 {
            c.pointerAxis(.vertical, value: 3.75, value120: 30, source: 0)
            c.pointerFrame()
        }
        try seat.sync()
        #expect(
            seat.takeKinds() == [.pointerEnter(location: pt(0, 0))]
                + Array(repeating: .scroll(delta: pt(0, 3.75), steps: pt(0, 0.25)), count: 4))
        try seat.finish()
    }

    @Test("leaving with a button held releases it first", arguments: seatVersions)
    func leaveReleasesButtons(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.pointerEnter(x: 5, y: 5)
        c.pointerButton(0x110, pressed: true)
        c.pointerFrame()
        c.pointerLeave()
        c.pointerFrame()
        try seat.sync()
        #expect(
            seat.takeKinds() == [
                .pointerEnter(location: pt(5, 5)), .pointerButton(.left, isPressed: true),
                .pointerButton(.left, isPressed: false), .pointerLeave,
            ])
        try seat.finish()
    }

    // MARK: Keyboard

    @Test("keys resolve through the compositor's xkb keymap and modifiers", arguments: seatVersions)
    func keys(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.keyboardRepeatInfo(rate: 0, delay: 0)
        c.keyboardKey(103, pressed: true)  // before enter: not for Lectern
        c.keyboardKey(103, pressed: false)
        c.keyboardEnter()
        // (evdev codes) up, page down, keypad +, =, -, 1, Home, End, Escape, Return
        for (time, key) in zip(UInt32(3000)..., [103, 109, 78, 13, 12, 2, 102, 107, 1, 28] as [UInt32]) {
            c.keyboardKey(key, pressed: true, time: time)
            c.keyboardKey(key, pressed: false, time: time)
        }
        c.keyboardModifiers(depressed: 1)  // Shift
        c.keyboardKey(2, pressed: true, time: 4000)  // Shift+1: '!'
        c.keyboardKey(2, pressed: false, time: 4001)
        c.keyboardModifiers(depressed: 0)
        c.keyboardKey(2, pressed: true, time: 4002)
        try seat.sync()
        let events = seat.take()
        #expect(
            events.map(\.kind) == [
                .key(.up, isRepeat: false), .key(.pageDown, isRepeat: false), .key(.plus, isRepeat: false),
                .key(.plus, isRepeat: false), .key(.minus, isRepeat: false), .key(.digit(1), isRepeat: false),
                .key(.home, isRepeat: false), .key(.end, isRepeat: false), .key(.escape, isRepeat: false),
                .key(.enter, isRepeat: false), .key(.other(0x21), isRepeat: false), .key(.digit(1), isRepeat: false),
            ])
        #expect(events.first?.time == 3.0)
        #expect(events.last?.time == 4.002)
        c.keyboardLeave()
        c.keyboardKey(103, pressed: true)  // after leave: not for Lectern
        try seat.sync()
        #expect(seat.events.isEmpty)
        try seat.finish()
    }

    @Test("the keypad's five-key navigation keys are keypad digits with Num Lock off or on; its 7 is Home without")
    func keypadKeys() throws {
        let seat = try SeatHarness(seatVersion: TestCompositor.newestSeatVersion)
        let c = seat.compositor
        c.keyboardRepeatInfo(rate: 0, delay: 0)
        c.keyboardEnter()
        // (evdev codes) KP8, KP2, KP4, KP6, KP5, KP0, KP7, KP*: Num Lock off.
        let codes: [UInt32] = [72, 80, 75, 77, 76, 82, 71, 55]
        for (time, key) in zip(UInt32(3000)..., codes) {
            c.keyboardKey(key, pressed: true, time: time)
            c.keyboardKey(key, pressed: false, time: time)
        }
        c.keyboardModifiers(depressed: 0, locked: 16)  // Num Lock (Mod2) on
        for (time, key) in zip(UInt32(4000)..., [72, 71] as [UInt32]) {
            c.keyboardKey(key, pressed: true, time: time)
            c.keyboardKey(key, pressed: false, time: time)
        }
        try seat.sync()
        #expect(
            seat.take().map(\.kind) == [
                .key(.keypad(8), isRepeat: false), .key(.keypad(2), isRepeat: false), .key(.keypad(4), isRepeat: false),
                .key(.keypad(6), isRepeat: false), .key(.keypad(5), isRepeat: false), .key(.keypad(0), isRepeat: false),
                .key(.home, isRepeat: false), .key(.other(0xFFAA), isRepeat: false),
                .key(.keypad(8), isRepeat: false), .key(.keypad(7), isRepeat: false),
            ])
        try seat.finish()
    }

    @Test("a held key repeats at the compositor's delay and rate until released", arguments: seatVersions)
    func keyRepeat(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.keyboardRepeatInfo(rate: 50, delay: 40)  // first after 40 ms, then every 20 ms
        c.keyboardEnter()
        c.keyboardKey(108, pressed: true, time: 10_000)  // down arrow
        try seat.sync()
        seat.advance(by: 0.085)  // repeats at 40, 60 and 80 ms
        #expect(seat.events.count == 4)
        c.keyboardKey(108, pressed: false)
        try seat.sync()
        let events = seat.take()
        #expect(events.first == InputEvent(.key(.down, isRepeat: false), time: 10))
        #expect(events.dropFirst().allSatisfy { $0.kind == .key(.down, isRepeat: true) })
        let repeatTimes = events.dropFirst().prefix(3).map(\.time)
        #expect(zip(repeatTimes, [10.04, 10.06, 10.08]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(repeatTimes)")
        seat.advance(by: 0.15)
        #expect(seat.events.isEmpty, "repeat stops at release")
        try seat.finish()
    }

    @Test("leaving the surface stops the repeat; keys that do not repeat never do", arguments: seatVersions)
    func repeatStopsAtLeave(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.keyboardRepeatInfo(rate: 100, delay: 20)
        c.keyboardEnter()
        c.keyboardKey(42, pressed: true)  // Shift: xkb says modifiers do not repeat
        try seat.sync()
        seat.advance(by: 0.1)
        #expect(seat.takeKinds() == [.key(.other(0xFFE1), isRepeat: false)])
        c.keyboardKey(42, pressed: false)
        c.keyboardKey(104, pressed: true)  // page up
        try seat.sync()
        seat.advance(by: 0.025)  // the first repeat at 20 ms
        #expect(seat.events.count == 2)
        c.keyboardLeave()
        try seat.sync()
        _ = seat.take()
        seat.advance(by: 0.1)
        #expect(seat.events.isEmpty)
        try seat.finish()
    }

    @Test("a keymap that does not compile is ignored and the previous one stays", arguments: seatVersions)
    func badKeymap(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.keyboardRepeatInfo(rate: 0, delay: 0)
        #expect(c.keyboardKeymap("xkb_keymap { this is not a keymap"))
        #expect(c.keyboardKeymap("", format: 0))  // no_keymap
        c.keyboardEnter()
        c.keyboardKey(103, pressed: true)
        try seat.sync()
        #expect(seat.takeKinds() == [.key(.up, isRepeat: false)])
        try seat.finish()
    }

    // MARK: Capabilities

    @Test("losing touch with a finger down cancels it; touch coming back works afresh", arguments: seatVersions)
    func touchCapabilityChanges(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.touchDown(id: 3, x: 10, y: 10)
        #expect(seat.run { seat.events.count == 1 })
        c.setSeatCapabilities([.pointer, .keyboard])
        #expect(seat.run { c.touchResourceCount == 0 })
        try seat.sync()
        #expect(
            seat.takeKinds() == [
                .touchDown(id: 3, location: pt(10, 10)), .touchCancel, .capabilitiesChanged([.pointer, .keyboard]),
            ])
        #expect(seat.display.seat?.devices == [.pointer, .keyboard])
        c.setSeatCapabilities([.pointer, .keyboard, .touch])
        #expect(seat.run { c.touchResourceCount == 1 })
        c.touchDown(id: 3, x: 20, y: 20)
        c.touchUp(id: 3)
        try seat.sync()
        #expect(
            seat.takeKinds() == [
                .capabilitiesChanged([.pointer, .keyboard, .touch]), .touchDown(id: 3, location: pt(20, 20)),
                .touchUp(id: 3),
            ])
        #expect(c.protocolErrors.isEmpty)
        try seat.finish()
    }

    @Test(
        "losing the pointer with a button held releases it and leaves; losing the keyboard stops repeat",
        arguments: seatVersions)
    func pointerAndKeyboardCapabilityLoss(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.keyboardRepeatInfo(rate: 100, delay: 20)
        c.pointerEnter(x: 1, y: 1)
        c.pointerButton(0x110, pressed: true)
        c.pointerFrame()
        c.keyboardEnter()
        c.keyboardKey(103, pressed: true)
        try seat.sync()
        seat.advance(by: 0.025)  // the first repeat at 20 ms
        #expect(seat.events.contains { $0.kind == .key(.up, isRepeat: true) })
        c.setSeatCapabilities([])
        #expect(seat.run { c.pointerResourceCount == 0 && c.keyboardResourceCount == 0 && c.touchResourceCount == 0 })
        try seat.sync()
        let kinds = seat.takeKinds().filter { $0 != .key(.up, isRepeat: true) }
        #expect(
            kinds == [
                .pointerEnter(location: pt(1, 1)), .pointerButton(.left, isPressed: true), .key(.up, isRepeat: false),
                .pointerButton(.left, isPressed: false), .pointerLeave, .capabilitiesChanged([]),
            ])
        seat.advance(by: 0.1)
        #expect(seat.events.isEmpty, "no repeat without a keyboard")
        #expect(c.protocolErrors.isEmpty)
        try seat.finish()
    }

    @Test("the seat global going away ends its devices", arguments: seatVersions)
    func seatGlobalRemoved(seatVersion: Int32) throws {
        let seat = try SeatHarness(seatVersion: seatVersion)
        let c = seat.compositor
        c.touchDown(id: 1, x: 5, y: 5)
        c.touchFrame()
        c.removeSeatGlobal()
        #expect(seat.run { seat.display.seat == nil })
        try seat.sync()
        #expect(
            seat.takeKinds() == [
                .touchDown(id: 1, location: pt(5, 5)), .touchFrame, .touchCancel, .capabilitiesChanged([]),
            ])
        #expect(seat.run { c.touchResourceCount == 0 })
        try seat.finish()
    }

    @Test("no seat at all (weston headless): the display, window and loop work and nothing arrives")
    func noSeat() throws {
        let seat = try SeatHarness(capabilities: nil)
        #expect(seat.display.seat == nil)
        #expect(seat.window.isConfigured)
        seat.roundtrip()
        #expect(seat.events.isEmpty)
        try seat.finish()
    }
}
