/// A layout made from another one: every requirement goes to `base` unless the decorator
/// implements it, so a layout "like continuous, with one tweak" implements the tweak and
/// nothing else.
///
/// ```swift
/// struct Indented: LayoutDecorator {
///     var base = ContinuousScrollingLayout()
///     func frame(forSpread spread: Int) -> Rect { base.frame(forSpread: spread).insetBy(dx: 40, dy: 0) }
/// }
/// ```
///
/// What the decorator does not implement is answered by `base` from `base`'s own frames: a
/// decorator that moves spreads along the scroll axis implements the queries that depend on
/// where they are (`visibleSpreads(in:)`, the offset↔index conversions) too.
public protocol LayoutDecorator: DocumentViewLayout {
    /// The layout decorated.
    associatedtype Base: DocumentViewLayout
    /// The layout every requirement the decorator does not implement goes to.
    var base: Base { get set }
}

extension LayoutDecorator {
    public var scrollAxis: Axis { base.scrollAxis }
    public var isPagingEnabled: Bool { base.isPagingEnabled }
    public var spreadBasedZooming: Bool { base.spreadBasedZooming }
    public var scrollViewFrameInsets: EdgeInsets { base.scrollViewFrameInsets }
    public var spreads: Spreads { base.spreads }
    public var contentSize: Size { base.contentSize }
    public mutating func prepare(_ context: LayoutContext) { base.prepare(context) }
    public mutating func invalidateSpreads(_ changed: [Int], context: LayoutContext) {
        base.invalidateSpreads(changed, context: context)
    }
    public func frame(forSpread spread: Int) -> Rect { base.frame(forSpread: spread) }
    public func zoomCell(forSpread spread: Int) -> Rect { base.zoomCell(forSpread: spread) }
    public func visibleSpreads(in rect: Rect) -> [Int] { base.visibleSpreads(in: rect) }
    public func continuousSpreadIndex(forContentOffset offset: Point) -> Double {
        base.continuousSpreadIndex(forContentOffset: offset)
    }
    public func contentOffset(forContinuousSpreadIndex index: Double) -> Point {
        base.contentOffset(forContinuousSpreadIndex: index)
    }
}
