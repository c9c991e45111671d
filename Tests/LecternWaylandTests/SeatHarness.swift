import LecternCore
import LecternTestSupport
import LecternWayland
import Logging
import Testing

/// A real `Display` with its fullscreen toplevel and `EventLoop`, connected to a
/// `TestCompositor` in this process and driven in lock step on the test's thread; every
/// `InputEvent` the display delivers is recorded.
final class SeatHarness {
    let compositor: TestCompositor
    let display: Display
    let window: XdgToplevel
    let loop: EventLoop
    /// Everything `Display.onInput` received, oldest first.
    private(set) var events: [InputEvent] = []

    /// - Parameters:
    ///   - capabilities: the seat's devices from the start; nil: no seat global at all.
    init(capabilities: SeatCapabilities? = [.touch, .pointer, .keyboard]) throws {
        let compositor = try TestCompositor(outputWidth: 400, outputHeight: 300)
        self.compositor = compositor
        if let capabilities { compositor.setSeatCapabilities(capabilities) } else { compositor.removeSeatGlobal() }
        var logger = Logger(label: "lectern.test.seat")
        logger.logLevel = .warning
        display = try Display(
            name: "\(compositor.runtimeDirectory.path)/\(compositor.socketName)", logger: logger,
            whileWaiting: { compositor.dispatch(timeout: .milliseconds(1)) })
        window = XdgToplevel(display: display, title: "seat", appID: "lectern.test", logger: logger)
        loop = EventLoop(display: display)
        display.onInput = { [unowned self] event in events.append(event) }
        try display.roundtrip()
        #expect(window.isConfigured)
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
            do { try loop.runOnce(timeout: 0) } catch { Issue.record("event loop: \(error)") }
            return condition()
        }
    }

    /// Runs the loop for `duration` (to see that nothing more arrives).
    func idle(for duration: Duration) {
        run(timeout: duration) { false }
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
