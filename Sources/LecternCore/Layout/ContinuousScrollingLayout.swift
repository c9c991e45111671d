/// Spreads back to back in one scroll direction, zooming as one document.
///
/// Vertical by default; horizontal runs right to left under right-edge binding.
public struct ContinuousScrollingLayout: LayoutDecorator {
    /// The stack this layout configures.
    public var base: StackViewLayout
    /// The stack this layout configures (`base`).
    public var stack: StackViewLayout { base }

    /// Creates a continuous layout.
    ///
    /// - Parameters:
    ///   - axis: The scroll direction.
    ///   - interitemSpacing: The gap between spreads, in pixels.
    ///   - contentInsets: Padding around the whole content, in pixels.
    public init(axis: Axis = .vertical, interitemSpacing: Double = 8, contentInsets: EdgeInsets = .zero) {
        base = StackViewLayout(
            axis: axis, arrangement: .continuous, interitemSpacing: interitemSpacing,
            contentInsets: contentInsets, spreadBasedZooming: false)
    }

    /// The gap between spreads.
    public var interitemSpacing: Double {
        get { base.interitemSpacing }
        set { base.interitemSpacing = newValue }
    }
    /// Padding around the content.
    public var contentInsets: EdgeInsets {
        get { base.contentInsets }
        set { base.contentInsets = newValue }
    }

    public var isPagingEnabled: Bool { false }
    public var spreadBasedZooming: Bool { false }
}
