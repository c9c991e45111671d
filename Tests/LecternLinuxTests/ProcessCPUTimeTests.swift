import Glibc
import LecternLinux
import Testing

/// A process's CPU time from its CPU-time clock (what the document audit counts a page's render
/// in, not the wall time a nice worker waits beside a visitor).
@Suite("Process CPU time")
struct ProcessCPUTimeTests {
    /// This process's CPU time by its own clock, in milliseconds.
    static func ownCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    @Test("a process's CPU time is what its own CPU clock says")
    func ownProcess() throws {
        let before = Self.ownCPUMilliseconds()
        let read = try #require(cpuMilliseconds(ofProcess: getpid()))
        let after = Self.ownCPUMilliseconds()
        #expect(before <= read && read <= after, "\(before) ≤ \(read) ≤ \(after)")
    }

    @Test("another process's: what it computed (as /proc counts it, in ticks), and none once it is gone")
    func anotherProcess() throws {
        // The child computes, says so on its channel, then waits for the channel to close.
        let child = try ChildProcess.spawn(
            "/bin/sh",
            arguments: ["sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo done >&3; read x <&3"],
            channels: 1)
        #expect(child.channels[0].receive() != nil)
        let cpu = try #require(cpuMilliseconds(ofProcess: child.pid))
        let ticks = try Self.procTicks(child.pid)
        let tick = 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        // /proc rounds each of user and system time down to whole ticks.
        #expect(cpu >= Double(ticks) * tick && cpu < Double(ticks + 2) * tick, "\(cpu) ms, \(ticks) ticks")
        #expect(cpu > 0)
        _ = ChildProcess.killAndReap(child.pid)
        child.channels[0].close()
        #expect(cpuMilliseconds(ofProcess: child.pid) == nil)
    }

    /// utime + stime of `pid` from /proc/PID/stat, in clock ticks.
    static func procTicks(_ pid: Int32) throws -> Int {
        let file = try ReadOnlyFile(path: "/proc/\(pid)/stat")
        let text = String(decoding: try file.read(count: 4096, at: 0), as: UTF8.self)
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: try #require(text.lastIndex(of: ")")))...].split(separator: " ")
        return try #require(Int(fields[11])) + #require(Int(fields[12]))
    }
}
