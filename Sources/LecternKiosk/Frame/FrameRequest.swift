import LecternCore

/// The request for the next frame of one surface (foot's `render_refresh`): a part that changed
/// what the surface shows calls `request()`, which only records that a frame is wanted and when
/// it was first asked for, on the loop's clock. The surface's presenter takes the request when
/// it draws (`take()`) and, once the frame is committed, says so (`shown()`), which answers how
/// long the change waited to be seen.
///
/// A surface starts with a request (its first frame), whose time is that of the first change
/// asked for after it (the window's first configure).
final class FrameRequest {
    private let clock: any MonotonicClock
    /// A frame is wanted and not yet taken.
    private(set) var isRequested = true
    /// When the change the next committed frame shows was first asked for (nil: not recorded).
    /// It outlives `take()`: a frame that could not be committed keeps the time of its change.
    private(set) var since: Double?

    init(clock: any MonotonicClock) {
        self.clock = clock
    }

    /// Asks for a frame at the next opportunity (any part that changed what is on screen).
    func request() {
        isRequested = true
        if since == nil { since = clock.now }
    }

    /// Takes the request as a frame is drawn (a part may ask again while it is drawn).
    func take() {
        isRequested = false
    }

    /// A frame was committed: returns the seconds since its change was asked for (0 when no time
    /// was recorded), and forgets the request (what was asked for while it was drawn, it shows).
    func shown() -> Double {
        defer {
            isRequested = false
            since = nil
        }
        return since.map { clock.now - $0 } ?? 0
    }

    /// The frame drawn showed nothing new: the time of its change is forgotten (a new request
    /// records a new one).
    func dropped() {
        since = nil
    }
}
