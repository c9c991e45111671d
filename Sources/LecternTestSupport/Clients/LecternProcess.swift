import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The `lectern` executable (or another Wayland client) running as a child process, with its
/// output captured while it runs.
///
/// While a test waits for the child, it must keep its `TestCompositor` dispatching, or the
/// child blocks on its compositor: use `waitForExit(timeout:dispatching:)` or
/// `compositor.wait(timeout:) { !process.isRunning }`.
public final class LecternProcess {
    /// The environment variable naming the executable to launch instead of the built `lectern`.
    public static let binaryOverrideVariable = "LECTERN_BINARY"

    public let executableURL: URL
    private let process = Process()
    private let standardOutput = CapturedOutput()
    private let standardError = CapturedOutput()

    /// Launches the executable.
    /// - Parameters:
    ///   - executableURL: what to run; by default `LecternProcess.lecternExecutable()`.
    ///   - arguments: its command-line arguments.
    ///   - environment: added to (and overriding) this process's environment; pass
    ///     `compositor.environment` here. `WAYLAND_SOCKET` and `DISPLAY` are removed so the child
    ///     cannot reach another compositor. Without a `STATE_DIRECTORY` of its own, the child
    ///     keeps its saved view in the given `XDG_RUNTIME_DIR` (the compositor's, fresh each run).
    public init(executableURL: URL? = nil, arguments: [String] = [], environment: [String: String] = [:]) throws {
        self.executableURL = try executableURL ?? Self.lecternExecutable()
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment["WAYLAND_SOCKET"] = nil
        childEnvironment["DISPLAY"] = nil
        childEnvironment.merge(environment) { _, new in new }
        // A view saved by an earlier run must not move where this one starts: unless the
        // caller names one, the saved view lives in the compositor's private runtime directory.
        if environment["STATE_DIRECTORY"] == nil, let runtime = environment["XDG_RUNTIME_DIR"] {
            childEnvironment["STATE_DIRECTORY"] = runtime
        }
        process.executableURL = self.executableURL
        process.arguments = arguments
        process.environment = childEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = standardOutput.pipe
        process.standardError = standardError.pipe
        try Self.withEmptySignalMask { try process.run() }
    }

    /// Runs `body` with no signal blocked on this thread. A spawned child inherits the spawning
    /// thread's signal mask, and test runners call us on worker threads that block nearly every
    /// signal: without this, the child would start with SIGTERM and SIGINT blocked.
    private static func withEmptySignalMask<T>(_ body: () throws -> T) rethrows -> T {
        var empty = sigset_t(), saved = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        return try body()
    }

    /// Launches the built `lectern` (or `$LECTERN_BINARY`) as a client of `compositor`.
    /// - Parameters:
    ///   - compositor: whose `environment` the child gets.
    ///   - arguments: the command-line arguments.
    ///   - environment: more variables, applied after the compositor's.
    public convenience init(
        compositor: TestCompositor, arguments: [String] = [], environment: [String: String] = [:]
    ) throws {
        try self.init(arguments: arguments, environment: compositor.environment.merging(environment) { _, new in new })
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The child's process id.
    public var processIdentifier: Int32 { process.processIdentifier }
    /// Whether the child has not exited yet.
    public var isRunning: Bool { process.isRunning }
    /// What the child wrote to stdout so far.
    public var output: String { standardOutput.text }
    /// What the child wrote to stderr so far.
    public var errorOutput: String { standardError.text }
    /// The complete lines the child wrote to stderr after its first `offset` bytes, and where
    /// they end (the next call's `offset`): a long log followed without decoding it all again.
    public func errorLines(after offset: Int) -> (text: String, end: Int) { standardError.lines(after: offset) }
    /// Whether the child was ended by a signal rather than by exiting (only meaningful once it
    /// is not running).
    public var wasKilledBySignal: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    /// Sends SIGTERM (the way systemd or cage stops Lectern).
    public func terminate() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
    }

    /// Sends SIGKILL.
    public func kill9() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the child to exit, dispatching `compositor` meanwhile (if given).
    /// - Returns: the exit status (or the signal number when `wasKilledBySignal`), or nil if
    ///   it is still running after `timeout`.
    public func waitForExit(timeout: Duration, dispatching compositor: TestCompositor? = nil) -> Int32? {
        if let compositor {
            compositor.wait(timeout: timeout) { !process.isRunning }
        } else {
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            while process.isRunning, clock.now < deadline {
                usleep(5_000)
            }
        }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        standardOutput.drain()
        standardError.drain()
        return process.terminationStatus
    }

    /// The built `lectern` executable: `$LECTERN_BINARY` if set, else `lectern` next to this
    /// test or benchmark executable (`.build/<configuration>/`), else next to a loaded
    /// `.xctest` bundle.
    public static func lecternExecutable(named name: String = "lectern") throws -> URL {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment[binaryOverrideVariable], !override.isEmpty {
            guard fileManager.isExecutableFile(atPath: override) else {
                throw TestCompositorError.executableNotFound(
                    "\(binaryOverrideVariable)=\(override) is not an executable file")
            }
            return URL(fileURLWithPath: override)
        }
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL {
            folders.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw TestCompositorError.executableNotFound(
            "no \(name) executable in \(folders.map(\.path)); run `swift build` first or set \(binaryOverrideVariable)")
    }
}

/// A pipe whose contents are collected in the background, readable while the writer runs.
private final class CapturedOutput: Sendable {
    let pipe = Pipe()
    private let data = Mutex(Data())

    init() {
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
            } else {
                data.withLock { $0.append(chunk) }
            }
        }
    }

    /// Reads whatever is left once the writer has exited.
    func drain() {
        // Give the background handler a moment to see end of file; then read what remains.
        let handle = pipe.fileHandleForReading
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(200)
        while handle.readabilityHandler != nil, clock.now < deadline { usleep(2_000) }
    }

    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// The text after the first `offset` bytes up to the last newline, and that newline's end.
    func lines(after offset: Int) -> (text: String, end: Int) {
        data.withLock { data in
            let start = data.startIndex + min(offset, data.count)
            guard let newline = data[start...].lastIndex(of: 0x0A) else { return ("", start - data.startIndex) }
            return (String(decoding: data[start...newline], as: UTF8.self), newline + 1 - data.startIndex)
        }
    }
}
