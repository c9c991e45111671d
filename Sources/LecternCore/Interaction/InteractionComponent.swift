/// The common face of interaction components and their composites: enabling, asking
/// whether they could act, and relating their gesture recognizers to others.
///
/// Not subclassable outside LecternCore: use `InteractionComponent` and
/// `InteractionComposite`, and plain `GestureRecognizer`s for custom gestures.
public class AnyInteractionComponent {
    /// The component's name, as in `InteractionController` (`"fastScroll"`, …).
    public let name: String

    init(name: String) {
        self.name = name
    }

    /// Whether the component acts. A disabled component's recognizers fail when they would
    /// begin, so recognizers waiting on them proceed.
    public var isEnabled: Bool {
        get { true }
        set {}
    }

    /// The gesture recognizers that drive the component.
    public var gestureRecognizers: [GestureRecognizer] { [] }

    /// How many activation conditions the component holds (a composite: the most any member
    /// holds), so a test can see that a rule was added once.
    public var activationConditionCount: Int { 0 }

    /// Whether the component would act at `point` (in `space`) now: its own precondition
    /// (an edge zone for fast scroll, …) and then its activation conditions, in order,
    /// stopping at the first false. Ignores `isEnabled`; runs no callback.
    public func canActivate(at point: Point, in space: CoordinateSpace) -> Bool { false }

    /// Whether `recognizer` is one of the component's.
    public func contains(_ recognizer: GestureRecognizer) -> Bool {
        gestureRecognizers.contains { $0 === recognizer }
    }

    /// Makes the component wait until `recognizer` fails (and not act if it is recognized).
    public func require(toFail recognizer: GestureRecognizer) {
        for own in gestureRecognizers { own.require(toFail: recognizer) }
    }

    /// Makes the component wait until `component` fails.
    public func require(toFail component: AnyInteractionComponent) {
        for other in component.gestureRecognizers { require(toFail: other) }
    }

    /// Makes the component wait until each recognizer for which `condition` is true when the
    /// component would act fails: a failure requirement decided then, not in advance (see
    /// `GestureRecognizer.shouldRequireFailure`).
    public func requireFailure(when condition: @escaping (GestureRecognizer) -> Bool) {
        for own in gestureRecognizers { own.shouldRequireFailure = { _, other in condition(other) } }
    }

    /// Lets the component act while `recognizer` is recognized, and the other way round.
    public func allowSimultaneousRecognition(with recognizer: GestureRecognizer) {
        for own in gestureRecognizers { own.allowSimultaneousRecognition(with: recognizer) }
    }

    /// Lets the component and `component` act at the same time.
    public func allowSimultaneousRecognition(with component: AnyInteractionComponent) {
        for other in component.gestureRecognizers { allowSimultaneousRecognition(with: other) }
    }

    func addErasedActivationCondition(_ condition: @escaping (any InteractionContext, Point, CoordinateSpace) -> Bool) {
    }
    func addErasedActivationCallback(_ callback: @escaping (any InteractionContext, Point, CoordinateSpace) -> Void) {}
}

extension GestureRecognizer {
    /// Makes this recognizer wait until every recognizer of `component` fails (a custom
    /// gesture that must not steal `fastScroll`'s taps, say).
    public func require(toFail component: AnyInteractionComponent) {
        for other in component.gestureRecognizers { require(toFail: other) }
    }

    /// Lets this recognizer and `component` be recognized at the same time.
    public func allowSimultaneousRecognition(with component: AnyInteractionComponent) {
        for other in component.gestureRecognizers { allowSimultaneousRecognition(with: other) }
    }
}

/// The behaviour of one interaction: its gesture recognizers, a precondition of its own
/// that yields a typed context, the integrator's activation conditions and callbacks, and
/// the action.
///
/// When a recognizer would begin: `isEnabled`, then the component's own precondition (nil
/// context: the default behaviour cannot proceed here), then each activation condition in
/// the order added, stopping at the first false. Any false fails the recognizer: no callback
/// and no action run, and recognizers waiting on it proceed. Otherwise every activation
/// callback runs, then the action.
public final class InteractionComponent<Context: InteractionContext>: AnyInteractionComponent {
    private var enabled = true
    private let recognizers: [GestureRecognizer]
    private var conditions: [(Context, Point, CoordinateSpace) -> Bool] = []
    private var callbacks: [(Context, Point, CoordinateSpace) -> Void] = []
    /// The controller the component acts on.
    weak var controller: InteractionController?
    /// The component's precondition: the context at a view point, or nil; given the recognizer
    /// that would begin (nil for `canActivate` and `tryTo…`).
    private let resolve: (InteractionController, Point, GestureRecognizer?) -> Context?
    /// The action, at a view point.
    private let perform: (InteractionController, Context, Point) -> Void
    /// What the gate decided, for the action that follows it.
    private var granted: (context: Context, viewPoint: Point)?

    convenience init(
        name: String, recognizers: [GestureRecognizer],
        resolve: @escaping (InteractionController, Point) -> Context?,
        perform: @escaping (InteractionController, Context, Point) -> Void
    ) {
        self.init(
            name: name, recognizers: recognizers, resolveFor: { controller, point, _ in resolve(controller, point) },
            perform: perform)
    }

    /// A component whose precondition depends on which of its recognizers would begin (a
    /// single tap on a form field, a double tap on a note).
    init(
        name: String, recognizers: [GestureRecognizer],
        resolveFor resolve: @escaping (InteractionController, Point, GestureRecognizer?) -> Context?,
        perform: @escaping (InteractionController, Context, Point) -> Void
    ) {
        self.recognizers = recognizers
        self.resolve = resolve
        self.perform = perform
        super.init(name: name)
        for recognizer in recognizers {
            recognizer.componentGate = { [weak self] recognizer in
                self?.gate(recognizer) ?? false
            }
            recognizer.addAction { [weak self] recognizer in
                self?.recognizerActed(recognizer)
            }
        }
    }

    public override var isEnabled: Bool {
        get { enabled }
        set { enabled = newValue }
    }

    public override var gestureRecognizers: [GestureRecognizer] { recognizers }

    public override var activationConditionCount: Int { conditions.count }

    /// Adds a condition, evaluated after those added before it; the point is in the
    /// context's `coordinateSpace`.
    public func addActivationCondition(_ condition: @escaping (Context, Point, CoordinateSpace) -> Bool) {
        conditions.append(condition)
    }

    /// Adds a callback, run just before the action; the point is in the context's
    /// `coordinateSpace`.
    public func addActivationCallback(_ callback: @escaping (Context, Point, CoordinateSpace) -> Void) {
        callbacks.append(callback)
    }

    /// Removes every activation condition and callback.
    public func removeAllActivationConditionsAndCallbacks() {
        conditions = []
        callbacks = []
    }

    override func addErasedActivationCondition(
        _ condition: @escaping (any InteractionContext, Point, CoordinateSpace) -> Bool
    ) {
        conditions.append { condition($0, $1, $2) }
    }

    override func addErasedActivationCallback(
        _ callback: @escaping (any InteractionContext, Point, CoordinateSpace) -> Void
    ) {
        callbacks.append { callback($0, $1, $2) }
    }

    public override func canActivate(at point: Point, in space: CoordinateSpace) -> Bool {
        guard let controller, let viewPoint = controller.convert(point, from: space, to: .view) else { return false }
        return evaluate(controller, atView: viewPoint) != nil
    }

    /// The context when the precondition and every condition hold.
    private func evaluate(
        _ controller: InteractionController, atView viewPoint: Point, recognizer: GestureRecognizer? = nil
    ) -> Context? {
        guard let context = resolve(controller, viewPoint, recognizer) else { return nil }
        let point = controller.convert(viewPoint, from: .view, to: context.coordinateSpace) ?? viewPoint
        for condition in conditions where !condition(context, point, context.coordinateSpace) { return nil }
        return context
    }

    private func gate(_ recognizer: GestureRecognizer) -> Bool {
        granted = nil
        guard enabled, let controller else { return false }
        let viewPoint = recognizer.location
        guard let context = evaluate(controller, atView: viewPoint, recognizer: recognizer) else { return false }
        granted = (context, viewPoint)
        return true
    }

    private func recognizerActed(_ recognizer: GestureRecognizer) {
        guard let (context, viewPoint) = granted, let controller else { return }
        granted = nil
        let point = controller.convert(viewPoint, from: .view, to: context.coordinateSpace) ?? viewPoint
        for callback in callbacks { callback(context, point, context.coordinateSpace) }
        perform(controller, context, viewPoint)
    }

    /// Acts for input that is not one of its gestures (a key, a wheel turn, a press on the app's
    /// chrome) as a recognizer's gate would: `isEnabled`, the conditions in order, then the
    /// callbacks and the action (the chrome components have none: the app acts when this
    /// returns true). Returns whether it acted.
    @discardableResult
    public func activate(_ context: Context, atView viewPoint: Point) -> Bool {
        guard enabled, let controller else { return false }
        let point = controller.convert(viewPoint, from: .view, to: context.coordinateSpace) ?? viewPoint
        for condition in conditions where !condition(context, point, context.coordinateSpace) { return false }
        for callback in callbacks { callback(context, point, context.coordinateSpace) }
        perform(controller, context, viewPoint)
        return true
    }

    /// The default behaviour at a view point, without `isEnabled`, conditions or callbacks.
    func performDefault(atView viewPoint: Point) -> Bool {
        guard let controller, let context = resolve(controller, viewPoint, nil) else { return false }
        perform(controller, context, viewPoint)
        return true
    }
}

/// Several components handled as one (`allInteractions`, …): enabling, conditions,
/// callbacks and recognizer relations apply to every member.
public final class InteractionComposite: AnyInteractionComponent {
    /// The members.
    public let components: [AnyInteractionComponent]

    init(name: String, components: [AnyInteractionComponent]) {
        self.components = components
        super.init(name: name)
    }

    /// True when every member is enabled; setting it enables or disables them all.
    public override var isEnabled: Bool {
        get { components.allSatisfy(\.isEnabled) }
        set { for component in components { component.isEnabled = newValue } }
    }

    public override var gestureRecognizers: [GestureRecognizer] { components.flatMap(\.gestureRecognizers) }

    public override var activationConditionCount: Int { components.map(\.activationConditionCount).max() ?? 0 }

    /// Whether any member could act at `point`.
    public override func canActivate(at point: Point, in space: CoordinateSpace) -> Bool {
        components.contains { $0.canActivate(at: point, in: space) }
    }

    /// Adds a condition to every member (after each member's own).
    public func addActivationCondition(_ condition: @escaping (any InteractionContext, Point, CoordinateSpace) -> Bool)
    {
        addErasedActivationCondition(condition)
    }

    /// Adds a callback to every member.
    public func addActivationCallback(_ callback: @escaping (any InteractionContext, Point, CoordinateSpace) -> Void) {
        addErasedActivationCallback(callback)
    }

    override func addErasedActivationCondition(
        _ condition: @escaping (any InteractionContext, Point, CoordinateSpace) -> Bool
    ) {
        for component in components { component.addErasedActivationCondition(condition) }
    }

    override func addErasedActivationCallback(
        _ callback: @escaping (any InteractionContext, Point, CoordinateSpace) -> Void
    ) {
        for component in components { component.addErasedActivationCallback(callback) }
    }
}
