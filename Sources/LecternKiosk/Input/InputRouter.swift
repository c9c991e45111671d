import LecternCore
import LecternLinux
import Logging

/// Where input goes: the seat's events, stamped on the app's clock, go to the chrome first
/// (page scrubber, typed page numbers), then to the interaction controller (gestures,
/// components, keys, wheel), whose deadlines (the double tap's window) run on a loop timer.
///
/// A tap on the right edge becomes a page turn here: `handle(_:)` → `InteractionController`
/// (LecternCore: the tap recognizer, then `fastScroll`'s activation conditions and callbacks)
/// → `DocumentView.turn(toSpread:at:)`.
final class InputRouter {
    let loop: EventLoop
    /// The reader on screen.
    let current: CurrentReader
    let chrome: Chrome
    let shelf: Shelf
    let navigation: Navigation
    let selectedText: SelectedText
    let annotations: Annotations
    private let logger: Logger
    /// The controller for the open document (rebuilt when it opens and at an idle reset).
    private(set) var interactions: InteractionController?
    /// What the controller acts on (it holds its host weakly).
    private var host: ReaderHost?
    private var gestureTimer: EventLoop.Timer?
    private var eventTimeOffset: Double?

    /// Lets an integrator change what gestures do (see `KioskApp.configureInteractions`).
    var configureInteractions: ((InteractionController) -> Void)?
    /// Called for every event (the idle countdown starts over); returns whether the event took a
    /// countdown notice away or stopped the attract loop (then the touch or click that did so
    /// does nothing else).
    var onActivity: ((InputEvent) -> Bool)?
    /// Touches and the pointer button that took a notice away: their events go nowhere until
    /// they end (a visitor touching "to stay" must not turn a page as well).
    private var absorbedTouches: Set<Int> = []
    private var absorbsButton = false
    /// Where the pointer is (a new controller is told: no motion comes for a pointer that stays
    /// where it is); every event updates it before it is routed.
    let pointer: Pointer
    /// Five-key navigation: takes its keys before anything else, and hides its ring at a touch.
    var focus: KeypadFocus?
    /// Whether the component of the app's control `context` lets it act at `point` (no document,
    /// no controller: it may).
    func allows(_ context: ChromeInteractionContext, at point: Point) -> Bool {
        guard let interactions else { return true }
        return interactions.component(for: context).activate(context, atView: point)
    }

    /// The operator's panel, which takes everything while it is open.
    var operatorPanel: OperatorPanel?
    /// Asked for after an event was handled (something on screen may have changed).
    let frame: FrameRequest
    /// The policy in force: the page-turn zones' width (`page-turn.edge-width`) is the
    /// controller's `fastScrollEdgeFraction`, set on each new controller and when the policy changes.
    let policy: PolicyInForce
    /// Reads the document aloud: its keys (F1, and while on space and Escape) come first.
    let narrator: Narrator
    /// The accessibility button and its panel: a press there goes nowhere else.
    let panel: AccessibilityPanel

    init(
        loop: EventLoop, current: CurrentReader, chrome: Chrome, navigation: Navigation, annotations: Annotations,
        shelf: Shelf, selectedText: SelectedText, pointer: Pointer, frame: FrameRequest, policy: PolicyInForce,
        narrator: Narrator, panel: AccessibilityPanel, logger: Logger
    ) {
        self.panel = panel
        self.narrator = narrator
        self.policy = policy
        self.pointer = pointer
        self.frame = frame
        self.annotations = annotations
        self.selectedText = selectedText
        self.loop = loop
        self.current = current
        self.chrome = chrome
        self.navigation = navigation
        self.shelf = shelf
        self.logger = logger
        policy.observe { [unowned self] _, new in
            interactions?.configuration.fastScrollEdgeFraction = new.edgeWidth
        }
    }

    /// Sets up a fresh controller for the open document, dropping any gesture in progress.
    func resetInteractions() {
        gestureTimer?.cancel()
        gestureTimer = nil
        selectedText.clear()
        focus?.reset()
        guard let reader = current.reader else { return }
        let host = ReaderHost(
            reader: reader, chrome: chrome, navigation: navigation, annotations: annotations,
            selectedText: selectedText, logger: logger)
        let controller = InteractionController(host: host)
        controller.configuration.fastScrollEdgeFraction = policy.edgeWidth
        self.host = host
        interactions = controller
        configureInteractions?(controller)
        if let location = pointer.location {
            _ = controller.handle(InputEvent(.pointerEnter(location: location), time: loop.clock.now))
        }
    }

    /// Follows `link` as a tap on it on the page would, if the policy lets it (large print's links).
    func follow(_ link: LinkTarget) {
        guard InteractionPolicy.allows(link, policy.configuration) else { return }
        host?.follow(link)
    }

    /// Stops the gesture deadline's timer (shutdown).
    func close() {
        gestureTimer?.cancel()
        interactions = nil
        host = nil
    }

    /// Whether a visitor is touching the screen, holding a button, dragging the scrubber, in
    /// the middle of a gesture, or the page still moves (LecternCore's rule:
    /// `InteractionController.isUserInteracting`): the reader is not idle then.
    var isInteracting: Bool { interactions?.isUserInteracting ?? false }

    /// The band at the top of the window while a visitor has lowered the reading area
    /// (`Screen.lowering`, surface units): locations are taken below it.
    var lowering: () -> Int = { 0 }

    /// One event from the seat.
    func handle(_ raw: InputEvent) {
        var event = raw.movedUp(by: Double(lowering()))
        event.time = localTime(ofEventTime: raw.time)
        pointer.track(event)
        var dismissed = onActivity?(event) ?? false
        defer { frame.request(after: raw) }
        if chrome.qrCode != nil, event.isPress {
            chrome.clearNotice()
            dismissed = true
        } else if chrome.qrCode != nil, case .key = event.kind {
            // A key takes the QR code away too, and acts (it points at nothing the code covered).
            chrome.clearNotice()
        }
        if absorb(event, dismissing: dismissed) || operatorPanel?.handle(event, pointer: pointer.location) == true
            || panel.handle(event) || movesSelectedAnnotation(event)
            || narrator.handleBeforeFocus(event)
            || focus?.handle(event) == true
            || shelf.handle(event)
        {
            return
        }
        guard let reader = current.reader, let interactions else { return }
        if case .key(let key, _) = event.kind, narrator.handle(key) || annotations.handle(key) { return }
        if navigation.handle(event, reader: reader) || chrome.handle(event, reader: reader) {
            scheduleGestureDeadline()
            return
        }
        if panel.accessibility.largePrint.handle(event, reader: reader) { return }
        let changed = interactions.handle(event)
        logger.trace("input \(event.kind) at \(event.time): \(changed ? "changed the view" : "no change")")
        scheduleGestureDeadline()
    }

    /// A key that moves, resizes or puts down the selected annotation (`Annotations.handleSelected`),
    /// where the interaction controller's `transformAnnotation` would let a drag do it.
    private func movesSelectedAnnotation(_ event: InputEvent) -> Bool {
        guard case .key(let key, _) = event.kind, let reader = current.reader, let interactions else { return false }
        return annotations.handleSelected(key) { selected in
            let centre = reader.view.convert(selected.annotation.rect.center, from: .page(selected.page), to: .view)
            return interactions.transformAnnotation.canActivate(at: centre, in: .view)
        }
    }

    /// Whether `event` belongs to a touch or click that took a notice away (card, countdown).
    private func absorb(_ event: InputEvent, dismissing: Bool) -> Bool {
        switch event.kind {
        case .touchDown(let id, _) where dismissing || absorbedTouches.contains(id):
            absorbedTouches.insert(id)
            return true
        case .touchMotion(let id, _) where absorbedTouches.contains(id):
            return true
        case .touchUp(let id) where absorbedTouches.contains(id):
            absorbedTouches.remove(id)
            return true
        case .touchCancel:
            absorbedTouches.removeAll()
            return false
        case .pointerButton(_, true) where dismissing || absorbsButton:
            absorbsButton = true
            return true
        case .pointerButton(_, false) where absorbsButton:
            absorbsButton = false
            return true
        case .key, .scroll:
            return dismissing
        case .capabilitiesChanged:
            absorbedTouches.removeAll()
            absorbsButton = false
            return false
        default:
            return false
        }
    }

    /// Event times come from the compositor's clock (usually CLOCK_MONOTONIC in ms, but any
    /// base will do): keep their spacing, and map them onto the app's clock, which animations
    /// and gesture deadlines use.
    ///
    /// An event reaches us after it happened, never before: a mapping that puts one in the
    /// future was taken from an event that arrived late, so it is taken again from this one.
    /// (Keeping it started every page turn as far in the future as the first event had been
    /// late, often a whole frame: the turn stood still for that long after the tap.)
    private func localTime(ofEventTime time: Double) -> Double {
        let local = loop.clock.now
        if let offset = eventTimeOffset, time + offset <= local, local - (time + offset) < 1 {
            return time + offset
        }
        eventTimeOffset = local - time
        return local
    }

    private func scheduleGestureDeadline() {
        gestureTimer?.cancel()
        gestureTimer = nil
        guard let deadline = interactions?.nextDeadline else { return }
        gestureTimer = loop.schedule(at: deadline) { [unowned self] in
            gestureTimer = nil
            _ = interactions?.tick(now: loop.clock.now)
            scheduleGestureDeadline()
            frame.request()
        }
    }
}

extension InputEvent {
    /// A finger down or a pointer button pressed: what takes a QR code away.
    fileprivate var isPress: Bool {
        switch kind {
        case .touchDown, .pointerButton(_, true): true
        default: false
        }
    }

    /// A press, a key or the wheel: what a visitor does on purpose, as opposed to a pointer that
    /// only moves (a touch panel seen as a pointer moves it just before it presses).
    var startsAction: Bool {
        switch kind {
        case .touchDown, .pointerButton(_, true), .key, .scroll: true
        default: false
        }
    }
}

extension InputEvent {
    /// The event with its location (a touch's, the pointer's) `dy` units higher.
    func movedUp(by dy: Double) -> InputEvent {
        guard dy != 0 else { return self }
        func moved(_ point: Point) -> Point { Point(x: point.x, y: point.y - dy) }
        var event = self
        switch kind {
        case .touchDown(let id, let location): event.kind = .touchDown(id: id, location: moved(location))
        case .touchMotion(let id, let location): event.kind = .touchMotion(id: id, location: moved(location))
        case .pointerEnter(let location): event.kind = .pointerEnter(location: moved(location))
        case .pointerMotion(let location): event.kind = .pointerMotion(location: moved(location))
        default: break
        }
        return event
    }
}
