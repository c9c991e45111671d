/// Recognizes fingers dragged across the screen: `translation` is how far their centroid
/// moved since they went down (a finger joining or lifting does not make it jump),
/// `velocity` how fast it moves, estimated from the recent samples.
///
/// Begins once the translation reaches `minimumDistance`; ends when fewer than
/// `minimumNumberOfTouches` fingers are left.
open class PanGestureRecognizer: GestureRecognizer {
    /// How far the fingers must move before the pan begins, in view pixels.
    public var minimumDistance = 10.0
    /// The fewest fingers that pan.
    public var minimumNumberOfTouches = 1
    /// The most fingers that pan; more fail the pan before it begins (and are ignored after).
    public var maximumNumberOfTouches = Int.max

    /// How far the fingers moved since they went down, in view pixels.
    public private(set) var translation = Point.zero
    /// The samples the velocity is estimated from.
    private var tracker = VelocityTracker()
    private var origin = Point.zero
    private var base = Point.zero
    private var releaseTime: Double?

    /// Creates a pan recognizer.
    public override init(name: String? = nil) {
        super.init(name: name)
    }

    /// The fingers' velocity in view pixels per second: now, or when they lifted.
    public var velocity: Point { tracker.velocity(at: releaseTime) }

    /// Starts measuring from the current centroid, keeping the translation so far. The
    /// velocity starts over too: what the fingers did together (a pinch) is not a flick.
    private func rebase(at time: Double) {
        base = translation
        origin = location
        tracker = VelocityTracker()
        tracker.add(time: time, translation: translation)
    }

    open override func touchBegan(_ touch: Touch) {
        if state == .possible && !isWaitingForFailureRequirements && touches.count > maximumNumberOfTouches {
            return transition(to: .failed)
        }
        rebase(at: touch.time)
        releaseTime = nil
    }

    open override func touchMoved(_ touch: Touch) {
        translation = base + (location - origin)
        tracker.add(time: touch.time, translation: translation)
        if state.isActive || isWaitingForFailureRequirements {
            transition(to: .changed)
        } else if touches.count >= minimumNumberOfTouches,
            translation.distance(to: .zero) >= minimumDistance
        {
            transition(to: .began)
        }
    }

    open override func touchEnded(_ touch: Touch) {
        if !touches.isEmpty { rebase(at: touch.time) }
        guard touches.count < minimumNumberOfTouches else { return }
        releaseTime = touch.time
        transition(to: state.isActive || isWaitingForFailureRequirements ? .ended : .failed)
    }

    open override func reset() {
        super.reset()
        translation = .zero
        tracker = VelocityTracker()
        origin = .zero
        base = .zero
        releaseTime = nil
    }
}

/// Estimates a finger's velocity by a least-squares line through the last
/// `horizon` seconds of samples (the last pair alone is too noisy: touch screens report
/// at uneven intervals and in whole pixels).
struct VelocityTracker: Sendable {
    /// How far back samples count, in seconds.
    static let horizon = 0.1
    /// A finger that did not move for this long before lifting was held still.
    static let stillness = 0.05

    private var samples: [(time: Double, translation: Point)] = []

    mutating func add(time: Double, translation: Point) {
        samples.append((time, translation))
        guard let newest = samples.last?.time else { return }
        if let keep = samples.firstIndex(where: { $0.time >= newest - Self.horizon }), keep > 0 {
            samples.removeFirst(keep)
        }
    }

    /// The velocity at the newest sample, or at `release` (zero when the finger rested
    /// before it lifted).
    func velocity(at release: Double?) -> Point {
        guard let newest = samples.last else { return .zero }
        if let release, release - newest.time > Self.stillness { return .zero }
        let recent = samples.filter { $0.time >= newest.time - Self.horizon }
        guard recent.count >= 2 else { return .zero }
        let n = Double(recent.count)
        let meanT = recent.reduce(0) { $0 + $1.time } / n
        let meanP = recent.reduce(Point.zero) { $0 + $1.translation } * (1 / n)
        var stt = 0.0
        var stx = 0.0
        var sty = 0.0
        for sample in recent {
            let dt = sample.time - meanT
            stt += dt * dt
            stx += dt * (sample.translation.x - meanP.x)
            sty += dt * (sample.translation.y - meanP.y)
        }
        guard stt > 1e-12 else { return .zero }
        return Point(x: stx / stt, y: sty / stt)
    }
}
