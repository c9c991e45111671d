import CLecternLinux
import Glibc
import SystemPackage

/// Who is at the other end of a Unix socket, as the kernel saw it at `connect` (`SO_PEERCRED`).
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Whether the peer's user is in group `gid` (its primary group or a supplementary one);
    /// false for a user the system does not know.
    /// Corresponding C functions: `getpwuid_r`, `getgrouplist`.
    public func isMember(ofGroup gid: UInt32) -> Bool {
        self.gid == gid || CLecternLinux_user_in_group(uid, gid) == 1
    }
}

/// The id of the group named `name`, or nil when the system has none.
/// Corresponding C function: `getgrnam_r`.
public func groupID(named name: String) -> UInt32? {
    let gid = CLecternLinux_group_id(name)
    return gid >= 0 ? UInt32(gid) : nil
}

/// A non-blocking Unix stream socket listening at a path; this object owns the descriptor and
/// removes the socket file when closed.
/// Corresponding C functions: `socket`, `bind`, `chmod`, `listen`.
public final class UnixListener {
    /// The descriptor, for a poller to watch (borrowed: this object closes it).
    public let descriptor: FileDescriptor
    public let path: String
    private var isClosed = false

    /// Listens at `path` with the socket file's mode `mode`. A socket file left behind by a
    /// process that is gone is replaced; one a live process listens on is an error (EADDRINUSE).
    public init(path: String, mode: UInt32 = 0o600, backlog: Int32 = 64) throws(SystemError) {
        let fd = CLecternLinux_unix_listen(path, backlog, mode)
        guard fd >= 0 else { throw SystemError("listening on \(path)") }
        descriptor = FileDescriptor(rawValue: fd)
        self.path = path
    }

    deinit { close() }

    /// The next pending connection and its peer, or nil when none is pending (or it failed).
    public func accept() -> (UnixConnection, PeerCredentials)? {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        let fd = CLecternLinux_unix_accept(descriptor.rawValue, &pid, &uid, &gid)
        guard fd >= 0 else { return nil }
        return (UnixConnection(adopting: FileDescriptor(rawValue: fd)), PeerCredentials(pid: pid, uid: uid, gid: gid))
    }

    /// Stops listening and removes the socket file. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        try? descriptor.close()
        unlink(path)
    }
}

/// One connected Unix stream socket; this object owns the descriptor. Sends never block and
/// never raise SIGPIPE; receives never block.
public final class UnixConnection {
    /// What a send did.
    public enum SendResult: Equatable, Sendable {
        /// This many bytes went (maybe fewer than asked).
        case sent(Int)
        /// The peer's buffer is full.
        case wouldBlock
        /// The peer is gone or the socket failed (errno).
        case failed(Int32)
    }

    /// What a receive got.
    public enum ReceiveResult: Equatable, Sendable {
        case bytes(Int)
        /// The peer closed its end.
        case end
        /// Nothing to read now.
        case wouldBlock
        case failed(Int32)
    }

    /// The descriptor, for a poller to watch (borrowed: this object closes it).
    public let descriptor: FileDescriptor
    private var isClosed = false

    /// Takes ownership of a connected socket.
    public init(adopting descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    /// Connects to the socket at `path` (blocking: for a command-line client).
    /// Corresponding C function: `connect`.
    public static func connect(to path: String) throws(SystemError) -> UnixConnection {
        let fd = CLecternLinux_unix_connect(path)
        guard fd >= 0 else { throw SystemError("connecting to \(path)") }
        return UnixConnection(adopting: FileDescriptor(rawValue: fd))
    }

    deinit { close() }

    /// Sends what fits now. Corresponding C function: `send(…, MSG_NOSIGNAL | MSG_DONTWAIT)`.
    public func send(_ bytes: UnsafeRawBufferPointer) -> SendResult {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .sent(0) }
        let count = CLecternLinux_send(descriptor.rawValue, base, bytes.count)
        if count >= 0 { return .sent(count) }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
    }

    /// Reads what is there now into `buffer`. Corresponding C function: `recv(…, MSG_DONTWAIT)`.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> ReceiveResult {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .wouldBlock }
        let count = CLecternLinux_recv(descriptor.rawValue, base, buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .end }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
    }

    /// Waits up to `milliseconds` (-1: for ever) until the socket is readable; false on timeout.
    public func waitUntilReadable(milliseconds: Int32) -> Bool { wait(for: POLLIN, milliseconds: milliseconds) }

    /// Waits up to `milliseconds` (-1: for ever) until the socket takes more; false on timeout.
    public func waitUntilWritable(milliseconds: Int32) -> Bool { wait(for: POLLOUT, milliseconds: milliseconds) }

    private func wait(for events: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(events), revents: 0)
        var ready: Int32
        repeat { ready = poll(&entry, 1, milliseconds) } while ready < 0 && errno == EINTR
        return ready > 0
    }

    /// Closes the socket. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        try? descriptor.close()
    }
}

/// A non-blocking Unix datagram socket this object owns, for messages to a service manager.
/// Corresponding C function: `socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)`.
public final class DatagramSocket {
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = CLecternLinux_datagram_socket()
        guard fd >= 0 else { throw SystemError("socket") }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// Sends `message` as one datagram to `address` (a path, or "@name": the abstract namespace).
    /// Corresponding C function: `sendto(…, MSG_NOSIGNAL)`.
    public func send(_ message: String, to address: String) throws(SystemError) {
        guard CLecternLinux_send_datagram(descriptor.rawValue, address, message) >= 0 else {
            throw SystemError("sending to \(address)")
        }
    }
}
