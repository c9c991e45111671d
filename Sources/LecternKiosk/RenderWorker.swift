import CLecternLinux
import Dispatch
import Glibc
import Synchronization

/// Runs MuPDF work off the Wayland thread and wakes the main loop through an eventfd
/// when results are ready. The main thread never waits on it.
final class RenderWorker<Result: Sendable>: Sendable {
    private let queue = DispatchQueue(label: "lectern.render", qos: .userInitiated)
    private let inbox = Mutex<[Result]>([])
    /// Readable when results are waiting; watched by the event loop.
    let wakeFD: Int32

    init() throws(KioskError) {
        let fd = CLecternLinux_eventfd()
        guard fd >= 0 else { throw .system("eventfd", errno: errno) }
        wakeFD = fd
    }

    /// Runs `job` on the worker; its result is delivered by `drain()` on the main thread.
    func submit(_ job: @escaping @Sendable () -> Result) {
        queue.async {
            let result = job()
            self.inbox.withLock { $0.append(result) }
            _ = CLecternLinux_eventfd_signal(self.wakeFD)
        }
    }

    /// The results delivered since the last call, oldest first.
    func drain() -> [Result] {
        _ = CLecternLinux_eventfd_drain(wakeFD)
        return inbox.withLock { results in
            defer { results.removeAll() }
            return results
        }
    }

    /// Blocks until every submitted job has run (shutdown only).
    func finish() { queue.sync {} }

    deinit { close(wakeFD) }
}
