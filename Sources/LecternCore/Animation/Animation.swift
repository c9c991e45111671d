/// How an animated transition's progress follows time.
public enum TimingCurve: String, Hashable, Sendable, Codable {
    /// Constant speed.
    case linear
    /// Fast start, gentle stop (cubic).
    case easeOut
    /// Gentle start and stop (cubic).
    case easeInOut

    /// Progress for the fraction of time `t` in `0...1`.
    public func progress(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        switch self {
        case .linear: return t
        case .easeOut:
            let u = 1 - t
            return 1 - u * u * u
        case .easeInOut:
            if t < 0.5 { return 4 * t * t * t }
            let u = -2 * t + 2
            return 1 - u * u * u / 2
        }
    }
}

/// The zoom and offset of one scroll target at an instant.
struct ViewSnapshot: Sendable, Equatable {
    var scale: Double
    var offset: Point
}

/// A kinetic fling: the offset moves with `velocity` decaying as `e^(−k·t)`.
struct Fling: Sendable {
    /// The decay constant k (1/s); UIScrollView's normal rate, 0.998 per ms, is k ≈ 2.
    static let decay = 2.0
    /// The speed (px/s) below which a fling stops.
    static let stopSpeed = 20.0

    var target: ScrollTarget
    var origin: Point
    var velocity: Point
    var start: Double

    /// The unclamped offset `t` seconds after the start.
    func position(after t: Double) -> Point {
        let travelled = (1 - exponential(-Self.decay * t)) / Self.decay
        return origin + velocity * travelled
    }

    /// The speed `t` seconds after the start.
    func speed(after t: Double) -> Double {
        let v = velocity * exponential(-Self.decay * t)
        return (v.x * v.x + v.y * v.y).squareRoot()
    }
}

/// An eased transition of one target's zoom and offset (page turn, zoom to rect, bounce).
struct Transition: Sendable {
    var target: ScrollTarget
    var from: ViewSnapshot
    var to: ViewSnapshot
    var start: Double
    var duration: Double
    var curve: TimingCurve
    /// The page a page turn is heading for: `to` is that page's resting offset.
    var page: Int?
}

/// The animation in progress, if any.
enum ViewAnimation: Sendable {
    /// An eased transition of one target's zoom and offset (page turn, zoom to rect, bounce).
    case transition(Transition)
    /// A kinetic fling.
    case fling(Fling)
}

extension DocumentView {
    /// Whether an animation or a fling is running.
    public var isAnimating: Bool { animation != nil }

    func snapshot(of target: ScrollTarget) -> ViewSnapshot {
        switch target {
        case .document:
            return ViewSnapshot(scale: layout.spreadBasedZooming ? 1 : zoomScale, offset: contentOffset)
        case .spread(let s):
            let zoom = spreadZooms[s] ?? .identity
            return ViewSnapshot(scale: zoom.scale, offset: zoom.offset)
        }
    }

    mutating func startTransition(
        to end: ViewSnapshot, target: ScrollTarget, duration: Double, curve: TimingCurve, at now: Double,
        page: Int? = nil
    ) {
        if target == .document { notePageTurnOrigin() }
        let start = snapshot(of: target)
        guard start != end, duration > 0 else {
            setSnapshot(end, of: target)
            animation = nil
            return
        }
        animation = .transition(
            Transition(
                target: target, from: start, to: end, start: now, duration: duration, curve: curve, page: page))
    }

    mutating func setSnapshot(_ snapshot: ViewSnapshot, of target: ScrollTarget) {
        switch target {
        case .document:
            if !layout.spreadBasedZooming { zoomScale = snapshot.scale }
            contentOffset = snapshot.offset
        case .spread(let s):
            spreadZooms[s] = SpreadZoom(scale: snapshot.scale, offset: snapshot.offset)
        }
    }

    mutating func animateDocument(
        to offset: Point, duration: Double, curve: TimingCurve, at now: Double, page: Int? = nil
    ) {
        let scale = layout.spreadBasedZooming ? 1 : zoomScale
        startTransition(
            to: ViewSnapshot(scale: scale, offset: offset), target: .document, duration: duration, curve: curve,
            at: now,
            page: page)
    }

    mutating func animateOffset(
        of target: ScrollTarget, to offset: Point, duration: Double, curve: TimingCurve, at now: Double
    ) {
        let scale = snapshot(of: target).scale
        startTransition(
            to: ViewSnapshot(scale: scale, offset: offset), target: target, duration: duration, curve: curve, at: now)
    }

    /// Advances the running animation or fling to the clock's time `now`.
    ///
    /// - Returns: Whether an animation is still running (ask for another frame).
    @discardableResult
    public mutating func advanceAnimations(to now: Double) -> Bool {
        guard let running = animation else { return false }
        switch running {
        case .transition(let transition):
            let (from, to) = (transition.from, transition.to)
            let t = (now - transition.start) / transition.duration
            if t >= 1 {
                finishTransition()
                return false
            }
            let p = transition.curve.progress(t)
            let scale = from.scale + (to.scale - from.scale) * p
            let offset = from.offset + (to.offset - from.offset) * p
            setSnapshot(ViewSnapshot(scale: scale, offset: offset), of: transition.target)
            return true
        case .fling(let fling):
            let t = max(0, now - fling.start)
            let bounds = bounds(of: fling.target)
            let raw = fling.position(after: t)
            let clamped = bounds.clamp(raw)
            setOffset(clamped, of: fling.target)
            // A fling stops when it slows down or runs into the bounds on every moving axis.
            let stoppedX = fling.velocity.x == 0 || clamped.x != raw.x
            let stoppedY = fling.velocity.y == 0 || clamped.y != raw.y
            if fling.speed(after: t) < Fling.stopSpeed || (stoppedX && stoppedY) {
                animation = nil
                return false
            }
            return true
        }
    }

    /// Ends a running transition where it was going (a fling keeps running).
    mutating func finishTransition() {
        guard case .transition(let transition)? = animation else { return }
        setSnapshot(transition.to, of: transition.target)
        animation = nil
        clampAll()
    }

    /// Advances animations to `clock.now`; see `advanceAnimations(to:)`.
    @discardableResult
    public mutating func advanceAnimations(clock: some MonotonicClock) -> Bool {
        advanceAnimations(to: clock.now)
    }

    /// Stops any animation where it is.
    public mutating func stopAnimations() {
        animation = nil
    }

    /// Turns to `page` with an animated scroll (a page turn), ending at zoom 1.
    /// How long an animated page turn takes. It starts fast (ease out), so the first frame
    /// after a tap already shows the new page coming in.
    public static let pageTurnDuration = 0.25

    public mutating func goToPage(_ page: Int, animated: Bool, at now: Double) throws(DocumentViewError) {
        guard animated else {
            try goToPage(page)
            return
        }
        guard page >= 0, page < pages.count else { throw .pageOutOfRange(page: page, pageCount: pages.count) }
        userChanged()
        let spread = spreads.spreadIndex(forPage: page)
        spreadZooms[spread] = nil
        rememberedPage = page
        if !layout.spreadBasedZooming && zoomScale != 1 {
            // Zoom out while scrolling: both end together.
            let end = ViewSnapshot(scale: 1, offset: restingOffset(forSpread: spread))
            startTransition(
                to: end, target: .document, duration: Self.pageTurnDuration, curve: .easeOut, at: now, page: page)
        } else {
            animateDocument(
                to: restingOffset(forSpread: spread), duration: Self.pageTurnDuration, curve: .easeOut, at: now,
                page: page)
        }
        // The page becomes the dominant one when the turn comes to rest.
        navigationMark = NavigationMark(
            page: page, contentOffset: restingOffset(forSpread: spread),
            zoomScale: layout.spreadBasedZooming ? zoomScale : 1, spreadZoom: nil, viewportSize: viewportSize)
    }

    /// Turns to the next spread (animated).
    public mutating func showNextSpread(at now: Double) {
        let next = currentSpread + 1
        guard next < layout.spreadCount else { return }
        try? goToPage(spreads.pageRange(forSpread: next).lowerBound, animated: true, at: now)
    }

    /// Turns to the previous spread (animated).
    public mutating func showPreviousSpread(at now: Double) {
        let previous = currentSpread - 1
        guard previous >= 0 else { return }
        try? goToPage(spreads.pageRange(forSpread: previous).lowerBound, animated: true, at: now)
    }
}
