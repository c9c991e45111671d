import CLecternLinux
import Foundation
import LecternPDF

/// Renders tiles on worker threads (one per core), most urgent first, and hands the results
/// to the main thread, which it wakes through an eventfd.
///
/// The main thread says what it wants with `setWanted(_:)` each time the view changes: queued
/// tiles no longer wanted are dropped, tiles being rendered that are no longer wanted are
/// aborted through their cookie, and a cancelled render is never delivered.
public final class TileScheduler: @unchecked Sendable {
    // Sendable: all mutable state is guarded by `condition`.
    public typealias Render = @Sendable (TileKey, RenderCookie) -> TileContent?

    private struct InFlight {
        let cookie: RenderCookie
    }

    private let condition = NSCondition()
    private var queue: [TileKey] = []
    private var inFlight: [TileKey: InFlight] = [:]
    private var outbox: [(TileKey, TileContent)] = []
    private var stopped = false
    private var threads: [Thread] = []
    private var runningThreads = 0
    private let render: Render

    /// Readable while results wait in `drain()`; watched by the main loop.
    public let wakeFD: Int32
    /// Renders aborted because their tile left the screen (for logs and tests).
    public private(set) var cancelledCount = 0
    private var started = 0

    /// Renders started so far: at rest this stops growing (for tests and benchmarks).
    public var startedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return started
    }

    /// - Parameters:
    ///   - workerCount: worker threads; default one per core.
    ///   - render: draws one tile; returns nil when cancelled. Called on a worker thread.
    public init(workerCount: Int = ProcessInfo.processInfo.activeProcessorCount, render: @escaping Render) {
        self.render = render
        wakeFD = CLecternLinux_eventfd()
        for index in 0..<max(1, workerCount) {
            let thread = Thread { [unowned self] in work() }
            thread.name = "lectern.tiles.\(index)"
            thread.qualityOfService = .userInitiated
            threads.append(thread)
        }
        runningThreads = threads.count
        threads.forEach { $0.start() }
    }

    deinit {
        close(wakeFD)
    }

    /// Stops the workers after their current tile and waits for them (shutdown).
    public func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        for job in inFlight.values { job.cookie.cancel() }
        condition.broadcast()
        while runningThreads > 0 { condition.wait() }
        condition.unlock()
    }

    /// Replaces what is wanted: `keys` most urgent first. Keys already cached should not be
    /// passed. Tiles in flight that are not in `keys` are cancelled.
    public func setWanted(_ keys: [TileKey]) {
        condition.lock()
        defer { condition.unlock() }
        let wanted = Set(keys)
        for (key, job) in inFlight where !wanted.contains(key) && !job.cookie.isCancelled {
            job.cookie.cancel()
            cancelledCount += 1
        }
        let delivered = Set(outbox.map(\.0))
        // A tile whose render was cancelled but has not returned yet is queued again: that
        // render will not be delivered.
        queue = keys.filter { (inFlight[$0]?.cookie.isCancelled ?? true) && !delivered.contains($0) }
        if !queue.isEmpty { condition.broadcast() }
    }

    /// Whether any tile is queued or being rendered.
    public var isBusy: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !queue.isEmpty || !inFlight.isEmpty
    }

    /// The tiles finished since the last call. Main thread.
    public func drain() -> [(TileKey, TileContent)] {
        _ = CLecternLinux_eventfd_drain(wakeFD)
        condition.lock()
        defer { condition.unlock() }
        let results = outbox
        outbox.removeAll()
        return results
    }

    private func work() {
        condition.lock()
        while true {
            while queue.isEmpty && !stopped { condition.wait() }
            if stopped { break }
            let key = queue.removeFirst()
            started += 1
            let cookie = RenderCookie()
            inFlight[key] = InFlight(cookie: cookie)
            condition.unlock()
            let content = render(key, cookie)
            condition.lock()
            // A render of the same tile queued again after this one was cancelled may be in flight.
            if inFlight[key]?.cookie === cookie { inFlight[key] = nil }
            if let content, !cookie.isCancelled {
                outbox.append((key, content))
                _ = CLecternLinux_eventfd_signal(wakeFD)
            }
        }
        runningThreads -= 1
        condition.broadcast()
        condition.unlock()
    }
}
