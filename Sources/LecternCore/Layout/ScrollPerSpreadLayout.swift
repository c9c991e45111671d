/// One spread per viewport, paged, each spread zooming on its own.
///
/// The gap between spreads while paging comes from the frame insets (half the gap on each
/// side of the paging frame) and `contentInsets` keeps a margin around each spread.
public struct ScrollPerSpreadLayout: DocumentViewLayout {
    /// The stack this layout configures.
    public private(set) var stack: StackViewLayout

    /// Creates a scroll-per-spread layout.
    ///
    /// - Parameters:
    ///   - axis: The paging direction; horizontal runs right to left under right-edge binding.
    ///   - spacing: The gap between spreads while paging, in pixels.
    ///   - contentInsets: The margin around each spread inside its viewport-sized cell.
    public init(axis: Axis = .horizontal, spacing: Double = 20, contentInsets: EdgeInsets = .zero) {
        stack = StackViewLayout(
            axis: axis, arrangement: .paged, interitemSpacing: spacing,
            contentInsets: contentInsets, spreadBasedZooming: true)
    }

    /// The gap between spreads while paging.
    public var spacing: Double {
        get { stack.interitemSpacing }
        set { stack.interitemSpacing = newValue }
    }
    /// The margin around each spread inside its cell.
    public var contentInsets: EdgeInsets {
        get { stack.contentInsets }
        set { stack.contentInsets = newValue }
    }

    /// The viewport-sized cell of `spread` in content space.
    public func cell(forSpread spread: Int) -> Rect { stack.cell(forSpread: spread) }

    public var scrollAxis: Axis { stack.scrollAxis }
    public var isPagingEnabled: Bool { true }
    public var spreadBasedZooming: Bool { true }
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
