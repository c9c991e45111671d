import CLecternLinux
import SystemPackage

/// A non-blocking eventfd this object owns: another thread signals it, a poller wakes up.
/// Corresponding C function: `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
public final class EventFD: @unchecked Sendable {
    // Sendable: the descriptor never changes; signal and drain are single syscalls.
    /// The descriptor, for a poller to watch (borrowed: this object closes it).
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = CLecternLinux_eventfd()
        guard fd >= 0 else { throw SystemError("eventfd") }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// Makes the descriptor readable (any thread).
    public func signal() {
        _ = CLecternLinux_eventfd_signal(descriptor.rawValue)
    }

    /// Resets the counter; returns how many signals were pending.
    @discardableResult
    public func drain() -> Int64 {
        max(0, CLecternLinux_eventfd_drain(descriptor.rawValue))
    }
}

/// A non-blocking CLOCK_MONOTONIC timerfd this object owns.
/// Corresponding C function: `timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)`.
public final class TimerFD {
    /// The descriptor, for a poller to watch (borrowed: this object closes it).
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = CLecternLinux_timerfd()
        guard fd >= 0 else { throw SystemError("timerfd_create") }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// Fires once after `milliseconds` (at least 1); nil disarms.
    public func arm(milliseconds: Int64?) {
        _ = CLecternLinux_timerfd_arm(descriptor.rawValue, milliseconds.map { max(1, $0) } ?? 0)
    }

    /// Resets the expiration count; returns it.
    @discardableResult
    public func drain() -> Int64 {
        max(0, CLecternLinux_timerfd_drain(descriptor.rawValue))
    }
}

/// The termination signals (SIGTERM, SIGINT, SIGHUP), blocked for the calling thread and
/// the threads it starts afterwards, and reported through a signalfd this object owns.
/// Create it before any other thread starts.
public final class TerminationSignals {
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = CLecternLinux_signalfd_termination()
        guard fd >= 0 else { throw SystemError("signalfd") }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// The next pending signal's number, or nil when none is pending.
    public func next() -> Int32? {
        let signal = CLecternLinux_signalfd_read(descriptor.rawValue)
        return signal > 0 ? signal : nil
    }
}
