/// The per-spread zoom of a spread-based-zooming layout.
public struct SpreadZoom: Hashable, Codable, Sendable {
    /// The zoom scale of the spread.
    public var scale: Double
    /// The spread's own scroll offset inside its viewport-sized cell, in scaled pixels.
    public var offset: Point

    /// Creates a spread zoom.
    public init(scale: Double = 1, offset: Point = .zero) {
        self.scale = scale
        self.offset = offset
    }

    /// Zoom 1, no offset.
    public static let identity = SpreadZoom()
}

/// The document view model: which spreads sit where, how far the user scrolled and zoomed,
/// and what is on screen.
///
/// A value type: the app owns one, mutates it in response to input and hands a copy to the
/// renderer. Coordinates:
/// - *view* space: surface pixels, origin top-left of the viewport;
/// - *content* space: the layout's space (view pixels at zoom 1);
/// - *spread* space: a spread's natural size (points at the spread's common scale);
/// - *page* space: PDF user space of one page (origin bottom-left, y up, /Rotate applied
///   on the way to the screen).
///
/// Under document zooming, view = content × `zoomScale` − `contentOffset`. Under
/// spread-based zooming `contentOffset` is the unscaled paging offset and every spread
/// carries its own `SpreadZoom` inside its cell.
public struct DocumentView: Sendable {
    /// The reader's configuration; changing it re-derives the layout unless it is custom.
    public private(set) var configuration: ViewConfiguration
    /// The layout in use.
    public internal(set) var layout: any DocumentViewLayout
    /// Whether `layout` was set by the user (and is never replaced by configuration changes).
    public private(set) var isCustomLayout = false
    /// The page geometries, real or estimated.
    public internal(set) var pages: PageTable
    /// The viewport size in view pixels.
    public internal(set) var viewportSize: Size
    /// The scroll offset (see the type's description for its meaning per zoom mode).
    public internal(set) var contentOffset: Point = .zero
    /// The document zoom scale (always 1 under spread-based zooming).
    public internal(set) var zoomScale: Double = 1
    /// The zoom of each spread that is not at zoom 1, under spread-based zooming.
    public internal(set) var spreadZooms: [Int: SpreadZoom] = [:]
    /// How much of the viewport's edges something drawn over the pages covers (a search bar
    /// and its keyboard): every offset may go that far past its bounds, so `reveal` can bring
    /// what lies under them into view even on a fitted page. Drags across the paging axis stay
    /// locked. Changing it moves the offsets back inside the new bounds.
    public var obscuredInsets = EdgeInsets.zero {
        didSet { if obscuredInsets != oldValue { clampAll() } }
    }

    /// The page the reader last navigated to; it wins ties for the dominant page.
    var rememberedPage = 0
    /// Where the last navigation left the view; while the view rests there, the page
    /// navigated to is the dominant page.
    var navigationMark: NavigationMark?
    /// The state a run of resizes restores, so that A → B → A is the identity.
    var resizeAnchor: ResizeAnchor?
    /// The running animation or fling, if any.
    var animation: ViewAnimation?
    /// The running drag, if any.
    var drag: DragState?
    /// The running pinch, if any.
    var pinch: PinchState?
    /// The spread the view rested on when the page turn under way began (see `pageCurl()`).
    var pageTurnOrigin: Int?

    /// Creates a view of a document.
    ///
    /// - Parameters:
    ///   - pages: The page geometries (use estimates for pages not measured yet).
    ///   - configuration: The reader's configuration.
    ///   - viewportSize: The size of the viewport in pixels.
    public init(pages: PageTable, configuration: ViewConfiguration = .init(), viewportSize: Size) {
        self.pages = pages
        self.configuration = configuration
        self.viewportSize = viewportSize
        self.layout = configuration.derivedLayout()
        relayout()
        if pages.count > 0 { try? goToPage(0) }
        resizeAnchor = nil
    }

    /// The document's spreads under the current configuration.
    public var spreads: Spreads { configuration.spreads(pageCount: pages.count) }

    /// The viewport in view space.
    public var viewBounds: Rect { Rect(origin: .zero, size: viewportSize) }

    var layoutContext: LayoutContext {
        LayoutContext(viewportSize: viewportSize, spreads: spreads, pages: pages)
    }

    mutating func relayout() {
        layout.prepare(layoutContext)
    }

    // MARK: Configuration and layout

    /// Changes the configuration, keeping the reader's place (view state).
    ///
    /// A derived layout is rebuilt from the new configuration; a custom layout is kept as is.
    public mutating func setConfiguration(_ newValue: ViewConfiguration) {
        guard newValue != configuration else { return }
        let state = viewState()
        configuration = newValue
        if !isCustomLayout { layout = newValue.derivedLayout() }
        spreadZooms = [:]
        zoomScale = 1
        relayout()
        try? restore(state)
    }

    /// Replaces the layout with a custom one, which configuration changes will not touch.
    public mutating func setCustomLayout(_ custom: any DocumentViewLayout) {
        let state = viewState()
        layout = custom
        isCustomLayout = true
        spreadZooms = [:]
        zoomScale = 1
        relayout()
        try? restore(state)
    }

    /// Goes back to the layout derived from the configuration.
    public mutating func useDerivedLayout() {
        let state = viewState()
        layout = configuration.derivedLayout()
        isCustomLayout = false
        spreadZooms = [:]
        zoomScale = 1
        relayout()
        try? restore(state)
    }

    // MARK: Transforms between spaces

    /// The zoom frame that maps content to view for `spread`.
    func zoomFrame(spread: Int?) -> ZoomFrame {
        guard layout.spreadBasedZooming, let spread, spread >= 0, spread < layout.spreadCount else {
            return ZoomFrame(scale: zoomScale, offset: contentOffset, anchor: .zero, translation: .zero)
        }
        let cell = zoomCell(forSpread: spread)
        let zoom = spreadZooms[spread] ?? .identity
        return ZoomFrame(
            scale: zoom.scale, offset: zoom.offset, anchor: cell.origin, translation: cell.origin - contentOffset)
    }

    /// The region a spread zooms and is clipped in (its paging cell), in content space.
    public func zoomCell(forSpread spread: Int) -> Rect { layout.zoomCell(forSpread: spread) }

    /// Content to view for points that belong to `spread`.
    public func contentToView(spread: Int) -> AffineTransform { zoomFrame(spread: spread).contentToView }

    /// Spread space to content space.
    public func spreadToContent(spread: Int) -> AffineTransform {
        let frame = layout.frame(forSpread: spread)
        let natural = spreads.size(ofSpread: spread, pages: pages)
        let scale = natural.width > 0 ? frame.width / natural.width : 1
        return AffineTransform.scale(scale).concatenating(.translation(x: frame.minX, y: frame.minY))
    }

    /// Page (PDF user) space to spread space.
    public func pageToSpread(page: Int) -> AffineTransform {
        let spread = spreads.spreadIndex(forPage: page)
        let geometry = spreads.geometry(ofSpread: spread, pages: pages)
        guard let slot = geometry.slot(forPage: page) else { return .identity }
        return pages[page].pageToDisplay
            .concatenating(.scale(slot.scale))
            .concatenating(.translation(x: slot.frame.minX, y: slot.frame.minY))
    }

    /// Page (PDF user) space to content space.
    public func pageToContent(page: Int) -> AffineTransform {
        pageToSpread(page: page).concatenating(spreadToContent(spread: spreads.spreadIndex(forPage: page)))
    }

    /// Page (PDF user) space to view space.
    public func pageToView(page: Int) -> AffineTransform {
        pageToContent(page: page).concatenating(contentToView(spread: spreads.spreadIndex(forPage: page)))
    }

    /// Content pixels per page display point for `page` at zoom 1.
    func contentScale(ofPage page: Int) -> Double {
        let t = pageToContent(page: page)
        return (t.a * t.a + t.b * t.b).squareRoot()
    }

    /// The frame of `page` (its displayed crop box) in content space.
    public func frame(forPage page: Int) -> Rect {
        let spread = spreads.spreadIndex(forPage: page)
        let slot = spreads.geometry(ofSpread: spread, pages: pages).slot(forPage: page)!
        return spreadToContent(spread: spread).apply(to: slot.frame)
    }

    // MARK: Navigation

    /// The spread the reader is on: the nearest one to the scroll position.
    public var currentSpread: Int {
        let n = layout.spreadCount
        guard n > 0 else { return 0 }
        let index = layout.continuousSpreadIndex(forContentOffset: unscaledOffset)
        let rounded = layout.isPagingEnabled ? index.rounded() : index.rounded(.down)
        return Int(max(0, min(Double(n - 1), rounded)))
    }

    /// The content offset at zoom 1 (the top-left of the viewport in content space).
    var unscaledOffset: Point {
        layout.spreadBasedZooming
            ? contentOffset : Point(x: contentOffset.x / zoomScale, y: contentOffset.y / zoomScale)
    }

    /// The paging/scroll offset that brings `spread` to the start of the viewport at zoom 1.
    ///
    /// The first spread of a scrolling layout rests at the very start of the content, so
    /// the leading content inset shows when the document opens.
    func restingOffset(forSpread spread: Int) -> Point {
        var offset = layout.contentOffset(forContinuousSpreadIndex: Double(spread))
        if spread == 0 && !layout.isPagingEnabled {
            let mirrored = layout.scrollAxis == .horizontal && spreads.binding.isRightToLeft
            if layout.scrollAxis == .vertical {
                offset.y = 0
            } else {
                offset.x = mirrored ? layout.contentSize.width - viewportSize.width : 0
            }
        }
        return clampedDocumentOffset(offset, scale: 1)
    }

    /// Shows `page` at the start of the viewport at zoom 1, without animation.
    public mutating func goToPage(_ page: Int) throws(DocumentViewError) {
        guard page >= 0, page < pages.count else { throw .pageOutOfRange(page: page, pageCount: pages.count) }
        userChanged()
        animation = nil
        let spread = spreads.spreadIndex(forPage: page)
        zoomScale = 1
        spreadZooms[spread] = nil
        contentOffset = restingOffset(forSpread: spread)
        rememberedPage = page
        markNavigation(to: page)
    }

    /// Forgets the resize anchor: the reader moved, so the next resize captures afresh.
    mutating func userChanged() {
        resizeAnchor = nil
    }

    /// The view's position, for comparing it with a navigation mark.
    func position(forPage page: Int) -> NavigationMark {
        let spread = spreads.spreadIndex(forPage: page)
        return NavigationMark(
            page: page, contentOffset: contentOffset, zoomScale: zoomScale,
            spreadZoom: layout.spreadBasedZooming ? spreadZooms[spread] : nil, viewportSize: viewportSize)
    }

    /// Records that the reader navigated to `page` and the view now rests where it should.
    mutating func markNavigation(to page: Int) {
        navigationMark = position(forPage: page)
    }

    /// Whether the view still rests where `mark` was taken.
    func isAt(_ mark: NavigationMark) -> Bool {
        guard mark.page >= 0, mark.page < pages.count else { return false }
        return mark.matches(position(forPage: mark.page))
    }
}

/// Where a navigation left the view (see `DocumentView.dominantPage()`).
struct NavigationMark: Sendable, Equatable {
    var page: Int
    var contentOffset: Point
    var zoomScale: Double
    var spreadZoom: SpreadZoom?
    var viewportSize: Size

    /// Whether `other` is the same position, up to rounding.
    func matches(_ other: NavigationMark) -> Bool {
        func near(_ a: Point, _ b: Point) -> Bool { a.distance(to: b) <= 1e-6 * max(1, abs(a.x), abs(a.y)) }
        guard page == other.page, viewportSize == other.viewportSize, near(contentOffset, other.contentOffset),
            abs(zoomScale - other.zoomScale) <= 1e-9 * zoomScale
        else { return false }
        switch (spreadZoom, other.spreadZoom) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a.scale - b.scale) <= 1e-9 * a.scale && near(a.offset, b.offset)
        default: return false
        }
    }
}

/// How one zoomable region maps content to view: view = (p − anchor) × scale − offset + translation.
struct ZoomFrame: Sendable {
    var scale: Double
    var offset: Point
    var anchor: Point
    var translation: Point

    var contentToView: AffineTransform {
        AffineTransform.translation(x: -anchor.x, y: -anchor.y)
            .concatenating(.scale(scale))
            .concatenating(.translation(x: translation.x - offset.x, y: translation.y - offset.y))
    }

    /// The offset that puts content point `p` at view point `v` at `scale`.
    func offset(placing p: Point, at v: Point, scale: Double) -> Point {
        (p - anchor) * scale + translation - v
    }
}
