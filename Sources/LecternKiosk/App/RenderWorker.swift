import Dispatch
import LecternLinux
import Synchronization
import SystemPackage

/// Runs MuPDF work off the Wayland thread (opening the document, reading page sizes and page
/// text) and wakes the main loop through an eventfd when results are ready. The main thread
/// never waits on it, not even at exit: a job still running then (a long page-tree walk) is
/// abandoned with the process.
final class RenderWorker<Result: Sendable>: Sendable {
    private let queue: DispatchQueue
    private let inbox = Mutex<[Result]>([])
    private let pending = Atomic<Int>(0)
    private let wakeUp: EventFD

    /// Readable when results are waiting; for the event loop to watch (owned here).
    var wakeDescriptor: FileDescriptor { wakeUp.descriptor }

    /// - Parameter qos: the worker's priority (the shelf's covers: `.utility`, behind the page).
    init(qos: DispatchQoS = .userInitiated) throws(SystemError) {
        queue = DispatchQueue(label: "lectern.render", qos: qos)
        wakeUp = try EventFD()
    }

    /// Runs `job` on the worker; its result is delivered by `drain()` on the main thread.
    func submit(_ job: @escaping @Sendable () -> Result) {
        pending.add(1, ordering: .sequentiallyConsistent)
        queue.async { [self] in
            let result = job()
            inbox.withLock { $0.append(result) }
            pending.subtract(1, ordering: .sequentiallyConsistent)
            wakeUp.signal()
        }
    }

    /// Runs `job` on the worker after the jobs submitted before it; it delivers nothing, but its
    /// end wakes the main loop as a result would, so the loop sees the worker go idle.
    func run(_ job: @escaping @Sendable () -> Void) {
        pending.add(1, ordering: .sequentiallyConsistent)
        queue.async { [self] in
            job()
            pending.subtract(1, ordering: .sequentiallyConsistent)
            wakeUp.signal()
        }
    }

    /// Whether a job is queued or running, or its result not yet drained.
    var isBusy: Bool {
        pending.load(ordering: .sequentiallyConsistent) > 0 || inbox.withLock { !$0.isEmpty }
    }

    /// The results delivered since the last call, oldest first.
    func drain() -> [Result] {
        wakeUp.drain()
        return inbox.withLock { results in
            defer { results.removeAll() }
            return results
        }
    }
}
