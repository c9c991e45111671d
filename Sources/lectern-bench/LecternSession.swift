import Foundation
import LecternCore
import LecternTestSupport

/// One `lectern` process under its own test compositor, driven in lock step, with every commit
/// it makes summarised as it arrives (`frames`): the benchmarks that follow Lectern for many
/// frames cannot keep each commit's pixels.
final class LecternSession {
    /// One commit as the benchmarks need it: when it arrived and what it showed.
    struct Frame {
        var sequence: Int
        var timestamp: ContinuousClock.Instant
        /// A hash of the pixels: two frames with equal hashes showed the same picture.
        var contentHash: UInt64
        /// Whether the picture differs from the commit before it.
        var changed: Bool
        /// What `analyze` found in the picture, if it was set when the commit arrived.
        var analysis: Int?
    }

    let compositor: TestCompositor
    let process: LecternProcess
    let document: String
    /// When the process was spawned.
    let spawnInstant: ContinuousClock.Instant
    private(set) var frames: [Frame] = []
    /// Reads a number off each commit's pixels as it arrives (the scroll offset it shows…).
    var analyze: ((Commit) -> Int?)?
    /// How much of the log `newLogLines()` has returned (bytes).
    private var logLinesRead = 0

    /// Starts Lectern on `document` with debug logs.
    /// - Parameters:
    ///   - options: more command-line options (`--scroll continuous`, `--cache-mb 2`, …).
    ///   - keyboard: whether the seat advertises a keyboard (for typed page numbers).
    ///   - environment: more variables (`STATE_DIRECTORY`…).
    ///   - viewporter: offers `wp_viewporter`: the pages on a subsurface that pans move.
    ///   - executable: another client to run instead of Lectern (a floor), with `options` alone.
    init(
        document: String, options: [String] = [], width: Int32, height: Int32, keyboard: Bool = false,
        logLevel: String = "debug", environment more: [String: String] = [:], viewporter: Bool = false,
        executable: URL? = nil
    ) throws {
        compositor = try TestCompositor(outputWidth: width, outputHeight: height)
        // With wp_viewporter (and wl_subcompositor, always offered) the pages go on a subsurface.
        if viewporter { compositor.offerViewporter() }
        // A few recent commits are enough: each one is summarised in `frames` as it arrives.
        compositor.commitHistoryLimit = 16
        if keyboard { compositor.setSeatCapabilities([.touch, .pointer, .keyboard]) }
        var environment = compositor.environment
        environment["LECTERN_LOG_LEVEL"] = logLevel
        environment.merge(more) { _, new in new }
        self.document = document
        spawnInstant = ContinuousClock.now
        process = try LecternProcess(
            executableURL: executable, arguments: executable == nil ? [document] + options : options,
            environment: environment)
    }

    /// Ends the process (SIGTERM) and the compositor: setup in reverse.
    func close() {
        process.terminate()
        _ = process.waitForExit(timeout: .seconds(5), dispatching: compositor)
        process.kill9()
        try? compositor.teardown()
    }

    var lastFrame: Frame? { frames.last }

    /// One lock-step round of at most `timeout` (frame callbacks are answered at its start, as
    /// a compositor with no vsync would), then the new commits are summarised.
    func dispatch(timeout: Duration = .milliseconds(1)) {
        compositor.dispatch(timeout: timeout)
        ingestCommits()
    }

    /// Dispatches until `condition` holds or `timeout` has passed; returns whether it holds.
    @discardableResult
    func run(timeout: Duration, until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard process.isRunning, ContinuousClock.now < deadline else { return condition() }
            dispatch()
        }
        return true
    }

    /// Dispatches for `duration`.
    func run(for duration: Duration) {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline { dispatch() }
    }

    /// Dispatches until no commit has arrived for `quiet`; returns false after `timeout`.
    @discardableResult
    func settle(quiet: Duration = .milliseconds(400), timeout: Duration = .seconds(20)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, process.isRunning {
            let count = compositor.commitCount
            if !run(timeout: quiet, until: { compositor.commitCount != count }) { return true }
        }
        return false
    }

    // MARK: The log

    /// Lectern's stderr so far.
    var log: String { process.errorOutput }

    /// The log written after the first `offset` bytes (an earlier `log.utf8.count`).
    func log(after offset: Int) -> Substring {
        let text = log
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: min(offset, utf8.count))
        return text[start...]
    }

    /// The complete lines of the log written since the last call (cheap however long the log is).
    func newLogLines() -> [Substring] {
        let (text, end) = process.errorLines(after: logLinesRead)
        logLinesRead = end
        return text.split(separator: "\n")
    }

    /// Dispatches until `text` appears in the log after `offset`.
    @discardableResult
    func waitForLog(_ text: String, after offset: Int = 0, timeout: Duration = .seconds(20)) -> Bool {
        run(timeout: timeout) { log(after: offset).contains(text) }
    }

    // MARK: Input

    /// A one-finger drag from `start` to `end` in ten 16 ms steps, then a rest of `hold` (no
    /// fling after it) and release.
    func drag(
        from start: (Double, Double), to end: (Double, Double), steps: Int = 10, hold: Duration = .zero
    ) {
        compositor.touchDown(id: 0, x: start.0, y: start.1)
        run(for: .milliseconds(16))
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            compositor.touchMotion(id: 0, x: start.0 + (end.0 - start.0) * t, y: start.1 + (end.1 - start.1) * t)
            run(for: .milliseconds(16))
        }
        run(for: hold)
        compositor.touchUp(id: 0)
        run(for: .milliseconds(16))
    }

    /// A one-finger tap.
    func tap(x: Double, y: Double) {
        compositor.touchDown(id: 0, x: x, y: y)
        run(for: .milliseconds(30))
        compositor.touchUp(id: 0)
        run(for: .milliseconds(5))
    }

    // MARK: CPU and memory

    /// The CPU time Lectern and its render worker have used (user + system), in milliseconds.
    func cpuMilliseconds() throws -> Int {
        let family = ProcessFamily.members(process.processIdentifier)
        // A worker that ended meanwhile counts nothing.
        return try Self.cpuMilliseconds(of: family[0])
            + family.dropFirst().reduce(0) { $0 + ((try? Self.cpuMilliseconds(of: $1)) ?? 0) }
    }

    /// The CPU time of the process's main thread (Lectern's loop), in milliseconds, to the
    /// nanosecond (`/proc/PID/task/PID/schedstat`, not clock ticks).
    func mainThreadCPUMilliseconds() throws -> Double {
        let pid = process.processIdentifier
        let stat = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/schedstat", encoding: .utf8)
        guard let nanoseconds = stat.split(separator: " ").first.flatMap({ Double($0) }) else {
            throw BenchmarkError(description: "unreadable schedstat: \(stat)")
        }
        return nanoseconds / 1e6
    }

    private static func cpuMilliseconds(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces) start after the last ')'.
        guard let end = stat.lastIndex(of: ")") else { throw BenchmarkError(description: "unreadable stat") }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // utime and stime are fields 14 and 15 (1-based), 11 and 12 after the state field.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw BenchmarkError(description: "unreadable stat: \(stat)")
        }
        return (user + system) * 1000 / Int(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The peak resident set size so far (`VmHWM` in /proc/PID/status) of Lectern plus that of
    /// its render worker, in KiB.
    func peakResidentKiB() throws -> Int { try procStatusField("VmHWM", family: true) }

    /// The peak RSS (`VmHWM`) of the reader and its forked render worker alone, in KiB: not the
    /// workers it exec'd (`lectern --render-worker N`: the document audit's).
    func readerAndWorkerPeakKiB() throws -> Int {
        try procStatusField("VmHWM", family: true, excluding: "--render-worker")
    }

    /// The process's resident set size now (`VmRSS`), in KiB.
    func residentKiB() throws -> Int { try procStatusField("VmRSS", family: false) }

    /// The resident set size now of Lectern plus that of its render worker, in KiB.
    func familyResidentKiB() throws -> Int { try procStatusField("VmRSS", family: true) }

    private func procStatusField(_ name: String, family: Bool, excluding excluded: String? = nil) throws -> Int {
        let pid = process.processIdentifier
        let kib =
            family
            ? ProcessFamily.totalKiB(name, of: pid, excluding: excluded) : ProcessFamily.statusKiB(name, of: pid)
        guard let kib else { throw BenchmarkError(description: "no \(name) in /proc/\(pid)/status") }
        return kib
    }

    // MARK: Frames

    private func ingestCommits() {
        let known = frames.last?.sequence ?? 0
        guard compositor.commitCount > known else { return }
        if let oldest = compositor.commits.first, oldest.sequence > known + 1 {
            // More commits in one round than the history keeps: say so rather than guess.
            FileHandle.standardError.write(
                "lectern-bench: lost commits \(known + 1)..<\(oldest.sequence) (history too short)\n".data(
                    using: .utf8)!)
        }
        for commit in compositor.commits where commit.sequence > known {
            let hash = Self.hash(commit.pixels)
            frames.append(
                Frame(
                    sequence: commit.sequence, timestamp: commit.timestamp, contentHash: hash,
                    changed: frames.last.map { $0.contentHash != hash } ?? true, analysis: analyze?(commit)))
        }
    }

    /// FNV-style hash over 64-bit words: cheap enough for every 1920×1080 commit.
    static func hash(_ pixels: [UInt32]) -> UInt64 {
        pixels.withUnsafeBytes { raw in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            let words = raw.count / 8
            let base = raw.baseAddress!
            for index in 0..<words {
                h = (h ^ base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x100_0000_01b3
            }
            if raw.count % 8 != 0 { h ^= UInt64(raw[raw.count - 1]) }
            return h
        }
    }
}

// MARK: Numbers and JSON

func milliseconds(_ duration: Duration) -> Double {
    duration.seconds * 1000
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

/// Parses `--size WxH`.
func parseSize(_ text: String) -> (Int32, Int32)? {
    let parts = text.split(separator: "x").compactMap { Int32($0) }
    return parts.count == 2 ? (parts[0], parts[1]) : nil
}

/// The options the benchmarks share: `--runs N`, `--keys N`, `--size WxH` (repeatable), `--seconds S`,
/// `--hello PATH` and `--floor PATH` (reference programs kiosk/bench builds), and the documents.
struct BenchOptions {
    var runs: Int?
    var keys: Int?
    var sizes: [(Int32, Int32)] = []
    var seconds: Double?
    var hello: String?
    var floor: String?
    var documents: [String] = []

    init(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? arguments[index + 1] : ""
            switch arguments[index] {
            case "--runs":
                runs = Int(value)
                index += 1
            case "--keys":
                keys = Int(value)
                index += 1
            case "--size":
                if let size = parseSize(value) { sizes.append(size) }
                index += 1
            case "--seconds":
                seconds = Double(value)
                index += 1
            case "--hello":
                hello = value
                index += 1
            case "--floor":
                floor = value
                index += 1
            default:
                documents.append(arguments[index])
            }
            index += 1
        }
    }

    /// The last `--size`, or 1280x720.
    var size: (Int32, Int32) { sizes.last ?? (1280, 720) }
}

func printJSON(_ object: [String: Any]) throws {
    let json = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: json, as: UTF8.self))
}

func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`), for the JSON: the
/// machine is shared, and a figure means little without the load it was measured under.
func loadAverages() -> [Double] {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).compactMap { Double($0) }
}

/// A fresh empty directory under the temporary directory (`STATE_DIRECTORY` for a start that
/// must not find, or leave, a saved view elsewhere).
func freshDirectory(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

/// Key codes (evdev) for typing page numbers.
enum EvdevKey {
    static let enter: UInt32 = 28
    static func digit(_ d: Character) -> UInt32 {
        let value = UInt32(String(d))!
        return value == 0 ? 11 : value + 1
    }
}

/// A connected stream socket to Lectern's control socket at `path`.
func connectControlSocket(path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchmarkError(description: "socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard connected == 0 else {
        close(fd)
        throw BenchmarkError(description: "cannot connect to \(path): errno \(errno)")
    }
    return fd
}

/// One `{"command":"status"}` over Lectern's control socket at `path`: the reply's `status`.
func controlStatus(path: String) throws -> [String: Any] {
    let fd = try connectControlSocket(path: path)
    defer { close(fd) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request = Array("{\"command\":\"status\"}\n".utf8)
    guard write(fd, request, request.count) == request.count else {
        throw BenchmarkError(description: "write to \(path): errno \(errno)")
    }
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while !reply.contains(0x0A) {
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { throw BenchmarkError(description: "read from \(path): \(count), errno \(errno)") }
        reply += buffer[..<count]
    }
    guard let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any],
        let status = object["status"] as? [String: Any]
    else { throw BenchmarkError(description: "status reply: \(String(decoding: reply, as: UTF8.self))") }
    return status
}
