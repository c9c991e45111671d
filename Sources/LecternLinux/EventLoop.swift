import Glibc
import LecternCore
import Synchronization
import SystemPackage

/// A connection the loop polls with its own descriptors, which must get ready before each poll
/// and read after it: the Wayland display (`prepare_read`, `read_events`, `dispatch_pending`).
public protocol LoopConnection: AnyObject {
    /// Before the poll: dispatches what is queued and flushes what was sent; the descriptor to
    /// poll, and whether the connection waits for room to write (EAGAIN). Throws when it broke.
    func prepareToPoll() throws -> (descriptor: Int32, waitsToWrite: Bool)
    /// The poll failed: gives up the read `prepareToPoll()` prepared.
    func cancelPoll()
    /// After the poll, with the events the connection's descriptor got: reads and dispatches.
    func finishPoll(events: Int16) throws
    /// Sends what was queued since (after the idle handlers, so a frame goes out this turn).
    func flush()
}

/// The one loop of the process, in production and in tests: a connection (the Wayland
/// display), timers, wake-ups from other threads, signals, and the file descriptors of other
/// parts.
///
/// Per iteration: due timers fire; the connection gets ready to poll (Wayland: `prepare_read`,
/// dispatching what is queued, and a flush whose EAGAIN is back-pressure: poll for POLLOUT),
/// poll, the connection reads and dispatches, the handlers of ready descriptors, due timers
/// again, then the idle handlers (the place to draw), and a last flush of what they sent.
///
/// Timers run on the injected clock: one timerfd is armed for the earliest deadline when the
/// clock passes by itself; on a test's manual clock, a timer fires in the first iteration
/// after the clock was moved past its deadline. The loop owns its timerfd, its wake-up eventfd
/// and the signalfd; every other descriptor it watches belongs to someone else.
public final class EventLoop {
    /// A scheduled action; `cancel()` keeps it from running. Dropping the handle does not
    /// cancel it.
    public final class Timer {
        fileprivate weak var loop: EventLoop?
        fileprivate let id: Int
        /// When it fires, on the loop's clock.
        public let deadline: Double

        fileprivate init(loop: EventLoop, id: Int, deadline: Double) {
            self.loop = loop
            self.id = id
            self.deadline = deadline
        }

        /// Whether it is still to fire.
        public var isScheduled: Bool { loop?.timers[id] != nil }

        /// Keeps it from firing (nothing happens if it already fired).
        public func cancel() { loop?.cancelTimer(id) }
    }

    /// A watched descriptor or idle handler; `cancel()` removes it.
    public final class Watch {
        fileprivate weak var loop: EventLoop?
        fileprivate let id: Int

        fileprivate init(loop: EventLoop, id: Int) {
            self.loop = loop
            self.id = id
        }

        public func cancel() {
            loop?.watches[id] = nil
            loop?.idleHandlers[id] = nil
        }
    }

    private struct Watched {
        let descriptor: FileDescriptor
        var events = Int16(POLLIN)
        let handler: () -> Void
    }

    private struct Scheduled {
        let deadline: Double
        let sequence: Int
        let action: () -> Void
    }

    /// The time every timer, animation and gesture deadline uses.
    public let clock: any MonotonicClock
    private let timerFD: TimerFD
    private let wakeUp: EventFD
    private var signals: TerminationSignals?
    private var watches: [Int: Watched] = [:] {
        didSet { orderedWatches = nil }
    }
    /// The watches in the order they were added, kept between iterations while none is added
    /// or cancelled (sorting them, and the idle handlers, was a turn's own biggest cost).
    private var orderedWatches: [(key: Int, value: Watched)]?
    private var timers: [Int: Scheduled] = [:]
    private var nextID = 0
    private var armedDeadline: Double?
    private var idleHandlers: [Int: () -> Void] = [:] {
        didSet { orderedIdleHandlers = nil }
    }
    private var orderedIdleHandlers: [() -> Void]?
    private let stopRequested = Atomic<Bool>(false)
    private var isRunning = false
    /// When the last poll returned: the loop has been busy since, unless it is polling.
    private var lastPollReturn: ContinuousClock.Instant?
    private var longestFinishedTurn: Duration = .zero
    /// Told the length of each turn as it ends (the time from a poll's return to the next
    /// poll), just before that poll: a benchmark's measure (`LoopTurnLog`). What it does is in
    /// no turn. Nil, the default, costs nothing.
    public var turnObserver: ((Duration) -> Void)?
    /// The connection polled with the loop's descriptors (the Wayland display, once made).
    public weak var connection: (any LoopConnection)?

    /// Creates a loop on `clock` (its descriptors are checked: a failure throws).
    public init(clock: any MonotonicClock) throws(SystemError) {
        self.clock = clock
        timerFD = try TimerFD()
        wakeUp = try EventFD()
    }

    // MARK: Sources

    /// Watches `descriptor` (owned by the caller, who keeps it open while watched) for input;
    /// `handler` runs on the loop's thread while it is readable.
    @discardableResult
    public func watch(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) -> Watch {
        nextID += 1
        watches[nextID] = Watched(descriptor: descriptor, handler: handler)
        return Watch(loop: self, id: nextID)
    }

    /// Watches `descriptor` (owned by the caller, who keeps it open while watched) for room to
    /// write; `handler` runs on the loop's thread while it is writable (or hung up).
    @discardableResult
    public func watchWritable(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) -> Watch {
        nextID += 1
        watches[nextID] = Watched(descriptor: descriptor, events: Int16(POLLOUT), handler: handler)
        return Watch(loop: self, id: nextID)
    }

    /// Runs `action` on the loop's thread once `seconds` have passed on the loop's clock.
    @discardableResult
    public func schedule(after seconds: Double, _ action: @escaping () -> Void) -> Timer {
        schedule(at: clock.now + max(0, seconds), action)
    }

    /// Runs `action` on the loop's thread once the loop's clock reads `deadline`.
    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> Timer {
        nextID += 1
        timers[nextID] = Scheduled(deadline: deadline, sequence: nextID, action: action)
        return Timer(loop: self, id: nextID, deadline: deadline)
    }

    private func cancelTimer(_ id: Int) {
        timers[id] = nil
    }

    /// Runs `handler` at the end of every iteration, after events and timers were handled,
    /// until the returned watch is cancelled.
    @discardableResult
    public func addIdleHandler(_ handler: @escaping () -> Void) -> Watch {
        nextID += 1
        idleHandlers[nextID] = handler
        return Watch(loop: self, id: nextID)
    }

    /// Reports SIGTERM, SIGINT and SIGHUP to `handler` instead of their default action. Call
    /// before any other thread starts (it blocks them for threads started later).
    public func handleTerminationSignals(_ handler: @escaping (Int32) -> Void) throws(SystemError) {
        let signals = try TerminationSignals()
        self.signals = signals
        watch(signals.descriptor) {
            while let signal = signals.next() { handler(signal) }
        }
    }

    /// Wakes the loop from any thread (its poll returns).
    public func wake() { wakeUp.signal() }

    /// Makes `run()` return after the current iteration. Any thread.
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        wakeUp.signal()
    }

    /// Whether `stop()` was called since the loop last started running.
    public var isStopping: Bool { stopRequested.load(ordering: .sequentiallyConsistent) }

    // MARK: Running

    /// The longest time the loop went without polling since `resetLongestTurn()`, the turn
    /// under way included: what a frame callback or a touch waited at worst. Wall time, not the
    /// loop's clock (a stall is real even on a test's manual clock).
    public var longestTurn: Duration {
        max(longestFinishedTurn, lastPollReturn.map { ContinuousClock.now - $0 } ?? .zero)
    }

    /// Starts measuring `longestTurn` afresh from the turn under way.
    public func resetLongestTurn() {
        longestFinishedTurn = .zero
        lastPollReturn = lastPollReturn.map { _ in ContinuousClock.now }
    }

    /// Runs until `stop()`. Throws what the connection threw when it broke (the Wayland
    /// display: a `WaylandError`), or a `SystemError` when poll failed.
    public func run() throws {
        stopRequested.store(false, ordering: .sequentiallyConsistent)
        isRunning = true
        defer { isRunning = false }
        while !isStopping { try runOnce(timeout: nil) }
    }

    /// Runs one iteration, waiting at most `timeout` for something to happen (nil: until
    /// something does or a timer is due; `.zero`: not at all).
    public func runOnce(timeout: Duration?) throws {
        fireDueTimers()
        let connection = connection
        let polled = try connection?.prepareToPoll()
        armTimerFD()
        let ordered = orderedWatches ?? watches.sorted { $0.key < $1.key }
        orderedWatches = ordered
        var fds: [pollfd] = [
            pollfd(
                fd: polled?.descriptor ?? -1,
                events: Int16(POLLIN) | (polled?.waitsToWrite == true ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: timerFD.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeUp.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        fds.reserveCapacity(3 + ordered.count)
        for (_, watched) in ordered {
            fds.append(pollfd(fd: watched.descriptor.rawValue, events: watched.events, revents: 0))
        }
        let milliseconds = pollTimeout(timeout)
        var ready: Int32
        if let lastPollReturn {
            let turn = ContinuousClock.now - lastPollReturn
            longestFinishedTurn = max(longestFinishedTurn, turn)
            turnObserver?(turn)
        }
        repeat { ready = poll(&fds, nfds_t(fds.count), milliseconds) } while ready < 0 && errno == EINTR
        lastPollReturn = ContinuousClock.now
        if ready < 0 {
            let code = errno
            if polled != nil { connection?.cancelPoll() }
            throw SystemError("poll", errno: code)
        }
        if polled != nil { try connection?.finishPoll(events: fds[0].revents) }
        if fds[1].revents != 0 {
            timerFD.drain()
            armedDeadline = nil
        }
        if fds[2].revents != 0 { wakeUp.drain() }
        for (index, entry) in ordered.enumerated() where fds[index + 3].revents != 0 {
            // A handler may have removed a later source.
            if watches[entry.key] != nil { entry.value.handler() }
        }
        fireDueTimers()
        let handlers = orderedIdleHandlers ?? idleHandlers.sorted { $0.key < $1.key }.map(\.value)
        orderedIdleHandlers = handlers
        for handler in handlers { handler() }
        // What the idle handlers sent (a frame's commit) goes out now, not at the next turn.
        connection?.flush()
    }

    /// The poll timeout in milliseconds: the caller's, shortened to the next deadline when the
    /// clock gets there by itself (the timerfd wakes the poll too; this covers its rounding).
    private func pollTimeout(_ timeout: Duration?) -> Int32 {
        var limit: Int64? = timeout.map { max(0, $0.milliseconds) }
        if clock.passesByItself, let next = nextDeadline {
            let until = Int64(((next - clock.now) * 1000).rounded(.up))
            limit = min(limit ?? Int64.max, max(0, until))
        }
        return limit.map { Int32(min($0, Int64(Int32.max))) } ?? -1
    }

    /// The earliest deadline of the scheduled timers.
    public var nextDeadline: Double? {
        // A loop, not a chain with a key path: asked twice every turn.
        var earliest: Double?
        for timer in timers.values { earliest = min(earliest ?? timer.deadline, timer.deadline) }
        return earliest
    }

    private func armTimerFD() {
        guard clock.passesByItself else { return }
        let next = nextDeadline
        guard next != armedDeadline else { return }
        armedDeadline = next
        timerFD.arm(milliseconds: next.map { Int64((($0 - clock.now) * 1000).rounded(.up)) })
    }

    /// Runs the timers whose deadline has come, earliest first (a timer scheduled by one of
    /// them for a time already past runs in the same pass).
    private func fireDueTimers() {
        while true {
            let now = clock.now
            var due: (id: Int, timer: Scheduled)?
            for (id, timer) in timers where timer.deadline <= now {
                if let earliest = due?.timer, (earliest.deadline, earliest.sequence) < (timer.deadline, timer.sequence)
                {
                    continue
                }
                due = (id, timer)
            }
            guard let (id, timer) = due else { return }
            timers[id] = nil
            timer.action()
        }
    }
}
