import Glibc
import LecternLinux
import Logging

/// Tells systemd how the reader is (`Type=notify`): `READY=1` once the first frame showing the
/// document (or why it cannot be shown) is committed, `STATUS=` with the document and page,
/// `WATCHDOG=1` at half the interval `WATCHDOG_USEC` asks for, `STOPPING=1` at shutdown.
///
/// The datagram protocol of sd_notify(3), spoken directly (a datagram of `KEY=VALUE` lines to
/// the socket `NOTIFY_SOCKET` names) rather than through libsystemd: it is a stable, documented
/// interface of a few lines, and libsystemd would add a shared library and its own dependencies
/// (libcap, libgcrypt, liblz4, libzstd, liblzma) to every start of a reader that needs none of it.
///
/// The watchdog is a timer on the event loop: the loop stuck anywhere (a blocked call, a
/// livelock in a handler) sends nothing, and systemd restarts the service. Without
/// `NOTIFY_SOCKET` nothing is sent and nothing is scheduled.
final class SystemdNotifier {
    let loop: EventLoop
    /// Where messages go (`NOTIFY_SOCKET`).
    let address: String
    /// Seconds between two `WATCHDOG=1` (half of `WATCHDOG_USEC`), nil without a watchdog.
    let watchdogInterval: Double?
    private let socket: DatagramSocket
    private let logger: Logger
    private var watchdogTimer: EventLoop.Timer?
    private var lastStatus: String?
    private var hasFailed = false
    /// `READY=1` was sent.
    private(set) var isReady = false

    /// A notifier when `NOTIFY_SOCKET` is set, else nil.
    /// - Parameter variable: reads the environment (`NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`).
    init?(variable: (String) -> String?, loop: EventLoop, logger: Logger) {
        guard let address = variable("NOTIFY_SOCKET"), address.hasPrefix("/") || address.hasPrefix("@") else {
            return nil
        }
        do {
            socket = try DatagramSocket()
        } catch {
            logger.error("cannot talk to systemd: \(error)")
            return nil
        }
        self.address = address
        self.loop = loop
        self.logger = logger
        watchdogInterval = Self.watchdogInterval(variable: variable)
        if let watchdogInterval { scheduleWatchdog(after: watchdogInterval) }
    }

    /// Half of `WATCHDOG_USEC` in seconds, when the watchdog is meant for this process: systemd
    /// sets `WATCHDOG_PID` to the service's main process, which under cage is cage, Lectern's
    /// parent (cage passes its environment on). Any other process's watchdog is not ours.
    static func watchdogInterval(variable: (String) -> String?) -> Double? {
        guard let text = variable("WATCHDOG_USEC"), let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let pid = variable("WATCHDOG_PID").flatMap(Int32.init), pid != getpid(), pid != getppid() { return nil }
        return Double(microseconds) / 2_000_000
    }

    private func scheduleWatchdog(after seconds: Double) {
        // From now, not from the missed deadline: a loop that was stuck sends one, not a burst.
        watchdogTimer = loop.schedule(after: seconds) { [unowned self] in
            send("WATCHDOG=1")
            scheduleWatchdog(after: seconds)
        }
    }

    /// `READY=1` with the status line (once).
    func ready(status: String) {
        guard !isReady else { return }
        isReady = true
        lastStatus = status
        send("READY=1\nSTATUS=\(status)")
    }

    /// `STATUS=` when it changed.
    func status(_ text: String) {
        guard text != lastStatus else { return }
        lastStatus = text
        send("STATUS=\(text)")
    }

    /// `STOPPING=1`, and no more watchdog (shutdown).
    func close() {
        watchdogTimer?.cancel()
        watchdogTimer = nil
        send("STOPPING=1")
    }

    private func send(_ message: String) {
        do {
            try socket.send(message, to: address)
        } catch {
            // Once: a missing socket would otherwise log at every watchdog tick.
            if !hasFailed { logger.warning("cannot notify systemd at \(address): \(error)") }
            hasFailed = true
        }
    }
}
