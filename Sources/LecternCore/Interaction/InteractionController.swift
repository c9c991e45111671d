/// Turns the seat's events into actions on an `InteractionHost`: the gesture arena with the
/// document pan and pinch and the ten interaction components, plus keys and the wheel.
///
/// Drive it from the main loop: `handle(_:)` for every event and `tick(now:)` when
/// `nextDeadline` comes, both on the app's clock (event times mapped onto it); the app
/// advances the view's animations itself when it draws a frame. Each returns whether what
/// is on screen changed.
///
/// Default wiring: a pan scrolls with kinetic fling, a pinch zooms about its focal point
/// (they run together; the pinch wins while two fingers are down). `fastScroll` turns the
/// spread on a tap in an edge zone at once (no double-tap wait); `smartZoom` zooms on a
/// double tap; `toggleUserInterface` toggles the chrome on a single tap once everything
/// else failed. `openLinkAnnotation` follows the link under a tap (the host finds links and
/// decides what a web address does). The annotation components act on the host's
/// annotations (`InteractionController+Annotations`). `selectText` selects the word under a
/// long press and `deselectText` clears the selection on a tap away from it
/// (`InteractionController+TextSelection`).
public final class InteractionController {
    /// What the controller acts on (not retained: the app owns both).
    public weak var host: (any InteractionHost)?
    /// The tunables.
    public var configuration: InteractionConfiguration
    /// The arena; add custom recognizers with `addGestureRecognizer(_:)`.
    public let arena = GestureArena()
    /// The document pan (one or more fingers) that scrolls.
    public let panRecognizer = PanGestureRecognizer(name: "documentPan")
    /// The document pinch that zooms.
    public let pinchRecognizer = PinchGestureRecognizer(name: "documentPinch")

    /// Tap on an annotation selects it.
    public let selectAnnotation: InteractionComponent<AnnotationInteractionContext>
    /// Tap away from the selection deselects it.
    public let deselectAnnotation: InteractionComponent<AnnotationInteractionContext>
    /// Drag on a selected annotation moves it, on one of its handles resizes it.
    public let transformAnnotation: InteractionComponent<AnnotationInteractionContext>
    /// Tap on a form field, or double tap on a free-text box or note, edits it.
    public let editAnnotation: InteractionComponent<AnnotationInteractionContext>
    /// Tap on a link opens it.
    public let openLinkAnnotation: InteractionComponent<LinkInteractionContext>
    /// Long press on text selects it; a drag on one of the selection's handles extends or
    /// shrinks it (its second recognizer, `textSelectionHandle`).
    public let selectText: InteractionComponent<TextInteractionContext>
    /// Tap away from the text selection clears it.
    public let deselectText: InteractionComponent<TextInteractionContext>
    /// Tap in an edge zone turns the spread.
    public let fastScroll: InteractionComponent<FastScrollContext>
    /// Double tap zooms in on the text block under the finger, or back out.
    public let smartZoom: InteractionComponent<SmartZoomContext>
    /// Single tap toggles the chrome.
    public let toggleUserInterface: InteractionComponent<EmptyInteractionContext>
    /// A key on the pages: arrows, Page Up/Down, Home/End, + and − (no gesture: it acts on the
    /// key, and its conditions see which).
    public let keyCommand: InteractionComponent<KeyInteractionContext>
    /// The wheel over the pages: scrolls, turns the page per spread.
    public let wheelScroll: InteractionComponent<WheelInteractionContext>
    /// A title bar button (Pages, Contents, Search, the back button to the shelf): the app acts
    /// when it allows (`activate(_:atView:)`).
    public let chromeButton: InteractionComponent<ChromeInteractionContext>
    /// A tap on a thumbnail, in the bar or the grid: the app goes to its page when it allows.
    public let thumbnail: InteractionComponent<ChromeInteractionContext>
    /// A press or drag on the page scrubber: the app goes to the page under it when it allows.
    public let scrubber: InteractionComponent<ChromeInteractionContext>
    /// Pinching the page smaller than the screen: the app opens the thumbnail grid when it allows.
    public let pinchToGrid: InteractionComponent<ChromeInteractionContext>
    /// The five annotation components.
    public let allAnnotationInteractions: InteractionComposite
    /// The two text components.
    public let allTextInteractions: InteractionComposite
    /// All ten components.
    public let allInteractions: InteractionComposite

    /// The latest time from an event or `tick(now:)`, in seconds; `tryTo…` actions use it.
    public private(set) var now: Double = 0

    private var isDragging = false
    private var dragBase = Point.zero
    private var isPinching = false
    private var pinchBase = 1.0
    /// The text selection and the handle being dragged (`InteractionController+TextSelection`).
    var textSelectionState = TextSelectionState()
    /// Drags a text selection's handle (before the document pan, which waits for it to fail):
    /// `selectText`'s second recognizer, so its `isEnabled`, conditions and callbacks cover it.
    let textHandlePan: PanGestureRecognizer
    /// Wheel motion not yet spent on page turns (per-spread mode).
    var wheel = WheelState()
    /// The pointer buttons held down on the document (the chrome's are the host's).
    private var heldButtons: Set<PointerButton> = []
    /// Where the pointer is over the document, if it is (the wheel acts there).
    private var pointerLocation: Point?
    /// The selection being dragged (`transformAnnotation`).
    var annotationDrag: AnnotationDrag?

    /// Creates a controller acting on `host`.
    public init(host: any InteractionHost, configuration: InteractionConfiguration = .init()) {
        self.host = host
        self.configuration = configuration
        selectAnnotation = InteractionComponent(
            name: "selectAnnotation", recognizers: [TapGestureRecognizer(name: "selectAnnotation")],
            resolve: { $0.selectAnnotationContext(at: $1) },
            perform: { controller, context, _ in controller.performSelectAnnotation(context) })
        deselectAnnotation = InteractionComponent(
            name: "deselectAnnotation", recognizers: [TapGestureRecognizer(name: "deselectAnnotation")],
            resolve: { $0.deselectAnnotationContext(at: $1) },
            perform: { controller, _, _ in
                controller.performDeselectAnnotation()
            })
        transformAnnotation = InteractionComponent(
            name: "transformAnnotation", recognizers: [PanGestureRecognizer(name: "transformAnnotation")],
            resolveFor: { $0.transformAnnotationContext(at: $1, recognizer: $2) },
            perform: { $0.performTransformAnnotation($1, at: $2) })
        editAnnotation = InteractionComponent(
            name: "editAnnotation",
            recognizers: [
                TapGestureRecognizer(name: "editAnnotation"),
                TapGestureRecognizer(numberOfTaps: 2, name: "editAnnotationDoubleTap"),
            ],
            resolveFor: { $0.editAnnotationContext(at: $1, recognizer: $2) },
            perform: { controller, context, _ in controller.performEditAnnotation(context) })
        openLinkAnnotation = InteractionComponent(
            name: "openLinkAnnotation", recognizers: [TapGestureRecognizer(name: "openLinkAnnotation")],
            resolve: { $0.linkContext(at: $1) },
            perform: { controller, context, _ in controller.performOpenLink(context) })
        let handlePan = PanGestureRecognizer(name: "textSelectionHandle")
        textHandlePan = handlePan
        selectText = InteractionComponent(
            name: "selectText", recognizers: [LongPressGestureRecognizer(name: "selectText"), handlePan],
            resolveFor: { controller, point, recognizer in
                recognizer === handlePan
                    ? controller.handleDragContext(handlePan) : controller.selectTextContext(at: point)
            },
            perform: { controller, context, _ in controller.performSelectText(context) })
        deselectText = InteractionComponent(
            name: "deselectText", recognizers: [TapGestureRecognizer(name: "deselectText")],
            resolve: { $0.deselectTextContext(at: $1) },
            perform: { controller, context, _ in controller.performDeselectText(context) })
        fastScroll = InteractionComponent(
            name: "fastScroll", recognizers: [TapGestureRecognizer(name: "fastScroll")],
            resolve: { $0.fastScrollContext(at: $1) },
            perform: { controller, context, _ in controller.performFastScroll(context) })
        smartZoom = InteractionComponent(
            name: "smartZoom", recognizers: [TapGestureRecognizer(numberOfTaps: 2, name: "smartZoom")],
            resolve: { $0.smartZoomContext(at: $1) },
            perform: { controller, context, _ in controller.performSmartZoom(context) })
        toggleUserInterface = InteractionComponent(
            name: "toggleUserInterface", recognizers: [TapGestureRecognizer(name: "toggleUserInterface")],
            resolve: { controller, _ in controller.host == nil ? nil : EmptyInteractionContext() },
            perform: { controller, _, _ in controller.host?.isUserInterfaceVisible.toggle() })
        keyCommand = InteractionComponent(
            name: "keyCommand", recognizers: [], resolve: { _, _ in nil },
            perform: { controller, context, _ in controller.handleKey(context.key) })
        wheelScroll = InteractionComponent(
            name: "wheelScroll", recognizers: [], resolve: { _, _ in nil },
            perform: { controller, context, _ in controller.handleScroll(delta: context.delta, steps: context.steps) })
        func chromeComponent(_ name: String) -> InteractionComponent<ChromeInteractionContext> {
            InteractionComponent(name: name, recognizers: [], resolve: { _, _ in nil }, perform: { _, _, _ in })
        }
        chromeButton = chromeComponent("chromeButton")
        thumbnail = chromeComponent("thumbnail")
        scrubber = chromeComponent("scrubber")
        pinchToGrid = chromeComponent("pinchToGrid")
        allAnnotationInteractions = InteractionComposite(
            name: "allAnnotationInteractions",
            components: [selectAnnotation, deselectAnnotation, transformAnnotation, editAnnotation, openLinkAnnotation])
        allTextInteractions = InteractionComposite(name: "allTextInteractions", components: [selectText, deselectText])
        allInteractions = InteractionComposite(
            name: "allInteractions",
            components: [
                selectAnnotation, deselectAnnotation, transformAnnotation, editAnnotation, openLinkAnnotation,
                selectText, deselectText, fastScroll, smartZoom, toggleUserInterface,
            ])
        for component in [selectAnnotation, deselectAnnotation, transformAnnotation, editAnnotation] {
            component.controller = self
        }
        openLinkAnnotation.controller = self
        for component in [selectText, deselectText] { component.controller = self }
        fastScroll.controller = self
        smartZoom.controller = self
        toggleUserInterface.controller = self
        keyCommand.controller = self
        wheelScroll.controller = self
        for component in [chromeButton, thumbnail, scrubber, pinchToGrid] { component.controller = self }
        wire()
    }

    private func wire() {
        wireTextSelection()
        // Relations: annotations first, then the document; a single tap toggles the chrome
        // only when nothing else wanted it. Fast scroll does not wait for the double tap.
        panRecognizer.require(toFail: transformAnnotation)
        panRecognizer.allowSimultaneousRecognition(with: pinchRecognizer)
        smartZoom.require(toFail: editAnnotation)
        fastScroll.require(toFail: openLinkAnnotation)
        fastScroll.require(toFail: selectAnnotation)
        // A double tap on a note: the first tap selects it, the second edits it.
        selectAnnotation.allowSimultaneousRecognition(with: editAnnotation.gestureRecognizers[1])
        let before: [AnyInteractionComponent] = [
            smartZoom, editAnnotation, fastScroll, openLinkAnnotation, selectAnnotation, deselectAnnotation,
            deselectText,
        ]
        for other in before { toggleUserInterface.require(toFail: other) }
        panRecognizer.addAction { [weak self] in self?.panActed($0) }
        transformAnnotation.gestureRecognizers[0].addAction { [weak self] in self?.transformActed($0) }
        pinchRecognizer.addAction { [weak self] in self?.pinchActed($0) }
        let order: [GestureRecognizer] =
            transformAnnotation.gestureRecognizers + [panRecognizer, pinchRecognizer]
            + selectText.gestureRecognizers.filter { $0 !== textHandlePan }
            + editAnnotation.gestureRecognizers + smartZoom.gestureRecognizers + openLinkAnnotation.gestureRecognizers
            + selectAnnotation.gestureRecognizers + deselectAnnotation.gestureRecognizers
            + deselectText.gestureRecognizers + fastScroll.gestureRecognizers + toggleUserInterface.gestureRecognizers
        for recognizer in order { arena.add(recognizer) }
    }

    // MARK: Driving

    /// When `tick(now:)` should next be called, if anything waits for time.
    public var nextDeadline: Double? { arena.nextDeadline }

    /// Adds a custom recognizer (after the built-in ones: they win ties).
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        arena.add(recognizer)
    }

    /// Removes a custom recognizer.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        arena.remove(recognizer)
    }

    /// Handles one event from the seat.
    ///
    /// - Returns: Whether what is on screen changed (or an animation started): redraw.
    @discardableResult
    public func handle(_ event: InputEvent) -> Bool {
        now = max(now, event.time)
        let before = fingerprint()
        switch event.kind {
        case .key(let key, _):
            keyCommand.activate(KeyInteractionContext(key: key), atView: viewCentre)
        case .scroll(let delta, let steps):
            wheelScroll.activate(
                WheelInteractionContext(delta: delta, steps: steps), atView: pointerLocation ?? viewCentre)
        default:
            trackButtons(event)
            arena.handle(event)
        }
        return fingerprint() != before
    }

    /// The view's centre (where a key acts).
    private var viewCentre: Point { host?.documentView.viewBounds.center ?? .zero }

    /// Whether the visitor is interacting: a finger or a pointer button is down, a gesture
    /// is in progress, the document is dragged or pinched, an animation or fling runs, or
    /// the host's chrome follows a finger (`InteractionHost.isChromeTrackingInput`).
    ///
    /// A reader is not idle while this holds: an idle countdown waits, and starts when the
    /// last of these ends (the lift's event, or the animation's last frame).
    public var isUserInteracting: Bool {
        guard let host else { return false }
        if !arena.liveTouches.isEmpty || !heldButtons.isEmpty || host.isChromeTrackingInput { return true }
        if arena.recognizers.contains(where: { $0.state.isActive }) { return true }
        let view = host.documentView
        return view.isInteracting || view.isAnimating
    }

    /// Keeps `heldButtons` (the left button is also a finger in the arena; the others only
    /// count here). The seat releases held buttons before the pointer leaves or goes away.
    private func trackButtons(_ event: InputEvent) {
        switch event.kind {
        case .pointerButton(let button, let isPressed):
            if isPressed { heldButtons.insert(button) } else { heldButtons.remove(button) }
        case .pointerEnter(let location), .pointerMotion(let location):
            pointerLocation = location
        case .pointerLeave:
            heldButtons.removeAll()
            pointerLocation = nil
        case .capabilitiesChanged(let devices) where !devices.contains(.pointer):
            heldButtons.removeAll()
            pointerLocation = nil
        default:
            break
        }
    }

    /// Lets time pass (at `nextDeadline`): a double tap's window closes, a long press begins.
    ///
    /// - Returns: Whether what is on screen changed.
    @discardableResult
    public func tick(now time: Double) -> Bool {
        now = max(now, time)
        let before = fingerprint()
        arena.tick(now: time)
        return fingerprint() != before
    }

    /// What the screen shows, to tell whether an event changed it.
    private struct Fingerprint: Equatable {
        var offset: Point
        var zoom: Double
        var spreadZooms: [Int: SpreadZoom]
        var isAnimating: Bool
        var isUserInterfaceVisible: Bool
        var textSelection: TextSelection?
        var annotationSelection: AnnotationSelection?
    }

    private func fingerprint() -> Fingerprint? {
        guard let host else { return nil }
        let view = host.documentView
        return Fingerprint(
            offset: view.contentOffset, zoom: view.zoomScale, spreadZooms: view.spreadZooms,
            isAnimating: view.isAnimating, isUserInterfaceVisible: host.isUserInterfaceVisible,
            textSelection: textSelectionState.selection, annotationSelection: host.annotationSelection)
    }

    /// Converts a point between spaces of the host's document view.
    func convert(_ point: Point, from source: CoordinateSpace, to destination: CoordinateSpace) -> Point? {
        guard let host else { return nil }
        if source == destination { return point }
        return host.documentView.convert(point, from: source, to: destination)
    }

    func isZoomedIn(_ view: DocumentView) -> Bool {
        view.currentZoomScale > 1 + configuration.zoomedInTolerance
    }

    // MARK: Pan and pinch

    private func panActed(_ pan: GestureRecognizer) {
        guard let host, let pan = pan as? PanGestureRecognizer else { return }
        switch pan.state {
        case .began:
            guard !isPinching else { return }
            host.documentView.beginDrag()
            isDragging = true
            dragBase = .zero
            host.documentView.drag(translation: pan.translation)
        case .changed:
            guard isDragging else { return }
            host.documentView.drag(translation: pan.translation - dragBase)
        case .ended, .cancelled:
            guard isDragging else { return }
            isDragging = false
            host.documentView.endDrag(velocity: pan.state == .ended ? pan.velocity : .zero, at: now)
        default:
            break
        }
    }

    private func pinchActed(_ pinch: GestureRecognizer) {
        guard let host, let pinch = pinch as? PinchGestureRecognizer else { return }
        switch pinch.state {
        case .began:
            // The pinch takes over from a drag in progress (it pans with its focal point).
            isDragging = false
            isPinching = true
            pinchBase = pinch.scale
            host.documentView.beginPinch(focal: pinch.focalPoint)
        case .changed:
            guard isPinching else { return }
            host.documentView.pinch(scale: pinch.scale / pinchBase, focal: pinch.focalPoint)
        case .ended, .cancelled:
            guard isPinching else { return }
            isPinching = false
            host.documentView.endPinch()
            if panRecognizer.state.isActive {
                // A finger is still down: it drags on from here.
                host.documentView.beginDrag()
                isDragging = true
                dragBase = panRecognizer.translation
            }
        default:
            break
        }
    }
}
