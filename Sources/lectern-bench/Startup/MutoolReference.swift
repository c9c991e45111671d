import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lectern fits a page inside a 12 px margin; `mutool draw` gets the same box.
let pageMargin: Int32 = 12

/// `mutool draw` of one page of `document` fitted into width×height, as a PAM (no compression,
/// so the reference is loading and rendering, not PNG encoding): process start to exit, in ms.
///
/// Spawned with `posix_spawn` and reaped with `waitpid`: Foundation's
/// `Process.waitUntilExit()` polls its run loop every 50 ms, which turned a 15 ms render into
/// 51 ms.
func mutoolDraw(document: String, page: Int = 1, width: Int32, height: Int32) throws -> Double {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-bench-\(getpid()).pam").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let arguments = [
        "mutool", "draw", "-q", "-w", "\(width)", "-h", "\(height)", "-F", "pam", "-o", output, document, "\(page)",
    ]
    let (status, elapsed, _) = try spawnAndWait("/usr/bin/mutool", arguments: arguments)
    guard status == 0 else {
        throw BenchmarkError(description: "mutool draw failed on \(document) page \(page) (status \(status))")
    }
    return milliseconds(elapsed)
}

/// Peak resident set size (KiB) of `mutool ARGUMENTS…`, as GNU time (`/usr/bin/time`) reports
/// it, or nil without GNU time. Not from our own `wait4`: a child started by `posix_spawn`
/// (vfork) inherits this process's peak as its `ru_maxrss`, which hid mutool's.
func mutoolPeakResidentKiB(_ arguments: [String]) throws -> Int? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-bench-\(getpid()).rss").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    let (status, _, _) = try spawnAndWait(
        "/usr/bin/time", arguments: ["time", "-f", "%M", "-o", report, "/usr/bin/mutool"] + arguments)
    guard status == 0 else { throw BenchmarkError(description: "mutool \(arguments) failed (status \(status))") }
    return Int(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
}

/// Runs `path` with stdin, stdout and stderr on /dev/null and waits for it.
/// - Parameters:
///   - arguments: the whole argument vector, the program's name first.
///   - environment: `NAME=value` entries; nil: this process's environment.
/// - Returns: the wait status, the time from spawn to exit, and the CPU time the child used
///   (user + system: less disturbed than wall time by other work on the machine).
func spawnAndWait(
    _ path: String, arguments: [String], environment: [String]? = nil
) throws -> (status: Int32, elapsed: Duration, cpu: Duration) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd in Int32(0)...2 {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let entries = environment ?? ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
    var envp: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawn(&pid, path, &actions, nil, &argv, &envp)
    guard spawned == 0 else {
        throw BenchmarkError(description: "cannot run \(path): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw BenchmarkError(description: "wait4: \(String(cString: strerror(errno)))") }
    }
    let elapsed = ContinuousClock.now - start
    func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
    return (status, elapsed, duration(usage.ru_utime) + duration(usage.ru_stime))
}
