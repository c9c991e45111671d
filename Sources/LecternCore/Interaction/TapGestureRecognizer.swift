/// Recognizes `numberOfTaps` taps of `numberOfTouches` fingers each.
///
/// A tap is the fingers going down (never more than `numberOfTouches`, and none after the
/// first one lifts) and all lifting within `maximumTapDuration`, none moving more than
/// `allowableMovement`. The next tap must start within `maximumTapInterval` of the previous
/// one's end, within `maximumTapDistance` of the first; otherwise the recognizer fails
/// (through `deadline`, also when no event comes). Recognized when the last tap ends.
open class TapGestureRecognizer: GestureRecognizer {
    /// The taps to recognize (2 for a double tap).
    public let numberOfTaps: Int
    /// The fingers in each tap.
    public let numberOfTouches: Int
    /// How far a finger may move during a tap, in view pixels.
    public var allowableMovement = 12.0
    /// The longest a tap may last, from the first finger down to the last up, in seconds.
    public var maximumTapDuration = 0.75
    /// The longest wait between one tap's end and the next one's start, in seconds.
    public var maximumTapInterval = 0.3
    /// How far from the first tap the next ones may land, in view pixels.
    public var maximumTapDistance = 40.0

    /// The taps completed so far.
    public private(set) var tapsCompleted = 0
    private var tapStart: Double?
    private var touchesInTap = 0
    private var liftedInTap = false
    private var lastTapEnd: Double?
    private var firstTapSum = Point.zero
    private var firstTapLocation: Point?

    /// Creates a tap recognizer.
    public init(numberOfTaps: Int = 1, numberOfTouches: Int = 1, name: String? = nil) {
        self.numberOfTaps = max(1, numberOfTaps)
        self.numberOfTouches = max(1, numberOfTouches)
        super.init(name: name)
    }

    /// The centroid of the first tap's fingers where they went down.
    open override var location: Point {
        if let firstTapLocation { return firstTapLocation }
        if tapsCompleted == 0, touchesInTap > 0 { return firstTapSum * (1 / Double(touchesInTap)) }
        return super.location
    }

    open override var deadline: Double? {
        guard state == .possible, !isWaitingForFailureRequirements else { return nil }
        if let tapStart { return tapStart + maximumTapDuration }
        if let lastTapEnd, tapsCompleted > 0 { return lastTapEnd + maximumTapInterval }
        return nil
    }

    open override func touchBegan(_ touch: Touch) {
        guard state == .possible else { return }
        if tapStart == nil {
            if let lastTapEnd, touch.time - lastTapEnd > maximumTapInterval { return transition(to: .failed) }
            if let firstTapLocation, touch.location.distance(to: firstTapLocation) > maximumTapDistance {
                return transition(to: .failed)
            }
            tapStart = touch.time
            touchesInTap = 0
            liftedInTap = false
        }
        touchesInTap += 1
        if tapsCompleted == 0 { firstTapSum = firstTapSum + touch.startLocation }
        if liftedInTap || touchesInTap > numberOfTouches { transition(to: .failed) }
    }

    open override func touchMoved(_ touch: Touch) {
        if touch.distanceMoved > allowableMovement { transition(to: .failed) }
    }

    open override func touchEnded(_ touch: Touch) {
        liftedInTap = true
        guard touches.isEmpty else { return }
        guard touchesInTap == numberOfTouches else { return transition(to: .failed) }
        if tapsCompleted == 0 { firstTapLocation = firstTapSum * (1 / Double(touchesInTap)) }
        tapsCompleted += 1
        tapStart = nil
        lastTapEnd = touch.time
        if tapsCompleted == numberOfTaps { transition(to: .recognized) }
    }

    open override func timeDidPass(to now: Double) {
        transition(to: .failed)
    }

    open override func reset() {
        super.reset()
        tapsCompleted = 0
        tapStart = nil
        touchesInTap = 0
        liftedInTap = false
        lastTapEnd = nil
        firstTapSum = .zero
        firstTapLocation = nil
    }
}
