import LecternCore
import LecternLinux
import LecternTestSupport
import LecternWayland
import Logging
import Testing

/// A real `Display` with its fullscreen toplevel and `EventLoop`, connected to a
/// `TestCompositor` in this process and driven in lock step on the test's thread, on a manual
/// clock (key repeat runs on it); every `InputEvent` the display delivers is recorded.
final class SeatHarness {
    let compositor: TestCompositor
    let clock = ManualClock(start: 100)
    let loop: EventLoop
    let display: Display
    let window: XdgToplevel
    /// Everything `Display.onInput` received, oldest first.
    private(set) var events: [InputEvent] = []

    /// - Parameters:
    ///   - capabilities: the seat's devices from the start; nil: no seat global at all.
    ///   - seatVersion: the `wl_seat` version the compositor offers.
    init(
        capabilities: SeatCapabilities? = [.touch, .pointer, .keyboard],
        seatVersion: Int32 = TestCompositor.newestSeatVersion
    ) throws {
        let compositor = try TestCompositor(outputWidth: 400, outputHeight: 300, seatVersion: seatVersion)
        self.compositor = compositor
        if let capabilities { compositor.setSeatCapabilities(capabilities) } else { compositor.removeSeatGlobal() }
        var logger = Logger(label: "lectern.test.seat")
        logger.logLevel = .warning
        loop = try EventLoop(clock: clock)
        display = try Display(
            name: "\(compositor.runtimeDirectory.path)/\(compositor.socketName)", loop: loop, logger: logger,
            whileWaiting: { compositor.dispatch(timeout: .milliseconds(1)) })
        window = XdgToplevel(display: display, title: "seat", appID: "lectern.test", logger: logger)
        display.onInput = { [unowned self] event in events.append(event) }
        try display.roundtrip()
        #expect(window.isConfigured)
        if capabilities != nil {
            #expect(display.seat?.version == UInt32(seatVersion), "Lectern binds the version offered")
        }
        let devices = capabilities ?? []
        #expect(
            run {
                compositor.touchResourceCount == (devices.contains(.touch) ? 1 : 0)
                    && compositor.pointerResourceCount == (devices.contains(.pointer) ? 1 : 0)
                    && compositor.keyboardResourceCount == (devices.contains(.keyboard) ? 1 : 0)
            })
        events.removeAll()
    }

    /// Alternates one non-blocking turn of the client's event loop and one compositor dispatch
    /// until `condition` holds; false after `timeout`.
    @discardableResult
    func run(timeout: Duration = .seconds(5), until condition: () -> Bool) -> Bool {
        compositor.wait(timeout: timeout) {
            do { try loop.runOnce(timeout: .zero) } catch { Issue.record("event loop: \(error)") }
            return condition()
        }
    }

    /// A round trip with the compositor, then a turn of the loop: everything the compositor
    /// sent so far has been delivered (to see that nothing more arrives, without waiting).
    func roundtrip() {
        do { try display.roundtrip() } catch { Issue.record("round trip: \(error)") }
        do { try loop.runOnce(timeout: .zero) } catch { Issue.record("event loop: \(error)") }
    }

    /// Moves the manual clock on by `seconds` in steps of a millisecond, turning the loop at
    /// each step (timers such as key repeat fire on time).
    func advance(by seconds: Double) {
        let steps = Int((seconds * 1000).rounded())
        for _ in 0..<steps {
            clock.advance(by: 0.001)
            do { try loop.runOnce(timeout: .zero) } catch { Issue.record("event loop: \(error)") }
        }
    }

    /// Waits until everything the compositor sent so far was dispatched and delivered.
    func sync() throws {
        try display.roundtrip()
    }

    /// The kinds received so far; forgets them.
    func takeKinds() -> [InputEvent.Kind] {
        defer { events.removeAll() }
        return events.map(\.kind)
    }

    /// The events received so far; forgets them.
    func take() -> [InputEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Disconnects and checks the compositor ends clean.
    func finish() throws {
        display.onInput = nil
        try compositor.teardown()
    }
}

/// `Point` for short expectations.
func pt(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
