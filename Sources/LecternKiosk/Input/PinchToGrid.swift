import LecternCore

/// Pinching the fitted page smaller opens the thumbnail grid: two fingers that end the pinch
/// at less than `threshold` of the distance they started at, on a page at its fitted zoom.
/// It only watches the touches (the pinch itself still goes to the interaction controller,
/// which keeps the page at its smallest zoom).
struct PinchToGrid {
    /// How far the fingers must close, as a fraction of where they started.
    static let threshold = 0.6

    private var fingers: [Int: Point] = [:]
    /// Where the two fingers started, while exactly two are down from a fitted page.
    private var start: (Point, Point)?

    /// Follows `event`; returns true when a pinch just ended closed enough to open the grid.
    mutating func observe(_ event: InputEvent, zoomScale: Double) -> Bool {
        switch event.kind {
        case .touchDown(let id, let location):
            fingers[id] = location
            start = nil
            if fingers.count == 2, zoomScale <= 1.01 {
                let points = Array(fingers.values)
                start = (points[0], points[1])
            }
        case .touchMotion(let id, let location):
            if fingers[id] != nil { fingers[id] = location }
        case .touchUp(let id):
            defer {
                fingers[id] = nil
                start = nil
            }
            guard let start, fingers.count == 2 else { return false }
            let points = Array(fingers.values)
            let before = start.0.distance(to: start.1)
            return before > 0 && points[0].distance(to: points[1]) < before * Self.threshold
        case .touchCancel:
            fingers = [:]
            start = nil
        default:
            break
        }
        return false
    }
}
