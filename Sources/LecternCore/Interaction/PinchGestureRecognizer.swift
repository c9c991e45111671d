/// Recognizes two fingers moving apart or together: `scale` is their distance relative to
/// when both were down, `focalPoint` their centroid. Begins once the distance changed by
/// `minimumSpanChange`; ends when either finger lifts. Further fingers are ignored.
open class PinchGestureRecognizer: GestureRecognizer {
    /// How much the fingers' distance must change before the pinch begins, in view pixels.
    public var minimumSpanChange = 8.0

    /// The fingers' distance now over their distance when the second went down.
    public private(set) var scale = 1.0
    /// The two fingers' centroid (the single finger's location while only one is down).
    public private(set) var focalPoint = Point.zero

    private var pair: [Int] = []
    private var initialSpan = 1.0

    /// Creates a pinch recognizer.
    public override init(name: String? = nil) {
        super.init(name: name)
    }

    open override var location: Point { focalPoint }

    private var span: Double {
        guard pair.count == 2, let a = touches[pair[0]], let b = touches[pair[1]] else { return initialSpan }
        return a.location.distance(to: b.location)
    }

    private func measure() {
        let points = pair.compactMap { touches[$0]?.location }
        guard !points.isEmpty else { return }
        focalPoint = points.reduce(Point.zero, +) * (1 / Double(points.count))
        if pair.count == 2 { scale = span / initialSpan }
    }

    open override func touchBegan(_ touch: Touch) {
        guard pair.count < 2 else { return }
        pair.append(touch.id)
        if pair.count == 2 {
            initialSpan = max(1, span)
            scale = 1
        }
        measure()
    }

    open override func touchMoved(_ touch: Touch) {
        guard pair.contains(touch.id) else { return }
        measure()
        guard pair.count == 2 else { return }
        if state.isActive || isWaitingForFailureRequirements {
            transition(to: .changed)
        } else if abs(span - initialSpan) >= minimumSpanChange {
            transition(to: .began)
        }
    }

    open override func touchEnded(_ touch: Touch) {
        guard let index = pair.firstIndex(of: touch.id) else { return }
        if state.isActive || isWaitingForFailureRequirements {
            transition(to: .ended)
            return
        }
        pair.remove(at: index)
        measure()
        if touches.isEmpty { transition(to: .failed) }
    }

    open override func reset() {
        super.reset()
        pair = []
        scale = 1
        initialSpan = 1
    }
}
