import CMuPDF
import Logging
import Synchronization

/// Decides which log lines pass: at most `limit` per `window`; the count of dropped lines is reported
/// with the first line of a later window (no timer: a burst followed by silence reports nothing).
/// A value type driven by the caller's clock, so tests advance time by hand.
struct LogRateLimiter: Sendable {
    enum Decision: Equatable {
        /// Drop the line.
        case suppress
        /// Emit the line; if `suppressedBefore` > 0, first say how many were dropped.
        case emit(suppressedBefore: Int)
    }

    let limit: Int
    let window: Duration
    private var windowStart: Duration?
    private var emittedInWindow = 0
    private var suppressed = 0

    init(limit: Int, window: Duration) {
        self.limit = limit
        self.window = window
    }

    /// Registers one line at time `now` (any monotonic origin) and says what to do with it.
    mutating func admit(at now: Duration) -> Decision {
        if let start = windowStart, now - start < window {
            if emittedInWindow < limit {
                emittedInWindow += 1
                return .emit(suppressedBefore: 0)
            }
            suppressed += 1
            return .suppress
        }
        windowStart = now
        emittedInWindow = 1
        let dropped = suppressed
        suppressed = 0
        return .emit(suppressedBefore: dropped)
    }
}

/// Routes MuPDF's error and warning callbacks to a swift-log `Logger` labelled "lectern.mupdf",
/// at most 20 lines a second.
///
/// MuPDF calls the sink from whichever thread is inside MuPDF; the limiter is behind a lock.
enum MuPDFLog {
    static let logger = Logger(label: "lectern.mupdf")

    private static let state = LockedLimiter(LogRateLimiter(limit: 20, window: .seconds(1)))
    private static let origin = ContinuousClock.now

    /// Installs the C sink. Idempotent; called before the first MuPDF context is made.
    static func install() {
        CMuPDF_set_log_sink { level, source, message in
            guard let message else { return }
            MuPDFLog.log(level: level, source: source.map { String(cString: $0) }, message: String(cString: message))
        }
    }

    /// Logs one MuPDF line, with the file it concerns as `file` metadata.
    static func log(level: Int32, source: String?, message: String) {
        let decision = state.admit(at: ContinuousClock.now - origin)
        guard case .emit(let dropped) = decision else { return }
        if dropped > 0 {
            logger.warning("suppressed \(dropped) MuPDF messages")
        }
        let metadata: Logger.Metadata? = source.map { ["file": "\($0)"] }
        if level == Int32(CMUPDF_LOG_ERROR.rawValue) {
            logger.error("\(message)", metadata: metadata)
        } else {
            logger.warning("\(message)", metadata: metadata)
        }
    }
}

/// A `LogRateLimiter` behind a lock, shared by all threads.
final class LockedLimiter: Sendable {
    private let limiter: Mutex<LogRateLimiter>

    init(_ limiter: LogRateLimiter) { self.limiter = Mutex(limiter) }

    func admit(at now: Duration) -> LogRateLimiter.Decision {
        limiter.withLock { $0.admit(at: now) }
    }
}
