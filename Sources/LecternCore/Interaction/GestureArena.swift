/// Drives gesture recognizers from the seat's events and settles which of them win.
///
/// Rules, in the order they apply to each event:
/// 1. Time first: every recognizer whose `deadline` is due at the event's time (or at
///    `tick(now:)`) is told, so a double tap's window or a long press's duration expire
///    before the next finger counts.
/// 2. Each touch event takes effect on its own (`touchFrame` is ignored: cage never sends
///    it). A new finger goes to every recognizer that can take it; a recognizer that
///    finished and follows no finger still down is reset first. Motion and lift go to the
///    recognizers following that finger; events for unknown ids are ignored.
/// 3. When no finger is down, a `possible` recognizer with no deadline has nothing left to
///    wait for and fails.
/// 4. Requests to begin are settled in the order recognizers were added: one that requires
///    another to fail waits until it fails, and fails if it is recognized; one that another
///    gesture excludes (in progress, or recognized on the same fingers, without
///    simultaneous recognition) fails; otherwise `shouldBegin` (and its component's
///    activation conditions) decide. When one begins, the possible recognizers it shares
///    fingers with and may not run alongside fail.
/// 5. `touchCancel` (or losing the touch device) cancels every gesture in progress and
///    fails every other one, including those waiting; the next finger starts clean.
///
/// The pointer's left button is a single finger with id `pointerTouchID`.
public final class GestureArena {
    /// The touch id the pointer's left button uses.
    public static let pointerTouchID = Int.min

    /// The recognizers, in priority order.
    public private(set) var recognizers: [GestureRecognizer] = []
    /// The fingers down now, by id.
    public private(set) var liveTouches: [Int: Touch] = [:]
    /// The latest time seen (from an event or `tick(now:)`).
    public private(set) var now: Double = -Double.infinity

    private var pointerLocation: Point?
    private var isPointerPressed = false
    /// Whether the gestures in flight were started by a touch screen (not the pointer).
    private var touchScreenInFlight = false

    /// Creates an empty arena.
    public init() {}

    /// Adds a recognizer (after those already there: earlier ones win ties).
    public func add(_ recognizer: GestureRecognizer) {
        guard !recognizers.contains(where: { $0 === recognizer }) else { return }
        recognizer.arena?.remove(recognizer)
        recognizer.reset()
        recognizer.arena = self
        recognizers.append(recognizer)
    }

    /// Removes a recognizer, cancelling its gesture.
    public func remove(_ recognizer: GestureRecognizer) {
        guard let index = recognizers.firstIndex(where: { $0 === recognizer }) else { return }
        recognizer.cancel()
        recognizers.remove(at: index)
        recognizer.arena = nil
        settle()
    }

    /// When the next time-based transition is due: arm a timer for it and call
    /// `tick(now:)` then. `nil` when nothing waits for time.
    public var nextDeadline: Double? {
        // Only deadlines still ahead: one already told (and ignored) must not spin the loop.
        // A loop, not a chain with a key path: asked after every input event.
        var earliest: Double?
        for recognizer in recognizers
        where recognizer.isEnabled && recognizer.state == .possible && !recognizer.isWaitingForFailureRequirements {
            guard let deadline = recognizer.deadline, deadline > now else { continue }
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// Lets time pass without an event (the main loop's timer for `nextDeadline`).
    public func tick(now time: Double) {
        advance(to: time)
        settle()
    }

    /// Feeds one event from the seat.
    public func handle(_ event: InputEvent) {
        advance(to: event.time)
        switch event.kind {
        case .touchDown(let id, let location):
            touchScreenInFlight = true
            down(id: id, at: location, time: event.time)
        case .touchMotion(let id, let location):
            move(id: id, to: location, time: event.time)
        case .touchUp(let id):
            up(id: id, time: event.time)
        case .touchFrame:
            break
        case .touchCancel:
            cancelAll()
        case .pointerEnter(let location):
            pointerLocation = location
        case .pointerMotion(let location):
            pointerLocation = location
            if isPointerPressed { move(id: Self.pointerTouchID, to: location, time: event.time) }
        case .pointerLeave:
            // The release will not come to us: what the button was doing is void.
            if isPointerPressed { cancelAll() }
            pointerLocation = nil
        case .pointerButton(.left, let isPressed):
            if isPressed, !isPointerPressed, let location = pointerLocation {
                isPointerPressed = true
                touchScreenInFlight = false
                down(id: Self.pointerTouchID, at: location, time: event.time)
            } else if !isPressed, isPointerPressed {
                isPointerPressed = false
                up(id: Self.pointerTouchID, time: event.time)
            }
        case .pointerButton:
            break
        case .capabilitiesChanged(let devices):
            let touchLost = !devices.contains(.touch) && touchScreenInFlight
            let pointerLost = !devices.contains(.pointer) && isPointerPressed
            if touchLost || pointerLost { cancelAll() }
            if !devices.contains(.pointer) { pointerLocation = nil }
        case .scroll, .key:
            break
        }
    }

    /// Cancels every gesture in progress and fails every other one; forgets every finger.
    public func cancelAll() {
        for recognizer in recognizers {
            recognizer.cancel()
            recognizer.forgetTouches()
        }
        liveTouches = [:]
        isPointerPressed = false
        touchScreenInFlight = false
    }

    // MARK: Events

    private func advance(to time: Double) {
        now = max(now, time)
        // A deadline that fails one recognizer may let another proceed, whose own deadline
        // is due too: go round until none is, telling each recognizer at most once.
        var told: Set<ObjectIdentifier> = []
        while true {
            let due = recognizers.filter { recognizer in
                recognizer.isEnabled && recognizer.state == .possible && !recognizer.isWaitingForFailureRequirements
                    && (recognizer.deadline.map { $0 <= now } ?? false) && !told.contains(ObjectIdentifier(recognizer))
            }
            guard !due.isEmpty else { break }
            for recognizer in due {
                told.insert(ObjectIdentifier(recognizer))
                recognizer.timeDidPass(to: now)
            }
            settle()
        }
    }

    private func down(id: Int, at location: Point, time: Double) {
        if liveTouches[id] != nil {
            // A down for a finger already down: the lift was lost. End it first.
            up(id: id, time: time)
        }
        let touch = Touch(id: id, location: location, startLocation: location, startTime: time, time: time)
        // Ids are reused: the fingers that were down before this one.
        let live = Set(liveTouches.keys)
        liveTouches[id] = touch
        for recognizer in recognizers
        where recognizer.state.isFinished && recognizer.seenTouchIDs.isDisjoint(with: live) {
            recognizer.reset()
        }
        var received: Set<ObjectIdentifier> = []
        var finishedBefore: Set<ObjectIdentifier> = []
        for recognizer in recognizers {
            if recognizer.state.isFinished { finishedBefore.insert(ObjectIdentifier(recognizer)) }
            guard takesNewTouches(recognizer) else { continue }
            received.insert(ObjectIdentifier(recognizer))
            recognizer.addTouch(touch)
            recognizer.touchBegan(touch)
        }
        settle()
        // A recognizer that finished while this finger came down, other than by recognizing
        // it (a double tap whose second tap landed too far away, a single tap granted once
        // that failed), starts afresh with it: a visitor's next tap is a first tap.
        for recognizer in recognizers where recognizer.state.isFinished {
            let key = ObjectIdentifier(recognizer)
            guard !finishedBefore.contains(key), recognizer.isEnabled else { continue }
            let recognizedThis = received.contains(key) && recognizer.state != .failed
            guard !recognizedThis, recognizer.seenTouchIDs.subtracting([id]).isDisjoint(with: live) else { continue }
            recognizer.reset()
            recognizer.addTouch(touch)
            recognizer.touchBegan(touch)
        }
        settle()
    }

    private func move(id: Int, to location: Point, time: Double) {
        guard var touch = liveTouches[id] else { return }
        touch.location = location
        touch.time = time
        liveTouches[id] = touch
        for recognizer in recognizers where recognizer.touches[id] != nil {
            recognizer.updateTouch(touch)
            if recognizer.isEnabled && !recognizer.state.isFinished && recognizer.pendingState != .ended {
                recognizer.touchMoved(touch)
            }
        }
        settle()
    }

    private func up(id: Int, time: Double) {
        guard var touch = liveTouches.removeValue(forKey: id) else { return }
        touch.time = time
        for recognizer in recognizers where recognizer.touches[id] != nil {
            _ = recognizer.removeTouch(id: id)
            if recognizer.isEnabled && !recognizer.state.isFinished && recognizer.pendingState != .ended {
                recognizer.touchEnded(touch)
            }
        }
        settle()
    }

    private func takesNewTouches(_ recognizer: GestureRecognizer) -> Bool {
        guard recognizer.isEnabled else { return false }
        switch recognizer.state {
        case .possible: return recognizer.pendingState != .ended
        case .began, .changed: return true
        case .ended, .cancelled, .failed: return false
        }
    }

    // MARK: Settling

    /// Fails what has nothing left to wait for and grants or refuses pending requests,
    /// until nothing changes.
    func settle() {
        var changed = true
        while changed {
            changed = false
            if liveTouches.isEmpty {
                for recognizer in recognizers
                where recognizer.state == .possible && !recognizer.isWaitingForFailureRequirements
                    && recognizer.deadline == nil
                {
                    recognizer.fail()
                }
            }
            for recognizer in recognizers where recognizer.isWaitingForFailureRequirements {
                if decide(recognizer) { changed = true }
            }
        }
    }

    /// Called when a recognizer's relations or enabled state changed outside an event.
    func recognizerChanged() {
        settle()
    }

    /// Grants or refuses one pending request. Returns whether it was decided.
    private func decide(_ recognizer: GestureRecognizer) -> Bool {
        var waiting = false
        for required in recognizer.requiredToFail + dynamicRequirements(of: recognizer) where required.isEnabled {
            switch required.state {
            case .failed, .cancelled:
                continue
            case .began, .changed, .ended:
                recognizer.fail()
                return true
            case .possible:
                waiting = true
            }
        }
        if waiting { return false }
        if recognizers.contains(where: { $0 !== recognizer && excludes($0, recognizer) }) {
            recognizer.fail()
            return true
        }
        guard recognizer.agreesToBegin() else {
            recognizer.fail()
            return true
        }
        // The gate may have changed things (an activation condition that disables something).
        guard recognizer.isWaitingForFailureRequirements else { return true }
        for other in recognizers where other !== recognizer && other.state == .possible {
            if !other.canBeRecognizedSimultaneously(with: recognizer)
                && !other.seenTouchIDs.isDisjoint(with: recognizer.seenTouchIDs)
            {
                other.fail()
            }
        }
        recognizer.grant()
        return true
    }

    /// The recognizers `recognizer.shouldRequireFailure` makes it wait on now: those following one
    /// of its fingers, except any that waits on it (which would wait for ever).
    private func dynamicRequirements(of recognizer: GestureRecognizer) -> [GestureRecognizer] {
        guard let ask = recognizer.shouldRequireFailure else { return [] }
        return recognizers.filter { other in
            other !== recognizer && !other.seenTouchIDs.isDisjoint(with: recognizer.seenTouchIDs)
                && !other.requiresTransitively(recognizer) && other.shouldRequireFailure?(other, recognizer) != true
                && ask(recognizer, other)
        }
    }

    /// Whether `other`, already recognized, keeps `recognizer` from being recognized.
    private func excludes(_ other: GestureRecognizer, _ recognizer: GestureRecognizer) -> Bool {
        guard !other.canBeRecognizedSimultaneously(with: recognizer) else { return false }
        switch other.state {
        case .began, .changed: return true
        case .ended: return !other.seenTouchIDs.isDisjoint(with: recognizer.seenTouchIDs)
        default: return false
        }
    }
}
