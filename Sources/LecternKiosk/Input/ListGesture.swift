import LecternCore

/// A finger or the pointer on something that scrolls along one axis (the thumbnail bar and
/// grid, the outline): once it moved more than a few pixels it drags the content, and a flick
/// keeps it moving; lifted before that, it was a tap. A touch that stops a flick is not a tap.
struct ListGesture {
    /// How far a finger moves before a touch becomes a drag, in pixels.
    static let slop = 12.0

    let axis: Axis
    /// The touch (or -1: the pointer) being followed.
    private(set) var touch: Int?
    private var start = Point.zero
    private var isDragging = false
    private var stoppedFling = false

    init(axis: Axis) {
        self.axis = axis
    }

    var isActive: Bool { touch != nil }

    /// A finger (or the pointer's button) went down at `point`.
    mutating func begin(_ id: Int, at point: Point, time: Double, scroll: inout KineticScroll) {
        touch = id
        start = point
        isDragging = false
        stoppedFling = scroll.isFlinging
        scroll.beginDrag(at: time)
    }

    /// It moved to `point`; returns whether the content moved.
    mutating func move(_ id: Int, to point: Point, time: Double, scroll: inout KineticScroll) -> Bool {
        guard id == touch else { return false }
        let translation = axis == .horizontal ? point.x - start.x : point.y - start.y
        if !isDragging, abs(translation) > Self.slop { isDragging = true }
        guard isDragging else { return false }
        scroll.drag(translation: translation, at: time)
        return true
    }

    /// It lifted; returns where it went down when that was a tap.
    mutating func end(_ id: Int, time: Double, scroll: inout KineticScroll) -> Point? {
        guard id == touch else { return nil }
        touch = nil
        scroll.endDrag(at: time)
        return isDragging || stoppedFling ? nil : start
    }

    /// The touch was taken away (`wl_touch.cancel`): no tap, no flick.
    mutating func cancel(scroll: inout KineticScroll) {
        guard touch != nil else { return }
        touch = nil
        scroll.cancelDrag()
    }
}
