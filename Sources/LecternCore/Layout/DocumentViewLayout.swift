/// Everything a layout needs to place spreads: the screen and the document.
public struct LayoutContext: Sendable {
    /// The size of the visible area in view pixels.
    public var viewportSize: Size
    /// The document's spreads (mode, binding, page count).
    public var spreads: Spreads
    /// The page geometries, real or estimated.
    public var pages: PageTable

    /// Creates a layout context.
    public init(viewportSize: Size, spreads: Spreads, pages: PageTable) {
        self.viewportSize = viewportSize
        self.spreads = spreads
        self.pages = pages
    }

    /// Whether horizontal layouts run right to left.
    public var isRightToLeft: Bool { spreads.binding.isRightToLeft }
}

/// Places the spreads of a document in *content space*: view pixels at zoom 1, origin at
/// the top-left corner of the scrollable content, y down.
///
/// Conform to this protocol for a custom layout and hand it to
/// `DocumentView.setCustomLayout(_:)`; the view then never replaces it on configuration
/// changes, it only calls `prepare(_:)` when the document or the viewport changes.
public protocol DocumentViewLayout: Sendable {
    /// The direction content scrolls in.
    var scrollAxis: Axis { get }
    /// Whether scrolling snaps to one spread per viewport (scroll-per-spread).
    var isPagingEnabled: Bool { get }
    /// Whether each spread zooms on its own (`true`) or the whole document zooms (`false`).
    var spreadBasedZooming: Bool { get }
    /// How the paging frame extends past the viewport; negative insets make the gap that
    /// is visible between spreads while paging.
    var scrollViewFrameInsets: EdgeInsets { get }
    /// The spreads that were laid out.
    var spreads: Spreads { get }
    /// The size of the scrollable content at zoom 1.
    var contentSize: Size { get }

    /// Lays out every spread for `context`. May cost O(n) in the spread count (the derived
    /// layouts cost O(m log m) in the pages whose geometry was recorded).
    mutating func prepare(_ context: LayoutContext)
    /// Lays out again the spreads whose sizes changed; the context holds the new sizes.
    mutating func invalidateSpreads(_ changed: [Int], context: LayoutContext)
    /// The frame of `spread` in content space.
    func frame(forSpread spread: Int) -> Rect
    /// The region `spread` zooms and is clipped in under spread-based zooming (a paged
    /// layout's viewport-sized cell), in content space. Defaults to the spread's frame.
    func zoomCell(forSpread spread: Int) -> Rect
    /// The spreads whose frames intersect `rect` (positive-area overlap), ascending.
    func visibleSpreads(in rect: Rect) -> [Int]
    /// The fractional spread index at a content offset (the viewport's top-left corner):
    /// `2.25` means a quarter of the way from spread 2 to spread 3.
    func continuousSpreadIndex(forContentOffset offset: Point) -> Double
    /// The content offset at a fractional spread index; the inverse of
    /// `continuousSpreadIndex(forContentOffset:)` along the scroll axis.
    func contentOffset(forContinuousSpreadIndex index: Double) -> Point
}

extension DocumentViewLayout {
    /// Custom layouts scroll freely unless they say otherwise.
    public var isPagingEnabled: Bool { false }
    /// Custom layouts zoom as one document unless they say otherwise.
    public var spreadBasedZooming: Bool { false }
    /// Custom layouts use the viewport as their scroll frame unless they say otherwise.
    public var scrollViewFrameInsets: EdgeInsets { .zero }

    /// The spread's frame: custom layouts zoom each spread inside its own frame unless they
    /// say otherwise.
    public func zoomCell(forSpread spread: Int) -> Rect { frame(forSpread: spread) }

    /// Lays everything out again; custom layouts may do better.
    public mutating func invalidateSpreads(_ changed: [Int], context: LayoutContext) {
        prepare(context)
    }

    /// Scans every spread. Custom layouts should replace this with an O(log n) search.
    public func visibleSpreads(in rect: Rect) -> [Int] {
        (0..<spreads.spreadCount).filter { frame(forSpread: $0).intersects(rect) }
    }

    /// The spread holding `page`.
    public func spreadIndex(forPage page: Int) -> Int { spreads.spreadIndex(forPage: page) }

    /// The pages of `spread`, in reading order.
    public func pageRange(forSpread spread: Int) -> Range<Int> { spreads.pageRange(forSpread: spread) }

    /// The number of spreads.
    public var spreadCount: Int { spreads.spreadCount }
}
