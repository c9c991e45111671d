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

    /// The first input since the last frame committed (nil: none): the frame shows what it did.
    private(set) var input: FrameInput?

    /// Asks for a frame at the next opportunity (any part that changed what is on screen).
    func request() {
        isRequested = true
        if since == nil { since = clock.now }
    }

    /// Asks for a frame after `event` (as it came from the seat, with the compositor's time):
    /// the next committed frame shows what it did, and how long it took to reach the screen is
    /// measured from it (`FramePresenter`).
    func request(after event: InputEvent) {
        request()
        if input == nil { input = FrameInput(event) }
    }

    /// Takes the input the frame just committed shows (once).
    func takeInput() -> FrameInput? {
        defer { input = nil }
        return input
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
    /// records a new one), and so is its input unless `keepsInput` (an animation it started
    /// shows it in a later frame).
    func dropped(keepsInput: Bool = false) {
        since = nil
        if !keepsInput { input = nil }
    }
}

/// The input a frame shows the result of: a finger, the pointer (a click, the wheel, a move) or
/// a key, and the compositor's time of it (seconds; from milliseconds that wrap at 2³²).
struct FrameInput: Equatable {
    enum Kind: String, CaseIterable {
        case touch, pointer, key
    }

    var kind: Kind
    var time: Double

    init?(_ event: InputEvent) {
        switch event.kind {
        case .touchDown, .touchMotion, .touchUp: kind = .touch
        case .pointerButton, .pointerMotion, .scroll: kind = .pointer
        case .key(_, isRepeat: false): kind = .key
        default: return nil
        }
        time = event.time
    }

    /// Seconds from this input to `presented` on the same clock, in the milliseconds the
    /// compositor stamps input with (wrapping at 2³²); nil when over `limit` (not one clock).
    func seconds(to presented: Double, limit: Double = 10) -> Double? {
        let milliseconds = (presented * 1000).rounded(.down)
        let wrapped =
            UInt32(truncatingIfNeeded: Int64(milliseconds))
            &- UInt32(truncatingIfNeeded: Int64((time * 1000).rounded()))
        let seconds = (Double(wrapped) + presented * 1000 - milliseconds) / 1000
        return seconds <= limit ? seconds : nil
    }
}
