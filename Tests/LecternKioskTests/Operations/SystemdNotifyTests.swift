import Foundation
import LecternTestSupport
import Testing

/// systemd's notify protocol (issue 15): a datagram socket of the test's plays `NOTIFY_SOCKET`;
/// `KioskApp` in process on the manual clock, so a "blocked" loop is one the test does not turn.
@Suite("systemd notify", .serialized)
struct SystemdNotifyTests {
    /// A bound Unix datagram socket that collects what is sent to it.
    final class FakeNotifySocket {
        let path: String
        let fd: Int32

        init() throws {
            path =
                FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))")
                .path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard fd >= 0, bound == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        }

        /// The messages that arrived since the last call.
        func messages() -> [String] {
            var result: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { return result }
                result.append(String(decoding: buffer[0..<count], as: UTF8.self))
            }
        }

        deinit {
            close(fd)
            unlink(path)
        }
    }

    @Test(
        "READY after the first commit, WATCHDOG at half WATCHDOG_USEC from the loop, none while it is blocked, STOPPING at the end"
    )
    func notifications() throws {
        let notify = try FakeNotifySocket()
        let colors = LecternHarness.fixture("colors-8pages.pdf")
        let lectern = try KioskHarness(
            [colors, "--page", "3"], autoConfigure: false,
            variables: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"])
        #expect(lectern.wait { lectern.compositor.toplevel != nil && lectern.status.document != .opening })
        #expect(lectern.status.framesCommitted == 0)
        #expect(!notify.messages().contains { $0.contains("READY=1") }, "not ready before a frame is shown")
        lectern.compositor.configure(width: 1280, height: 720)
        #expect(lectern.settle())
        let ready = notify.messages()
        #expect(lectern.status.framesCommitted > 0)
        #expect(ready.first { $0.contains("READY=1") }?.contains("STATUS=page 3 of 8: \(colors)") == true, "\(ready)")

        // Running: one WATCHDOG a second (half of 2 s) for 5 s.
        for _ in 0..<50 { lectern.advanceWithoutSettling(by: 0.1) }
        let beats = notify.messages().filter { $0 == "WATCHDOG=1" }.count
        #expect((4...5).contains(beats), "\(beats) in 5 s (one a second, from any phase)")

        // Blocked: the clock moves 5 s and the loop does not turn: nothing; then one, not a burst.
        lectern.clock.advance(by: 5)
        #expect(notify.messages().isEmpty)
        lectern.turn()
        #expect(notify.messages().filter { $0 == "WATCHDOG=1" }.count == 1)

        // A page turn is a new STATUS.
        #expect(lectern.enableKeyboard())
        lectern.type(page: 6)
        #expect(lectern.waitForPage(6))
        #expect(notify.messages().contains("STATUS=page 6 of 8: \(colors)"))
        try lectern.stop()
        #expect(notify.messages().contains("STOPPING=1"))
    }
}
