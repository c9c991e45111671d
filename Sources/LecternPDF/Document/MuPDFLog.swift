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
/// at most 20 lines a second for each document (one broken file does not silence another).
///
/// MuPDF calls the sink from whichever thread is inside MuPDF; the limiters are behind a lock.
enum MuPDFLog {
    static let logger = Logger(label: "lectern.mupdf")

    private static let state = LockedLimiter(limit: 20, window: .seconds(1))
    private static let origin = ContinuousClock.now
    /// Sees every line that is logged, with the document it concerns (tests read what a flood
    /// of MuPDF errors leaves in the log).
    static let observer = Mutex<(@Sendable (_ source: String?, _ line: String) -> Void)?>(nil)

    /// Installs the C sink. Idempotent; called before the first MuPDF context is made.
    static func install() {
        CMuPDF_set_log_sink { level, source, message in
            guard let message else { return }
            MuPDFLog.log(level: level, source: source.map { String(cString: $0) }, message: String(cString: message))
        }
    }

    /// Logs one MuPDF line, with the file it concerns as `file` metadata.
    static func log(level: Int32, source: String?, message: String) {
        let decision = state.admit(source: source, at: ContinuousClock.now - origin)
        guard case .emit(let dropped) = decision else { return }
        let metadata: Logger.Metadata? = source.map { ["file": "\($0)"] }
        let observe = observer.withLock { $0 }
        if dropped > 0 {
            logger.warning("suppressed \(dropped) MuPDF messages", metadata: metadata)
            observe?(source, "suppressed \(dropped) MuPDF messages")
        }
        if level == Int32(CMUPDF_LOG_ERROR.rawValue) {
            logger.error("\(message)", metadata: metadata)
        } else {
            logger.warning("\(message)", metadata: metadata)
        }
        observe?(source, message)
    }
}

/// A `LogRateLimiter` per document, behind a lock, shared by all threads.
final class LockedLimiter: Sendable {
    private let limiters = Mutex<[String: LogRateLimiter]>([:])
    private let limit: Int
    private let window: Duration

    init(limit: Int, window: Duration) {
        self.limit = limit
        self.window = window
    }

    func admit(source: String?, at now: Duration) -> LogRateLimiter.Decision {
        limiters.withLock { limiters in
            // Documents come and go in a kiosk: forget them all now and then rather than grow.
            if limiters.count > 64 { limiters.removeAll() }
            return limiters[source ?? "", default: LogRateLimiter(limit: limit, window: window)].admit(at: now)
        }
    }
}
