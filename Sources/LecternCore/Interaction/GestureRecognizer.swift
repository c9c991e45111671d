/// Where a gesture recognizer is in its life.
///
/// Discrete gestures (taps) go `possible → ended` or `possible → failed`; continuous ones
/// (pan, pinch, long press) go `possible → began → changed… → ended | cancelled`, or fail.
public enum GestureState: Hashable, Sendable {
    /// Watching the fingers; nothing recognized yet.
    case possible
    /// A continuous gesture was recognized and is in progress.
    case began
    /// A continuous gesture in progress moved.
    case changed
    /// The gesture finished (a discrete gesture is recognized in this state).
    case ended
    /// A continuous gesture in progress was taken away (`touchCancel`, lost device).
    case cancelled
    /// The fingers did not make this gesture.
    case failed

    /// The state a discrete gesture reaches when it is recognized.
    public static let recognized = GestureState.ended

    /// Whether a continuous gesture is in progress.
    public var isActive: Bool { self == .began || self == .changed }

    /// Whether the recognizer is done until it is reset.
    public var isFinished: Bool { self == .ended || self == .cancelled || self == .failed }
}

/// One finger (or the pointer's left button) as a recognizer sees it, in view space.
public struct Touch: Hashable, Sendable {
    /// The seat's touch id (`GestureArena.pointerTouchID` for the pointer).
    public var id: Int
    /// Where the finger is now.
    public var location: Point
    /// Where the finger went down.
    public var startLocation: Point
    /// When the finger went down, in seconds.
    public var startTime: Double
    /// The time of the latest event for this finger.
    public var time: Double

    /// Creates a touch.
    public init(id: Int, location: Point, startLocation: Point, startTime: Double, time: Double) {
        self.id = id
        self.location = location
        self.startLocation = startLocation
        self.startTime = startTime
        self.time = time
    }

    /// How far the finger moved from where it went down.
    public var distanceMoved: Double { location.distance(to: startLocation) }
}

/// A state machine that turns the fingers' movements into one kind of gesture.
///
/// Subclass it for a custom gesture: override `touchBegan(_:)`, `touchMoved(_:)`,
/// `touchEnded(_:)`, and for time-based gestures `deadline` and `timeDidPass(to:)`; call
/// `transition(to:)` to move between states, and `reset()` (calling `super`) to forget
/// per-gesture state. A `GestureArena` delivers the events and decides, from the failure
/// requirements, simultaneous-recognition relations and `shouldBegin`, when a recognizer
/// that asks to begin really does.
open class GestureRecognizer {
    /// A name for logs and test failures.
    public var name: String
    /// The state; see `GestureState`. While the recognizer waits for a failure requirement
    /// it stays `possible` (and `isWaitingForFailureRequirements` is true).
    public private(set) var state: GestureState = .possible
    /// A disabled recognizer receives nothing and counts as failed for those that wait on it.
    public var isEnabled = true {
        didSet {
            guard !isEnabled, oldValue else { return }
            if state.isActive {
                commit(.cancelled)
            } else if state == .possible {
                pendingState = nil
                state = .failed
            }
            arena?.recognizerChanged()
        }
    }
    /// Asked just before the recognizer leaves `possible` (after its failure requirements
    /// failed); returning `false` fails it, so recognizers waiting on it may proceed.
    public var shouldBegin: ((GestureRecognizer) -> Bool)?
    /// Asked when this recognizer and `other` would both be recognized; `true` lets them.
    public var shouldRecognizeSimultaneously: ((GestureRecognizer, GestureRecognizer) -> Bool)?
    /// Asked when this recognizer would begin, for each other recognizer of the arena that follows
    /// one of the same fingers: `true` makes this one wait until that one fails, as
    /// `require(toFail:)` does, but decided at that moment (on what the finger is over, the
    /// document shown…). Not asked for a recognizer that waits on this one.
    public var shouldRequireFailure: ((_ recognizer: GestureRecognizer, _ other: GestureRecognizer) -> Bool)?

    /// The fingers this recognizer follows now, by id.
    public private(set) var touches: [Int: Touch] = [:]
    /// Every finger this recognizer saw since it was last reset (some may be up by now).
    public private(set) var seenTouchIDs: Set<Int> = []

    /// The arena that drives this recognizer, if any.
    public internal(set) weak var arena: GestureArena?

    /// The state asked for while failure requirements or the arena's verdict are pending.
    var pendingState: GestureState?
    /// A continuous gesture that ended while it was still waiting to begin.
    var pendingEndsAfterBegin = false
    /// The component hook, asked after `shouldBegin`.
    var componentGate: ((GestureRecognizer) -> Bool)?

    private var actions: [(GestureRecognizer) -> Void] = []
    private var failureRequirements: [WeakRecognizer] = []
    private var simultaneousPartners: Set<ObjectIdentifier> = []

    /// Creates a recognizer.
    public init(name: String? = nil) {
        self.name = name ?? String(describing: Swift.type(of: self))
    }

    // MARK: Relations

    /// Runs `action` every time the recognizer begins, changes, ends or is cancelled (a
    /// discrete gesture: once, when it is recognized).
    public func addAction(_ action: @escaping (GestureRecognizer) -> Void) {
        actions.append(action)
    }

    /// Makes this recognizer wait until `other` fails: it fails itself when `other` is
    /// recognized. A requirement that would close a cycle is refused.
    ///
    /// - Returns: Whether the requirement was added.
    @discardableResult
    public func require(toFail other: GestureRecognizer) -> Bool {
        guard other !== self, !other.requiresTransitively(self) else { return false }
        guard !failureRequirements.contains(where: { $0.recognizer === other }) else { return true }
        failureRequirements.append(WeakRecognizer(recognizer: other))
        return true
    }

    /// Lets this recognizer and `other` be recognized at the same time (both ways).
    public func allowSimultaneousRecognition(with other: GestureRecognizer) {
        guard other !== self else { return }
        simultaneousPartners.insert(ObjectIdentifier(other))
        other.simultaneousPartners.insert(ObjectIdentifier(self))
    }

    /// The recognizers this one waits on, that still exist.
    public var requiredToFail: [GestureRecognizer] { failureRequirements.compactMap(\.recognizer) }

    /// Whether this recognizer and `other` may be recognized at the same time.
    public func canBeRecognizedSimultaneously(with other: GestureRecognizer) -> Bool {
        simultaneousPartners.contains(ObjectIdentifier(other))
            || other.simultaneousPartners.contains(ObjectIdentifier(self))
            || shouldRecognizeSimultaneously?(self, other) == true
            || other.shouldRecognizeSimultaneously?(other, self) == true
    }

    func requiresTransitively(_ other: GestureRecognizer) -> Bool {
        var stack = requiredToFail
        var visited: Set<ObjectIdentifier> = []
        while let next = stack.popLast() {
            if next === other { return true }
            if visited.insert(ObjectIdentifier(next)).inserted { stack += next.requiredToFail }
        }
        return false
    }

    // MARK: For subclasses

    /// Whether the recognizer asked to begin (or was recognized) and waits for the arena's
    /// verdict: its failure requirements, exclusivity and `shouldBegin`.
    public var isWaitingForFailureRequirements: Bool { pendingState != nil }

    /// The centroid of the fingers followed now (a subclass may report something else).
    open var location: Point {
        guard !touches.isEmpty else { return lastLocation }
        var sum = Point.zero
        for touch in touches.values { sum = sum + touch.location }
        return sum * (1 / Double(touches.count))
    }

    /// The last centroid while fingers were down.
    public private(set) var lastLocation: Point = .zero

    /// When the recognizer wants `timeDidPass(to:)` called, if it waits for time (a tap's
    /// interval, a long press's duration). After the fingers lift, a `possible` recognizer
    /// with no deadline is failed by the arena, so nothing waits on it forever.
    open var deadline: Double? { nil }

    /// A finger went down; it is already in `touches`.
    open func touchBegan(_ touch: Touch) {}
    /// A followed finger moved; `touches` holds its new location.
    open func touchMoved(_ touch: Touch) {}
    /// A followed finger lifted; it is no longer in `touches`.
    open func touchEnded(_ touch: Touch) {}
    /// The clock reached `deadline` (`now` may be later than it).
    open func timeDidPass(to now: Double) {}

    /// Forgets the gesture; the arena calls it before the recognizer takes part again.
    /// Subclasses must call `super.reset()`.
    open func reset() {
        state = .possible
        pendingState = nil
        pendingEndsAfterBegin = false
        touches = [:]
        seenTouchIDs = []
    }

    /// Asks for a new state.
    ///
    /// `possible → began | ended` is a request: the arena grants it once the failure
    /// requirements failed, no other gesture excludes it and `shouldBegin` agrees, or fails
    /// the recognizer. `possible → failed`, and from `began`/`changed` to `changed`, `ended`
    /// or `cancelled`, take effect at once. Other transitions are ignored.
    public final func transition(to newState: GestureState) {
        if let pending = pendingState {
            switch newState {
            case .failed, .cancelled:
                pendingState = nil
                pendingEndsAfterBegin = false
                state = .failed
            case .ended where pending == .began:
                pendingEndsAfterBegin = true
            default:
                break
            }
            return
        }
        switch (state, newState) {
        case (.possible, .began), (.possible, .ended):
            pendingState = newState
        case (.possible, .failed):
            state = .failed
        case (.began, .changed), (.changed, .changed), (.began, .ended), (.changed, .ended),
            (.began, .cancelled), (.changed, .cancelled):
            commit(newState)
        default:
            break
        }
    }

    // MARK: Arena

    /// Sets the state and runs the actions.
    func commit(_ newState: GestureState) {
        state = newState
        for action in actions { action(self) }
    }

    /// Fails a recognizer that has not been recognized (also one waiting to begin).
    func fail() {
        guard state == .possible else { return }
        pendingState = nil
        pendingEndsAfterBegin = false
        state = .failed
    }

    /// Cancels a gesture in progress, fails one that is possible.
    func cancel() {
        if state.isActive {
            commit(.cancelled)
        } else {
            fail()
        }
    }

    /// Grants the pending request.
    func grant() {
        guard let pending = pendingState else { return }
        pendingState = nil
        commit(pending)
        if pending == .began && pendingEndsAfterBegin {
            pendingEndsAfterBegin = false
            commit(.ended)
        }
    }

    /// Whether the recognizer (and its component, if any) agree to begin now.
    func agreesToBegin() -> Bool {
        if let shouldBegin, !shouldBegin(self) { return false }
        if let componentGate, !componentGate(self) { return false }
        return true
    }

    func addTouch(_ touch: Touch) {
        touches[touch.id] = touch
        seenTouchIDs.insert(touch.id)
        lastLocation = location
    }

    func updateTouch(_ touch: Touch) {
        touches[touch.id] = touch
        lastLocation = location
    }

    func removeTouch(id: Int) -> Touch? {
        lastLocation = location
        return touches.removeValue(forKey: id)
    }

    func forgetTouches() {
        touches = [:]
    }
}

/// A reference that does not keep a recognizer alive (failure requirements may form
/// long-lived graphs between recognizers that are removed at different times).
struct WeakRecognizer {
    weak var recognizer: GestureRecognizer?
}
