import CLecternLinux
import Glibc
import Synchronization

/// A child process of the reader (the render worker, speech) and the reader's ends of its
/// message channels. Started one of two ways: forked at the top of `lectern`'s start, before
/// any thread exists (`fork(role:channels:child:)`: no exec, no second start of the Swift
/// runtime; kept until its owner takes it), or `spawn`ed as this executable again with a hidden
/// option, its channels as descriptors 3, 4, … (after a crash, or in tests: a fork of a process
/// whose threads run is not safe to keep running).
public struct ChildProcess: Sendable {
    public let pid: Int32
    /// The reader's ends, in order (the child has the other ends).
    public let channels: [MessageChannel]

    /// Spawns `executable` with `arguments` (the first is its name) and `channels` channels as
    /// its descriptors 3, 4, …
    public static func spawn(
        _ executable: String, arguments: [String], channels: Int
    ) throws(SystemError)
        -> ChildProcess
    {
        var ours: [MessageChannel] = []
        var theirs: [MessageChannel] = []
        defer { for channel in theirs { channel.close() } }
        for _ in 0..<channels {
            do throws(SystemError) {
                let (reader, child) = try MessageChannel.pair()
                ours.append(reader)
                theirs.append(child)
            } catch {
                for channel in ours { channel.close() }
                throw error
            }
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { Glibc.free(pointer) } }
        let fds = theirs.map(\.descriptor)
        let pid = CLecternLinux_spawn(executable, &argv, fds, Int32(fds.count))
        guard pid > 0 else {
            let code = errno
            for channel in ours { channel.close() }
            throw SystemError("posix_spawn", errno: code)
        }
        return ChildProcess(pid: pid, channels: ours)
    }

    /// Forks a child for `role` with `channels` channels, unless one was forked for it already,
    /// and keeps it until `take(role:channels:)` or `discard(role:)`. Call it only while this
    /// process has a single thread (the child goes on running this process's code, and a lock
    /// another thread held would stay held there). In the child, `child` runs with the child's
    /// ends and the process exits with what it returns. Without a fork (it failed), the owner
    /// spawns its child instead.
    public static func fork(role: String, channels: Int, child: ([MessageChannel]) -> Int32) {
        guard forked.withLock({ $0[role] == nil }) else { return }
        var ours: [MessageChannel] = []
        var theirs: [MessageChannel] = []
        for _ in 0..<channels {
            guard let (reader, worker) = try? MessageChannel.pair() else {
                for channel in ours + theirs { channel.close() }
                return
            }
            ours.append(reader)
            theirs.append(worker)
        }
        let pid = CLecternLinux_fork_worker()
        if pid == 0 {
            // The reader's ends stay with the reader: the child sees them close when it goes.
            for channel in ours { channel.close() }
            exit(child(theirs))
        }
        for channel in theirs { channel.close() }
        guard pid > 0 else {
            for channel in ours { channel.close() }
            return
        }
        forked.withLock { $0[role] = ChildProcess(pid: pid, channels: ours) }
    }

    /// The child forked at start for `role`, if one waits with `channels` channels (else it is
    /// let go).
    public static func take(role: String, channels: Int) -> ChildProcess? {
        guard let child = forked.withLock({ $0.removeValue(forKey: role) }) else { return nil }
        guard child.channels.count == channels else {
            child.release()
            return nil
        }
        return child
    }

    /// Whether a child forked at start waits for `role`.
    public static func isForked(role: String) -> Bool { forked.withLock { $0[role] != nil } }

    /// Lets the child forked at start for `role` go: it ends, and is reaped.
    public static func discard(role: String) { forked.withLock { $0.removeValue(forKey: role) }?.release() }

    private static let forked = Mutex<[String: ChildProcess]>([:])

    /// Closes the reader's ends, kills the child and reaps it.
    private func release() {
        for channel in channels { channel.close() }
        _ = Self.killAndReap(pid)
    }

    /// Sends SIGKILL to `pid` and reaps it; returns its wait status (-1: unknown).
    @discardableResult
    public static func killAndReap(_ pid: Int32) -> Int32 { CLecternLinux_kill_and_reap(pid) }

    /// Limits this process, a child: its address space to `bytes` (0: unchanged), no core
    /// dumps, crash signals end it at once, SIGKILL when the parent dies. False with errno set.
    public static func limitSelf(addressSpace bytes: Int) -> Bool { CLecternLinux_limit_worker(bytes) == 0 }

    /// A wait status in words, for the log.
    public static func describe(_ status: Int32) -> String {
        if status < 0 { return "status unknown" }
        if status & 0x7f == 0 { return "exit status \((status >> 8) & 0xff)" }
        return "signal \(status & 0x7f)"
    }
}
