import LecternCore

/// A navigation part a finger scrolls along one axis and taps: the thumbnail bar and grid, the
/// outline. A drag scrolls it (`ListGesture`), a flick keeps it moving (`KineticScroll`), and
/// a touch that did neither is a tap, handed to `tapped(at:reader:)`.
class ScrollingPart: NavigationPart {
    var scroll = KineticScroll()
    /// Asks the component of a control before a tap acts (`Navigation.gate`).
    var gate = ChromeGate()
    private var gesture: ListGesture
    private let axis: Axis

    init(axis: Axis) {
        self.axis = axis
        gesture = ListGesture(axis: axis)
    }

    /// Whether a finger drags the content or a flick moves it.
    var isMoving: Bool { gesture.isActive || scroll.isFlinging }

    /// Moves a flick on; returns whether it still moves.
    func advance(to now: Double) -> Bool { scroll.advance(to: now) }

    /// How far one wheel detent moves a list: about two rows of the outline, half a thumbnail.
    static let detent = 96.0

    /// The wheel (`steps` detents) or a touchpad (`delta`, in screen units) moved the content
    /// (positive: towards the end); a vertical wheel scrolls a horizontal list too.
    func scroll(by delta: Point, steps: Point?) {
        func along(_ point: Point) -> Double { axis == .horizontal && point.x != 0 ? point.x : point.y }
        let distance = steps.map { along($0) * Self.detent } ?? along(delta)
        guard distance != 0, !gesture.isActive else { return }
        scroll.scroll(to: scroll.offset + distance)
    }

    /// Lets go of a finger on it (the part closes or hides).
    func cancelTouches() { gesture.cancel(scroll: &scroll) }

    /// A tap at `point` (where the finger went down). Subclasses act on it.
    func tapped(at point: Point, reader: Reader) {}

    func touchBegan(_ id: Int, at point: Point, time: Double, reader: Reader) {
        gesture.begin(id, at: point, time: time, scroll: &scroll)
    }

    func touchMoved(_ id: Int, to point: Point, time: Double, reader: Reader) {
        _ = gesture.move(id, to: point, time: time, scroll: &scroll)
    }

    func touchEnded(_ id: Int, time: Double, reader: Reader) {
        if let tap = gesture.end(id, time: time, scroll: &scroll) { tapped(at: tap, reader: reader) }
    }

    func touchCancelled(_ id: Int, reader: Reader) { cancelTouches() }
}

/// A scrolling part that opens over the pages and closes again: the thumbnail grid, the outline
/// panel. Escape closes it; a flick moves it only while it is open.
class ScrollingPanel: ScrollingPart {
    private(set) var isOpen = false

    /// Shows it (where it opens is the subclass's business).
    func show() { isOpen = true }

    func close() {
        isOpen = false
        cancelTouches()
        // A flick stops where it is: a closed panel does not move (nor keep frames coming).
        scroll.scroll(to: scroll.offset)
    }

    override func advance(to now: Double) -> Bool { isOpen && super.advance(to: now) }

    /// Escape closes it.
    func handle(_ key: Key) -> Bool {
        guard isOpen, key == .escape else { return false }
        close()
        return true
    }
}
