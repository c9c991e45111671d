/// A source of time, in seconds, for flings and animations.
///
/// The view model never reads the time itself: callers pass `clock.now` to
/// `DocumentView.advanceAnimations(to:)` and friends, so tests drive time by hand.
public protocol AnimationClock {
    /// The current time in seconds since an arbitrary, fixed origin.
    var now: Double { get }
}

/// A clock that only moves when told to, for tests and replays.
public final class ManualClock: AnimationClock {
    /// The current time in seconds.
    public private(set) var now: Double

    /// Creates a clock reading `start` seconds.
    public init(start: Double = 0) {
        now = start
    }

    /// Moves the clock forward by `seconds` (never backward).
    public func advance(by seconds: Double) {
        now += max(0, seconds)
    }
}

/// The monotonic system clock (`ContinuousClock`), measured from when it was created.
public struct SystemAnimationClock: AnimationClock, Sendable {
    private let origin: ContinuousClock.Instant

    /// Creates a clock reading 0 now.
    public init() {
        origin = ContinuousClock.now
    }

    public var now: Double {
        let elapsed = ContinuousClock.now - origin
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
