import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import SystemPackage

/// Renders tiles on worker threads (one per core), most urgent first, and hands the results
/// to the main thread, which it wakes through an eventfd.
///
/// The main thread says what it wants with `setWanted(_:)` each time the view changes: queued
/// tiles no longer wanted are dropped, tiles being rendered that are no longer wanted are
/// aborted through their cookie, and a cancelled render is never delivered. The workers share
/// a `Queue` with the scheduler, not the scheduler itself, so dropping the scheduler stops
/// them (`deinit` calls `stop()`).
public final class TileScheduler {
    public typealias Render = @Sendable (TileKey, RenderCookie) -> TileContent?
    /// Draws tiles in order, each stopped by its cookie, giving each to `deliver` with its index
    /// as soon as it is drawn (nil: cancelled).
    public typealias RenderBatch = @Sendable ([TileKey], [RenderCookie], _ deliver: (Int, TileContent?) -> Void) -> Void

    private let queue: Queue
    private let wakeUp: EventFD

    /// Readable while results wait in `drain()`; for the main loop to watch (owned here).
    public var wakeDescriptor: FileDescriptor { wakeUp.descriptor }

    /// - Parameters:
    ///   - workerCount: worker threads; default one per core.
    ///   - render: draws one tile; returns nil when cancelled. Called on a worker thread.
    public convenience init(
        workerCount: Int = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))), render: @escaping Render
    ) throws(SystemError) {
        try self.init(workerCount: workerCount, batchSize: 1) { keys, cookies, deliver in
            for index in keys.indices { deliver(index, render(keys[index], cookies[index])) }
        }
    }

    /// Renders in batches: a worker thread takes up to `batchSize` tiles from the front of the
    /// queue at once (fewer when the queue is short, so that each thread gets a share), and
    /// `renderBatch` delivers each as it is drawn. A tile of a batch no longer wanted is cancelled
    /// like any other; the batch's tiles after it go on.
    /// - Parameters:
    ///   - workerCount: worker threads; default one per core.
    ///   - renderBatch: draws tiles in order, each delivered as it is drawn. Called on a worker thread.
    public init(
        workerCount: Int = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))), batchSize: Int,
        renderBatch: @escaping RenderBatch
    ) throws(SystemError) {
        let wakeUp = try EventFD()
        self.wakeUp = wakeUp
        queue = Queue(
            render: renderBatch, batchSize: max(1, batchSize), wakeUp: wakeUp, workerCount: max(1, workerCount))
    }

    // After `stop(before:)` gave up on a worker, dropping the scheduler does not wait for it.
    deinit { if !queue.isStopping { queue.stop() } }

    /// Stops the workers after their current tile and waits for them (shutdown).
    public func stop() { queue.stop() }

    /// Stops the workers after their current tile (renders in flight are cancelled) and waits
    /// for them until `deadline` at most: a render inside a MuPDF call that does not check its
    /// cookie may take longer, and shutting down must not wait for it (the worker keeps what
    /// it uses alive, and ends on its own). Returns whether every worker has ended.
    @discardableResult
    public func stop(before deadline: ContinuousClock.Instant) -> Bool { queue.stop(before: deadline) }

    /// Replaces what is wanted: `keys` most urgent first. Keys already cached should not be
    /// passed. Tiles in flight that are not in `keys` are cancelled.
    public func setWanted(_ keys: [TileKey]) { queue.setWanted(keys) }

    /// Whether any tile is queued or being rendered.
    public var isBusy: Bool { queue.locked { $0.isBusy } }

    /// Waits until no tile is queued or being rendered, `seconds` at most; returns whether the
    /// scheduler is idle. The workers wake it as the last render ends (no polling). Any thread
    /// but the main one, which must not block.
    public func waitUntilIdle(timeout seconds: Double) -> Bool { queue.waitUntilIdle(timeout: seconds) }

    /// Renders aborted because their tile left the screen (for logs and tests).
    public var cancelledCount: Int { queue.locked { $0.cancelled } }

    /// Renders started so far: at rest this stops growing (for tests and benchmarks).
    public var startedCount: Int { queue.locked { $0.started } }

    /// The tiles finished since the last call. Main thread.
    public func drain() -> [(TileKey, TileContent)] {
        wakeUp.drain()
        return queue.locked { state in
            defer { state.outbox.removeAll() }
            return state.outbox
        }
    }

    /// What the workers and the main thread share, guarded by one condition.
    private final class Queue: @unchecked Sendable {
        // Sendable: all mutable state is guarded by `condition`.
        struct State {
            var queue: [TileKey] = []
            var inFlight: [TileKey: RenderCookie] = [:]
            var outbox: [(TileKey, TileContent)] = []
            var stopped = false
            var runningThreads = 0
            var cancelled = 0
            var started = 0

            var isBusy: Bool { !queue.isEmpty || !inFlight.isEmpty }
        }

        private let condition = ConditionLock()
        private var state = State()
        private let render: RenderBatch
        private let batchSize: Int
        private let workerCount: Int
        private let wakeUp: EventFD

        init(render: @escaping RenderBatch, batchSize: Int, wakeUp: EventFD, workerCount: Int) {
            self.render = render
            self.batchSize = batchSize
            self.workerCount = workerCount
            self.wakeUp = wakeUp
            state.runningThreads = workerCount
            for index in 0..<workerCount {
                startDetachedThread(named: "lectern.tiles.\(index)") { [self] in work() }
            }
        }

        func locked<T>(_ body: (inout State) -> T) -> T {
            condition.lock()
            defer { condition.unlock() }
            return body(&state)
        }

        var isStopping: Bool { locked { $0.stopped } }

        func waitUntilIdle(timeout seconds: Double) -> Bool {
            let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
            condition.lock()
            defer { condition.unlock() }
            while state.isBusy, !state.stopped {
                let left = ContinuousClock.now.duration(to: deadline).seconds
                if left <= 0 || !condition.wait(seconds: left) { break }
            }
            return !state.isBusy
        }

        func stop() { _ = stop(before: nil) }

        func stop(before deadline: ContinuousClock.Instant?) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            state.stopped = true
            state.queue.removeAll()
            for cookie in state.inFlight.values { cookie.cancel() }
            condition.broadcast()
            while state.runningThreads > 0 {
                guard let deadline else {
                    condition.wait()
                    continue
                }
                let seconds = ContinuousClock.now.duration(to: deadline).seconds
                if seconds <= 0 || !condition.wait(seconds: seconds) { break }
            }
            return state.runningThreads == 0
        }

        func setWanted(_ keys: [TileKey]) {
            condition.lock()
            defer { condition.unlock() }
            let wanted = Set(keys)
            for (key, cookie) in state.inFlight where !wanted.contains(key) && !cookie.isCancelled {
                cookie.cancel()
                state.cancelled += 1
            }
            let delivered = Set(state.outbox.map(\.0))
            // A tile whose render was cancelled but has not returned yet is queued again: that
            // render will not be delivered.
            state.queue = keys.filter { (state.inFlight[$0]?.isCancelled ?? true) && !delivered.contains($0) }
            if !state.queue.isEmpty { condition.broadcast() }
        }

        private func work() {
            condition.lock()
            while true {
                while state.queue.isEmpty && !state.stopped { condition.wait() }
                if state.stopped { break }
                // A share of the queue: the other threads take theirs of what is left.
                let count = min(batchSize, (state.queue.count + workerCount - 1) / workerCount)
                let keys = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                state.started += count
                let cookies = keys.map { _ in RenderCookie() }
                for (key, cookie) in zip(keys, cookies) { state.inFlight[key] = cookie }
                condition.unlock()
                render(keys, cookies) { index, content in
                    condition.lock()
                    finish(keys[index], cookies[index], content)
                    condition.unlock()
                }
                condition.lock()
                // Tiles the batch did not deliver (it should deliver each) are no longer in flight.
                for (key, cookie) in zip(keys, cookies) { finish(key, cookie, nil) }
                // The last render ended: whoever waits for the scheduler to be idle goes on.
                if !state.isBusy { condition.broadcast() }
            }
            state.runningThreads -= 1
            condition.broadcast()
            condition.unlock()
        }

        /// The render of `key` with `cookie` ended with `content` (condition held): delivered
        /// unless cancelled, and no longer in flight.
        private func finish(_ key: TileKey, _ cookie: RenderCookie, _ content: TileContent?) {
            // A render of the same tile queued again after this one was cancelled may be in flight.
            if state.inFlight[key] === cookie { state.inFlight[key] = nil }
            if let content, !cookie.isCancelled {
                state.outbox.append((key, content))
                wakeUp.signal()
            }
        }
    }
}
