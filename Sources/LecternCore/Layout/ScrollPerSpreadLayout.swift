/// One spread per viewport, paged, each spread zooming on its own.
///
/// The gap between spreads while paging comes from the frame insets (half the gap on each
/// side of the paging frame) and `contentInsets` keeps a margin around each spread.
public struct ScrollPerSpreadLayout: LayoutDecorator {
    /// The stack this layout configures.
    public var base: StackViewLayout
    /// The stack this layout configures (`base`).
    public var stack: StackViewLayout { base }

    /// Creates a scroll-per-spread layout.
    ///
    /// - Parameters:
    ///   - axis: The paging direction; horizontal runs right to left under right-edge binding.
    ///   - spacing: The gap between spreads while paging, in pixels.
    ///   - contentInsets: The margin around each spread inside its viewport-sized cell.
    public init(axis: Axis = .horizontal, spacing: Double = 20, contentInsets: EdgeInsets = .zero) {
        base = StackViewLayout(
            axis: axis, arrangement: .paged, interitemSpacing: spacing,
            contentInsets: contentInsets, spreadBasedZooming: true)
    }

    /// The gap between spreads while paging.
    public var spacing: Double {
        get { base.interitemSpacing }
        set { base.interitemSpacing = newValue }
    }
    /// The margin around each spread inside its cell.
    public var contentInsets: EdgeInsets {
        get { base.contentInsets }
        set { base.contentInsets = newValue }
    }

    /// How the paging frame extends past the viewport (nil: half the spacing on each side).
    /// Negative insets along the scroll axis make the gap between spreads while paging; they
    /// replace `spacing` for it.
    public var pagingFrameInsets: EdgeInsets? {
        get { base.pagingFrameInsets }
        set { base.pagingFrameInsets = newValue }
    }

    /// The viewport-sized cell of `spread` in content space.
    public func cell(forSpread spread: Int) -> Rect { base.cell(forSpread: spread) }

    public var isPagingEnabled: Bool { true }
    public var spreadBasedZooming: Bool { true }
}
