import Foundation
import Glibc
import LecternCore
import LecternLinux
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// The benchmark's view of the main loop: every turn logged with its end on CLOCK_MONOTONIC,
/// only when `LECTERN_LOG_LOOP_TURNS` is set.
@Suite("Loop turn log")
struct LoopTurnLogTests {
    static func microseconds(_ clock: clockid_t = CLOCK_MONOTONIC) -> UInt64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    @Test("each turn is logged once, as END/LENGTH/CPU in microseconds, END between the test's own readings")
    func turnsAreLogged() throws {
        let capture = LogCapture()
        let loop = try EventLoop(clock: ManualClock())
        let log = LoopTurnLog(loop: loop, logger: KioskHarness.logger(capture: capture))
        let before = Self.microseconds()
        try loop.runOnce(timeout: .zero)  // the first poll: no turn ends there
        _ = loop.schedule(after: 0) { usleep(20_000) }
        _ = loop.schedule(after: 0) {
            // 20 ms of work on the thread: its CPU time.
            let start = Self.microseconds(CLOCK_THREAD_CPUTIME_ID)
            while Self.microseconds(CLOCK_THREAD_CPUTIME_ID) - start < 20_000 {}
        }
        for _ in 0..<4 { try loop.runOnce(timeout: .zero) }
        log.close()
        let after = Self.microseconds()
        let lines = capture.lines.filter { $0.contains("loop turns: ") }
        #expect(lines.count == 1, "one batch: less than half a second of turns")
        let entries = lines.flatMap { $0.split(separator: ": ").last?.split(separator: " ") ?? [] }.map {
            $0.split(separator: "/").compactMap { UInt64($0) }
        }
        #expect(entries.count == 4, "\(lines)")
        #expect(entries.allSatisfy { $0.count == 3 && $0[0] >= before && $0[0] <= after })
        #expect(entries.first.map { $0[1] >= 40_000 } == true, "the timers took the first turn 40 ms: \(lines)")
        #expect(
            entries.first.map { $0[2] >= 20_000 && $0[2] < $0[1] } == true,
            "20 ms of it on the CPU, the sleep not: \(lines)")
        try loop.runOnce(timeout: .zero)
        #expect(capture.lines.filter { $0.contains("loop turns: ") }.count == 1, "closed: nothing more")
    }

    @Test("the reader logs its turns with the variable set, and not without it")
    func variableTurnsItOn() throws {
        for isSet in [false, true] {
            // A state directory of its own (no saved view), no control socket.
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-turns-\(UUID())")
            var variables = ["STATE_DIRECTORY": state.path]
            if isSet { variables[LoopTurnLog.variable] = "1" }
            let lectern = try KioskHarness([NarratorTests.columns], variables: variables)
            #expect(lectern.settle())
            #expect((lectern.app.parts?.operations.turnLog != nil) == isSet)
            try lectern.stop()
        }
    }
}
