import Glibc

/// The CPU time a process has used (all its threads, user and system), in milliseconds, read
/// from its CPU-time clock (`clock_getcpuclockid`: nanoseconds, where /proc counts 10 ms ticks);
/// nil when it cannot be read (the process is gone).
public func cpuMilliseconds(ofProcess pid: Int32) -> Double? {
    var clock = clockid_t()
    guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
    var time = timespec()
    guard clock_gettime(clock, &time) == 0 else { return nil }
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}
