import Glibc
import LecternLinux
import Logging

/// The length of every turn of the main loop, for a benchmark (`lectern-bench speech`): on when
/// `LECTERN_LOG_LOOP_TURNS` is set, off (no observer, nothing measured) otherwise. Turns are
/// logged in batches, every half second of turns, as `loop turns: END/LENGTH/CPU …` in
/// microseconds: END read on CLOCK_MONOTONIC when the turn ended, so that the benchmark can tell
/// which turns fell in which of its phases; LENGTH the wall time; CPU the thread's CPU time
/// since the poll before (the turn's own work, and the poll's: what a loaded machine's other
/// processes do not change). The batch is written between two turns (`EventLoop.turnObserver`
/// runs before the poll), so the writing is in none of them.
final class LoopTurnLog {
    /// The variable that turns it on.
    static let variable = "LECTERN_LOG_LOOP_TURNS"
    /// How long a batch covers at most before it is written.
    static let batchMicroseconds: UInt64 = 500_000

    private let loop: EventLoop
    private let logger: Logger
    private var batch: [(end: UInt64, length: UInt64, cpu: UInt64)] = []
    /// The thread's CPU time when the loop last went to poll (at first: when this was made).
    private var cpuAtPoll = LoopTurnLog.microseconds(CLOCK_THREAD_CPUTIME_ID)

    /// Starts observing `loop`'s turns.
    init(loop: EventLoop, logger: Logger) {
        self.loop = loop
        self.logger = logger
        batch.reserveCapacity(1024)
        loop.turnObserver = { [unowned self] turn in record(turn) }
    }

    /// Stops observing and writes what is left.
    func close() {
        loop.turnObserver = nil
        write()
    }

    private func record(_ turn: Duration) {
        let end = Self.microseconds(CLOCK_MONOTONIC), cpu = Self.microseconds(CLOCK_THREAD_CPUTIME_ID)
        let (seconds, attoseconds) = turn.components
        let length = UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
        batch.append((end, length, cpu >= cpuAtPoll ? cpu - cpuAtPoll : 0))  // 0: made on another thread
        if let first = batch.first, end - first.end >= Self.batchMicroseconds || batch.count >= 4096 { write() }
        cpuAtPoll = Self.microseconds(CLOCK_THREAD_CPUTIME_ID)
    }

    private static func microseconds(_ clock: clockid_t) -> UInt64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    private func write() {
        guard !batch.isEmpty else { return }
        logger.info("loop turns: \(batch.map { "\($0.end)/\($0.length)/\($0.cpu)" }.joined(separator: " "))")
        batch.removeAll(keepingCapacity: true)
    }
}
