import LecternCore
import LecternLinux
import LecternTestSupport
import LecternWayland
import Logging
import Testing

/// `Display(awaitsBoundState:)`: the second round trip of a display's start waits for the first
/// events of what it bound (the output's mode, the seat's devices); without it they come with
/// the caller's next round trip, which also brings a new window's first configure.
@Suite("Display bound state", .serialized)
struct BoundStateTests {
    /// The loop's clock: the loop holds it unowned.
    private let clock = ManualClock(start: 0)

    @Test(
        "the bound objects' first events: awaited, a second round trip; else the window's first round trip brings them with its configure",
        arguments: [true, false])
    func boundState(awaited: Bool) throws {
        let compositor = try TestCompositor(outputWidth: 400, outputHeight: 300)
        defer { #expect(throws: Never.self) { try compositor.teardown() } }
        compositor.setSeatCapabilities([.touch, .pointer])
        var logger = Logger(label: "lectern.test.bound-state")
        logger.logLevel = .warning
        let display = try Display(
            name: "\(compositor.runtimeDirectory.path)/\(compositor.socketName)", loop: try EventLoop(clock: clock),
            logger: logger, whileWaiting: { compositor.dispatch(timeout: .milliseconds(1)) },
            awaitsBoundState: awaited)
        #expect(compositor.roundTrips == (awaited ? 2 : 1))
        #expect(display.outputSize?.width == (awaited ? 400 : nil))
        let devicesBefore: SeatDevices = awaited ? [.touch, .pointer] : []
        #expect(display.seat?.devices == devicesBefore)
        try withExtendedLifetime(display) {
            let window = XdgToplevel(display: display, title: "bound", appID: "lectern.test", logger: logger)
            try display.roundtrip()
            #expect(compositor.roundTrips == (awaited ? 3 : 2))
            #expect(window.isConfigured)
            #expect(window.size?.width == 400 && window.size?.height == 300)
            #expect(display.outputSize?.width == 400)
            #expect(display.seat?.devices == SeatDevices([.touch, .pointer]))
        }
    }
}
