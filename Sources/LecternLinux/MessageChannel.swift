import CLecternLinux
import Glibc

/// One end of a SOCK_SEQPACKET socket between the reader and a child process (the render
/// worker, speech): whole messages, each perhaps carrying a descriptor. Blocking; used by one
/// thread at a time.
public struct MessageChannel: Sendable {
    /// The most a message may hold (a page's text blocks and links; tiles go through memory).
    public static let maximumMessage = 1 << 20

    public let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// A connected pair: one end for the reader, one for the child.
    public static func pair() throws(SystemError) -> (MessageChannel, MessageChannel) {
        var fds: [Int32] = [-1, -1]
        guard CLecternLinux_seqpacket_pair(&fds) == 0 else { throw SystemError("socketpair") }
        // Room for a page's text in one message.
        var size = Int32(maximumMessage)
        for fd in fds { setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        return (MessageChannel(descriptor: fds[0]), MessageChannel(descriptor: fds[1]))
    }

    /// Sends `bytes` as one message, with `fd` attached unless it is -1. False when the peer is gone.
    public func send(_ bytes: [UInt8], fd: Int32 = -1) -> Bool {
        bytes.withUnsafeBytes { CLecternLinux_send_message(descriptor, $0.baseAddress, $0.count, fd) } == bytes.count
    }

    /// The next message and the descriptor attached to it (-1: none), or nil when the peer is gone.
    public func receive() -> (bytes: [UInt8], fd: Int32)? {
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
    public func waitReadable(milliseconds: Int32) -> Bool {
        CLecternLinux_wait_readable(descriptor, milliseconds) != 0
    }

    public func close() { _ = Glibc.close(descriptor) }
}
