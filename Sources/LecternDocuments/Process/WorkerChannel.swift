import CLecternLinux
import Glibc
import LecternLinux

/// One end of a SOCK_SEQPACKET socket between the reader and its render worker: whole messages,
/// each perhaps carrying a descriptor. Blocking; used by one thread at a time.
struct WorkerChannel: Sendable {
    /// The most a message may hold (a page's text blocks and links; tiles go through memory).
    static let maximumMessage = 1 << 20

    let descriptor: Int32

    /// A connected pair: one end for the reader, one for the worker.
    static func pair() throws(SystemError) -> (WorkerChannel, WorkerChannel) {
        var fds: [Int32] = [-1, -1]
        guard CLecternLinux_seqpacket_pair(&fds) == 0 else { throw SystemError("socketpair") }
        // Room for a page's text in one message.
        var size = Int32(maximumMessage)
        for fd in fds { setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        return (WorkerChannel(descriptor: fds[0]), WorkerChannel(descriptor: fds[1]))
    }

    /// Sends `bytes` as one message, with `fd` attached unless it is -1. False when the peer is gone.
    func send(_ bytes: [UInt8], fd: Int32 = -1) -> Bool {
        bytes.withUnsafeBytes { CLecternLinux_send_message(descriptor, $0.baseAddress, $0.count, fd) } == bytes.count
    }

    /// Sends `message`; false when the peer is gone.
    func send(_ message: DocumentRequest, fd: Int32 = -1) -> Bool {
        var writer = WireWriter()
        message.encode(into: &writer)
        return send(writer.bytes, fd: fd)
    }

    /// The next message and the descriptor attached to it (-1: none), or nil when the peer is gone.
    func receive() -> (bytes: [UInt8], fd: Int32)? {
        // A buffer of the message's own length: most are a few bytes, and zeroing a buffer for
        // the largest cost a millisecond a message.
        let length = CLecternLinux_next_message_length(descriptor)
        guard length > 0 else { return nil }
        var fd: Int32 = -1
        var count = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: min(length, Self.maximumMessage)) { buffer, initialized in
            count = CLecternLinux_receive_message(descriptor, buffer.baseAddress, buffer.count, &fd)
            initialized = max(0, count)
        }
        guard count > 0 else {
            if fd >= 0 { Glibc.close(fd) }
            return nil
        }
        return (bytes, fd)
    }

    /// Waits at most `milliseconds` for a message (or the peer going away): true when one is there.
    func waitReadable(milliseconds: Int32) -> Bool { CLecternLinux_wait_readable(descriptor, milliseconds) != 0 }

    func close() { _ = Glibc.close(descriptor) }
}

/// Memory shared between the reader and the worker for one tile: a memfd mapped in both, a
/// render cookie at its start (the reader cancels a render by writing to it), the pixels after
/// it. The worker draws into it and lets it go; the reader keeps it as the tile's image. In
/// process (`DirectTransport`) it is memory of this process alone, laid out the same way.
public final class SharedTileBuffer: @unchecked Sendable {
    // Sendable: used by one channel's thread at a time; the mapping lives as long as the object.
    /// Where the pixels start: the cookie's bytes, rounded up to a cache line.
    static let pixelOffset = 256

    /// The memfd (-1 once closed: the mapping stays).
    private(set) var fd: Int32
    let size: Int
    let memory: UnsafeMutableRawPointer

    /// A new buffer of `size` bytes (made by the reader).
    convenience init(size: Int) throws(SystemError) {
        let fd = CLecternLinux_memfd_create("lectern-tiles")
        guard fd >= 0 else { throw SystemError("memfd_create") }
        guard ftruncate(fd, off_t(size)) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SystemError("ftruncate", errno: code)
        }
        try self.init(fd: fd, size: size)
    }

    /// Maps the buffer `fd` (of `size` bytes) the reader sent; the buffer owns `fd`.
    init(fd: Int32, size: Int) throws(SystemError) {
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            let code = errno
            Glibc.close(fd)
            throw SystemError("mmap", errno: code)
        }
        self.fd = fd
        self.size = size
        self.memory = memory
        isMapped = true
    }

    /// A buffer of `size` bytes in this process alone (no memfd), for a server in this process.
    init(inProcess size: Int) {
        fd = -1
        self.size = size
        memory = .allocate(byteCount: size, alignment: 64)
        isMapped = false
    }

    /// Whether `memory` is a mapping (else this process's heap).
    private let isMapped: Bool

    var pixels: UnsafeMutableRawPointer { memory + Self.pixelOffset }

    /// Closes the memfd once nothing more is sent: the mapping keeps the memory.
    func closeDescriptor() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit {
        if isMapped { munmap(memory, size) } else { memory.deallocate() }
        if fd >= 0 { Glibc.close(fd) }
    }
}
