/// The one source of time of the reader, in seconds: animations, flings, gesture deadlines,
/// key repeat, the idle reset and every timer of the event loop read it.
///
/// The view model never reads the time itself: callers pass `clock.now` to
/// `DocumentView.advanceAnimations(to:)` and friends, and the app is given its clock, so tests
/// drive time by hand with a `ManualClock`.
public protocol MonotonicClock: AnyObject {
    /// The current time in seconds since an arbitrary, fixed origin.
    var now: Double { get }
    /// Whether time passes by itself (the system clock) or only when someone moves it (a
    /// test's manual clock): an event loop waits for a deadline only on a clock that gets
    /// there by itself.
    var passesByItself: Bool { get }
}

/// A clock that only moves when told to, for tests and replays.
public final class ManualClock: MonotonicClock {
    /// The current time in seconds.
    public private(set) var now: Double
    public var passesByItself: Bool { false }

    /// Creates a clock reading `start` seconds.
    public init(start: Double = 0) {
        now = start
    }

    /// Moves the clock forward by `seconds` (never backward).
    public func advance(by seconds: Double) {
        now += max(0, seconds)
    }
}

/// The monotonic system clock (`ContinuousClock`), reading 0 when it was created.
public final class SystemClock: MonotonicClock, Sendable {
    private let origin: ContinuousClock.Instant

    public init() {
        origin = ContinuousClock.now
    }

    public var now: Double { (ContinuousClock.now - origin).seconds }
    public var passesByItself: Bool { true }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration in whole milliseconds, rounded down.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
