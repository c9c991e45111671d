import Glibc
import LecternCore
import LecternLinux
import LecternTestSupport
import LecternWayland
import Logging
import Testing

/// `Display.connectEarly(name:)`: the connection made at the top of the start is the one the
/// display takes, with the globals it asked for; one made for another socket is not used.
@Suite("Early connection", .serialized)
struct EarlyConnectionTests {
    /// The loop's clock: the loop holds it unowned.
    private let clock = ManualClock(start: 0)

    private func display(_ compositor: TestCompositor, name: String) throws -> Display {
        var logger = Logger(label: "lectern.test.early")
        logger.logLevel = .warning
        return try Display(
            name: name, loop: try EventLoop(clock: clock), logger: logger,
            whileWaiting: { compositor.dispatch(timeout: .milliseconds(1)) })
    }

    @Test("the display takes the connection made early: one client, its globals bound, a window configured")
    func taken() throws {
        let compositor = try TestCompositor(outputWidth: 400, outputHeight: 300)
        defer { #expect(throws: Never.self) { try compositor.teardown() } }
        let name = "\(compositor.runtimeDirectory.path)/\(compositor.socketName)"
        Display.connectEarly(name: name)
        // The compositor answers the early requests before the display is made.
        #expect(compositor.wait(timeout: .seconds(5)) { compositor.clientCount == 1 })
        let display = try display(compositor, name: name)
        #expect(compositor.clientCount == 1, "no second connection")
        #expect(display.outputSize?.width == 400)
        // The window holds its display unowned: the display lives until the window is gone.
        try withExtendedLifetime(display) {
            let window = XdgToplevel(
                display: display, title: "early", appID: "lectern.test", logger: Logger(label: "early"))
            try display.roundtrip()
            #expect(window.isConfigured)
        }
    }

    @Test("a connection made early for another socket is closed, and the display connects itself")
    func otherName() throws {
        let compositor = try TestCompositor(outputWidth: 400, outputHeight: 300)
        let other = try TestCompositor(outputWidth: 200, outputHeight: 100)
        defer {
            #expect(throws: Never.self) { try compositor.teardown() }
            #expect(throws: Never.self) { try other.teardown() }
        }
        Display.connectEarly(name: "\(other.runtimeDirectory.path)/\(other.socketName)")
        #expect(other.wait(timeout: .seconds(5)) { other.clientCount == 1 })
        let display = try display(compositor, name: "\(compositor.runtimeDirectory.path)/\(compositor.socketName)")
        #expect(display.outputSize?.width == 400)
        #expect(other.wait(timeout: .seconds(5)) { other.clientCount == 0 }, "the early connection was closed")
    }

    @Test("an early connect that failed is the display's error")
    func failed() throws {
        let name = "/nonexistent/lectern-no-compositor"
        let loop = try EventLoop(clock: clock)
        Display.connectEarly(name: name)
        do throws(WaylandError) {
            _ = try Display(name: name, loop: loop, logger: Logger(label: "lectern.test.early"))
            Issue.record("connected to no compositor")
        } catch {
            guard case .cannotConnect(let display, let code) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(display == name && code == ENOENT)
        }
    }
}
