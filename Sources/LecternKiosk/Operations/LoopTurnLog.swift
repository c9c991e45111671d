import Glibc
import LecternLinux
import Logging

/// The length of every turn of the main loop, for a benchmark (`lectern-bench speech`): on when
/// `LECTERN_LOG_LOOP_TURNS` is set, off (no observer, nothing measured) otherwise. Turns are
/// logged in batches, every half second of turns, as `loop turns: END/LENGTH …` in microseconds,
/// END read on CLOCK_MONOTONIC when the turn ended, so that the benchmark can tell which turns
/// fell in which of its phases. The batch is written between two turns (`EventLoop.turnObserver`
/// runs before the poll), so the writing is in none of them.
final class LoopTurnLog {
    /// The variable that turns it on.
    static let variable = "LECTERN_LOG_LOOP_TURNS"
    /// How long a batch covers at most before it is written.
    static let batchMicroseconds: UInt64 = 500_000

    private let loop: EventLoop
    private let logger: Logger
    private var batch: [(end: UInt64, length: UInt64)] = []

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
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let end = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let (seconds, attoseconds) = turn.components
        batch.append((end, UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)))
        if let first = batch.first, end - first.end >= Self.batchMicroseconds || batch.count >= 4096 { write() }
    }

    private func write() {
        guard !batch.isEmpty else { return }
        logger.info("loop turns: \(batch.map { "\($0.end)/\($0.length)" }.joined(separator: " "))")
        batch.removeAll(keepingCapacity: true)
    }
}
