/// How the reader wants the document shown; the layout is derived from it unless a custom
/// layout was set.
public struct ViewConfiguration: Hashable, Codable, Sendable {
    /// Continuous scrolling or one spread per viewport.
    public enum ScrollMode: String, Hashable, Codable, Sendable, CaseIterable {
        /// Spreads back to back; the document zooms as a whole.
        case continuous
        /// Paged, one spread per viewport; each spread zooms on its own.
        case perSpread
    }

    /// How one spread replaces the next.
    public enum PageTransition: String, Hashable, Codable, Sendable, CaseIterable {
        /// Scrolling (continuous or paged, per `scrollMode`).
        case scroll
        /// A page curl: paged, and view states keep only the page.
        case curl
    }

    /// How pages are grouped into spreads.
    public var spreadMode: SpreadMode
    /// The binding edge.
    public var pageBinding: PageBinding
    /// Continuous or per spread.
    public var scrollMode: ScrollMode
    /// The scroll direction.
    public var scrollDirection: Axis
    /// Scrolling or page curl.
    public var pageTransition: PageTransition
    /// The gap between spreads in pixels.
    public var spacing: Double
    /// Padding around the content (continuous) or around each spread (per spread).
    public var contentInsets: EdgeInsets
    /// The smallest zoom scale.
    public var minimumZoomScale: Double
    /// The largest zoom scale.
    public var maximumZoomScale: Double

    /// Creates a configuration.
    public init(
        spreadMode: SpreadMode = .single, pageBinding: PageBinding = .unknown,
        scrollMode: ScrollMode = .continuous, scrollDirection: Axis = .vertical,
        pageTransition: PageTransition = .scroll, spacing: Double = 8, contentInsets: EdgeInsets = .zero,
        minimumZoomScale: Double = 1, maximumZoomScale: Double = 8
    ) {
        self.spreadMode = spreadMode
        self.pageBinding = pageBinding
        self.scrollMode = scrollMode
        self.scrollDirection = scrollDirection
        self.pageTransition = pageTransition
        self.spacing = spacing
        self.contentInsets = contentInsets
        self.minimumZoomScale = minimumZoomScale
        self.maximumZoomScale = max(minimumZoomScale, maximumZoomScale)
    }

    /// The layout this configuration describes.
    public func derivedLayout() -> any DocumentViewLayout {
        if pageTransition == .curl {
            return ScrollPerSpreadLayout(axis: .horizontal, spacing: 0, contentInsets: contentInsets)
        }
        switch scrollMode {
        case .continuous:
            return ContinuousScrollingLayout(
                axis: scrollDirection, interitemSpacing: spacing, contentInsets: contentInsets)
        case .perSpread:
            return ScrollPerSpreadLayout(axis: scrollDirection, spacing: spacing, contentInsets: contentInsets)
        }
    }
}
