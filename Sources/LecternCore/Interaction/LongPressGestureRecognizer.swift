/// Recognizes `numberOfTouches` fingers held still for `minimumPressDuration`, then
/// follows them until they lift (began → changed… → ended).
open class LongPressGestureRecognizer: GestureRecognizer {
    /// The fingers to hold.
    public let numberOfTouches: Int
    /// How long they must be held, in seconds.
    public var minimumPressDuration = 0.5
    /// How far a finger may move before the press begins, in view pixels.
    public var allowableMovement = 12.0

    private var pressStart: Double?

    /// Creates a long-press recognizer.
    public init(numberOfTouches: Int = 1, name: String? = nil) {
        self.numberOfTouches = max(1, numberOfTouches)
        super.init(name: name)
    }

    open override var deadline: Double? {
        guard state == .possible, !isWaitingForFailureRequirements, let pressStart else { return nil }
        return pressStart + minimumPressDuration
    }

    open override func touchBegan(_ touch: Touch) {
        guard state == .possible, !isWaitingForFailureRequirements else { return }
        if touches.count > numberOfTouches { return transition(to: .failed) }
        if touches.count == numberOfTouches { pressStart = touch.time }
    }

    open override func touchMoved(_ touch: Touch) {
        if state.isActive || isWaitingForFailureRequirements {
            transition(to: .changed)
        } else if touch.distanceMoved > allowableMovement {
            transition(to: .failed)
        }
    }

    open override func touchEnded(_ touch: Touch) {
        if state.isActive || isWaitingForFailureRequirements {
            if touches.count < numberOfTouches { transition(to: .ended) }
        } else {
            transition(to: .failed)
        }
    }

    open override func timeDidPass(to now: Double) {
        transition(to: touches.count == numberOfTouches ? .began : .failed)
    }

    open override func reset() {
        super.reset()
        pressStart = nil
    }
}
