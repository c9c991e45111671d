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
    /// Whether content pulled past its edges follows the finger with resistance and springs
    /// back (true), or stops at the edge (false).
    public var bounces: Bool
    /// An integrator's layout or spreading (not persisted).
    public var customization: ViewCustomization?

    private enum CodingKeys: String, CodingKey {
        case spreadMode, pageBinding, scrollMode, scrollDirection, pageTransition, spacing, contentInsets
        case minimumZoomScale, maximumZoomScale, bounces
    }

    /// Creates a configuration.
    public init(
        spreadMode: SpreadMode = .single, pageBinding: PageBinding = .unknown,
        scrollMode: ScrollMode = .continuous, scrollDirection: Axis = .vertical,
        pageTransition: PageTransition = .scroll, spacing: Double = 8, contentInsets: EdgeInsets = .zero,
        minimumZoomScale: Double = 1, maximumZoomScale: Double = 8, bounces: Bool = true,
        customization: ViewCustomization? = nil
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
        self.bounces = bounces
        self.customization = customization
    }

    /// The spreads of a document of `pageCount` pages under this configuration.
    public func spreads(pageCount: Int) -> Spreads {
        Spreads(
            pageCount: pageCount, mode: spreadMode, binding: pageBinding,
            custom: customization.flatMap { custom in custom.spreading.map { CustomSpreading(name: custom.name, $0) } })
    }

    /// The layout this configuration describes: the customization's, or the built-in one.
    public func derivedLayout() -> any DocumentViewLayout {
        customization?.makeLayout?(self) ?? builtInLayout()
    }

    /// The built-in layout for the scroll mode, direction and transition, ignoring a
    /// customization's layout: what a custom layout may start from.
    public func builtInLayout() -> any DocumentViewLayout {
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
