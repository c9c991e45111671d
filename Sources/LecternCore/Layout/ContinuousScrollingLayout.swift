/// Spreads back to back in one scroll direction, zooming as one document.
///
/// Vertical by default; horizontal runs right to left under right-edge binding.
public struct ContinuousScrollingLayout: DocumentViewLayout {
    /// The stack this layout configures.
    public private(set) var stack: StackViewLayout

    /// Creates a continuous layout.
    ///
    /// - Parameters:
    ///   - axis: The scroll direction.
    ///   - interitemSpacing: The gap between spreads, in pixels.
    ///   - contentInsets: Padding around the whole content, in pixels.
    public init(axis: Axis = .vertical, interitemSpacing: Double = 8, contentInsets: EdgeInsets = .zero) {
        stack = StackViewLayout(
            axis: axis, arrangement: .continuous, interitemSpacing: interitemSpacing,
            contentInsets: contentInsets, spreadBasedZooming: false)
    }

    /// The gap between spreads.
    public var interitemSpacing: Double {
        get { stack.interitemSpacing }
        set { stack.interitemSpacing = newValue }
    }
    /// Padding around the content.
    public var contentInsets: EdgeInsets {
        get { stack.contentInsets }
        set { stack.contentInsets = newValue }
    }

    public var scrollAxis: Axis { stack.scrollAxis }
    public var isPagingEnabled: Bool { false }
    public var spreadBasedZooming: Bool { false }
    public var scrollViewFrameInsets: EdgeInsets { stack.scrollViewFrameInsets }
    public var spreads: Spreads { stack.spreads }
    public var contentSize: Size { stack.contentSize }
    public mutating func prepare(_ context: LayoutContext) { stack.prepare(context) }
    public mutating func invalidateSpreads(_ changed: [Int], context: LayoutContext) {
        stack.invalidateSpreads(changed, context: context)
    }
    public func frame(forSpread spread: Int) -> Rect { stack.frame(forSpread: spread) }
    public func zoomCell(forSpread spread: Int) -> Rect { stack.zoomCell(forSpread: spread) }
    public func visibleSpreads(in rect: Rect) -> [Int] { stack.visibleSpreads(in: rect) }
    public func continuousSpreadIndex(forContentOffset offset: Point) -> Double {
        stack.continuousSpreadIndex(forContentOffset: offset)
    }
    public func contentOffset(forContinuousSpreadIndex index: Double) -> Point {
        stack.contentOffset(forContinuousSpreadIndex: index)
    }
}
