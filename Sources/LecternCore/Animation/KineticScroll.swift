/// Scrolling along one axis with a finger: the offset follows a drag, and a flick keeps it
/// moving and slowing down (the document view's fling: velocity decaying as `e^(−k·t)`),
/// stopping at the ends. For lists and strips beside the document: the thumbnail bar and grid,
/// the outline. A value, advanced with the app's clock.
public struct KineticScroll: Sendable {
    /// The offset: how far the content is scrolled (content coordinate at the view's start).
    public private(set) var offset = 0.0
    /// The offsets the content may rest at.
    public private(set) var bounds: ClosedRange<Double> = 0...0

    private var drag: (startOffset: Double, tracker: VelocityTracker)?
    private var fling: (origin: Double, velocity: Double, start: Double)?

    public init() {}

    /// Whether a flick is still moving the content.
    public var isFlinging: Bool { fling != nil }

    /// Whether a finger drags the content.
    public var isDragging: Bool { drag != nil }

    /// Sets the range the offset may take (content length minus view length, or a fixed offset
    /// when the content is shorter than the view), and clamps the offset into it.
    public mutating func setBounds(_ newBounds: ClosedRange<Double>) {
        bounds = newBounds
        offset = clamped(offset)
    }

    /// Jumps to `offset` (clamped), stopping a flick.
    public mutating func scroll(to newOffset: Double) {
        fling = nil
        offset = clamped(newOffset)
    }

    /// A finger starts dragging at `time`: a flick in progress stops under it.
    public mutating func beginDrag(at time: Double) {
        fling = nil
        var tracker = VelocityTracker()
        tracker.add(time: time, translation: .zero)
        drag = (offset, tracker)
    }

    /// The finger has moved `translation` since the drag began (positive: towards the end of
    /// the axis, so the content moves with it and the offset decreases).
    public mutating func drag(translation: Double, at time: Double) {
        guard var drag else { return }
        drag.tracker.add(time: time, translation: Point(x: translation, y: 0))
        self.drag = drag
        offset = clamped(drag.startOffset - translation)
    }

    /// The finger lifted at `time`: a flick carries on with the finger's speed.
    public mutating func endDrag(at time: Double) {
        guard let drag else { return }
        self.drag = nil
        let velocity = -drag.tracker.velocity(at: time).x
        guard abs(velocity) > Fling.stopSpeed else { return }
        fling = (offset, velocity, time)
    }

    /// The finger was taken away: the content stays where it is, without a flick.
    public mutating func cancelDrag() {
        drag = nil
        fling = nil
    }

    /// Moves a flick on to `now`; returns whether it is still moving.
    @discardableResult
    public mutating func advance(to now: Double) -> Bool {
        guard let fling else { return false }
        let t = max(0, now - fling.start)
        let decay = exponential(-Fling.decay * t)
        let position = fling.origin + fling.velocity * (1 - decay) / Fling.decay
        offset = clamped(position)
        if offset != position || abs(fling.velocity * decay) < Fling.stopSpeed {
            self.fling = nil
        }
        return self.fling != nil
    }

    private func clamped(_ value: Double) -> Double { min(max(value, bounds.lowerBound), bounds.upperBound) }
}
