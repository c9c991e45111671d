import Dispatch
import Synchronization

/// Work off the loop's thread with its results back on it: jobs run in order on a thread of
/// their own (a serial dispatch queue), and each job's completion runs on the loop's thread, at
/// the end of the loop iteration in which the job's end was seen.
///
/// A job's end wakes the loop through the loop's own eventfd (`EventLoop.wake()`), so
/// background work adds no descriptor; the loop's idle handler hands the results over. A job
/// touches only what it was given (it is `@Sendable`); its completion may touch anything the
/// loop's thread owns. For work that must not hold up a frame: an fsync on an SD card, a PNG
/// encoding.
public final class BackgroundWork {
    /// The results jobs finished with, waiting for the loop's thread.
    private final class Outbox: Sendable {
        let results = Mutex<[(id: Int, result: any Sendable)]>([])
        /// How many results wait (changed under the lock, with them): the loop's idle handler
        /// looks at this first, without taking the lock.
        let count = Atomic<Int>(0)
    }

    /// The loop, for the job's thread to wake it.
    private final class Waker: @unchecked Sendable {
        // Sendable: the job's thread only calls `wake()`, which the loop allows from any thread.
        weak var loop: EventLoop?
        init(_ loop: EventLoop) { self.loop = loop }
    }

    private let queue: DispatchQueue
    private let outbox = Outbox()
    private let waker: Waker
    /// The completions of the jobs submitted and not yet delivered, by job. Loop thread only.
    private var completions: [Int: (any Sendable) -> Void] = [:]
    private var nextID = 0
    private var delivery: EventLoop.Watch?

    /// - Parameters:
    ///   - label: the queue's name (shows in a debugger).
    ///   - qos: the jobs' priority.
    ///   - loop: the loop whose thread runs the completions.
    public init(label: String, qos: DispatchQoS = .utility, loop: EventLoop) {
        queue = DispatchQueue(label: label, qos: qos)
        waker = Waker(loop)
        // The count first, without loading the weak reference: every turn of the loop asks.
        delivery = loop.addIdleHandler { [outbox, weak self] in
            guard outbox.count.load(ordering: .relaxed) > 0 else { return }
            self?.deliver()
        }
    }

    deinit { delivery?.cancel() }

    /// Runs `job` off the loop's thread after the jobs submitted before it, then `completion`
    /// with its result on the loop's thread. Loop thread.
    public func submit<Result: Sendable>(
        _ job: @escaping @Sendable () -> Result, then completion: @escaping (Result) -> Void
    ) {
        nextID += 1
        let id = nextID
        // The job's result comes back as it went: the cast cannot fail.
        completions[id] = { completion($0 as! Result) }
        queue.async { [outbox, waker] in
            let result = job()
            outbox.results.withLock {
                $0.append((id, result))
                outbox.count.add(1, ordering: .relaxed)
            }
            waker.loop?.wake()
        }
    }

    /// Whether a job is queued or running, or its completion has not run yet. Loop thread.
    public var isBusy: Bool { !completions.isEmpty }

    /// Forgets the jobs submitted so far: their completions will not run, and the work is no
    /// longer busy with them. A job queued or running still runs to its end, unwaited for
    /// (shutdown: a long page-tree walk is abandoned with the process). Loop thread.
    public func abandon() { completions.removeAll() }

    /// Waits until every job submitted has ended, and runs the completions left (shutdown).
    /// Loop thread.
    public func waitUntilDone() {
        queue.sync {}
        deliver()
    }

    /// Runs the completions of the jobs that ended, in the order the jobs ran.
    private func deliver() {
        guard outbox.count.load(ordering: .relaxed) > 0 else { return }
        let finished = outbox.results.withLock { results in
            defer {
                outbox.count.subtract(results.count, ordering: .relaxed)
                results.removeAll()
            }
            return results
        }
        for (id, result) in finished { completions.removeValue(forKey: id)?(result) }
    }
}
