/// Where the reader is: the dominant page and, only when zoomed in, the visible region.
///
/// `Codable` for persistence; the viewport is in the page's PDF user space, may extend past
/// the page box and is independent of the screen size and of /Rotate.
public struct ViewState: Hashable, Codable, Sendable {
    /// The most visible page.
    public var pageIndex: Int
    /// The viewport in the page's PDF coordinates; `nil` when not zoomed in.
    public var viewport: Rect?

    /// Creates a view state.
    public init(pageIndex: Int, viewport: Rect? = nil) {
        self.pageIndex = pageIndex
        self.viewport = viewport
    }

    /// The state a mirror display of aspect ratio `mirrorAspectRatio` (width / height)
    /// should restore so that it shows at least everything this state shows.
    ///
    /// Restoring keeps a viewport's centre and width, so a taller mirror already shows
    /// more; for a wider mirror the width grows about the centre, in the page's rotated
    /// (displayed) frame, before transforming back to PDF coordinates.
    public func aspectFitMirrorState(page: PageGeometry, mirrorAspectRatio: Double) -> ViewState {
        guard let viewport, mirrorAspectRatio > 0 else { return self }
        let displayed = page.pageToDisplay.apply(to: viewport)
        guard displayed.height > 0, displayed.width / displayed.height < mirrorAspectRatio else { return self }
        let width = displayed.height * mirrorAspectRatio
        let grown = Rect(x: displayed.midX - width / 2, y: displayed.minY, width: width, height: displayed.height)
        return ViewState(pageIndex: pageIndex, viewport: page.displayToPage.apply(to: grown))
    }
}

/// What a run of resizes keeps, so that A → B → A comes back exactly.
struct ResizeAnchor: Sendable {
    var state: ViewState
    var continuousIndex: Double
}

extension DocumentView {
    /// Captures the view state: the dominant page and, when zoomed in (and not in page-curl
    /// mode), the viewport in that page's PDF coordinates.
    public func viewState() -> ViewState { viewState(dominantPage: dominantPage()) }

    /// `viewState()` with the dominant page worked out already (`dominantPage()` of this view).
    public func viewState(dominantPage page: Int) -> ViewState {
        guard pages.count > 0 else { return ViewState(pageIndex: 0) }
        let spread = spreads.spreadIndex(forPage: page)
        let scale = layout.spreadBasedZooming ? (spreadZooms[spread]?.scale ?? 1) : zoomScale
        guard configuration.pageTransition != .curl, scale > 1 + 1e-6,
            let viewToPage = pageToView(page: page).inverted()
        else { return ViewState(pageIndex: page) }
        return ViewState(pageIndex: page, viewport: viewToPage.apply(to: viewBounds))
    }

    /// Restores a view state: goes to the page and, when the state has a viewport, zooms so
    /// that the viewport's centre is at the centre of the screen and its width (in the
    /// page's displayed frame) fills the screen's width.
    ///
    /// A state without viewport is the same as `goToPage(_:)`.
    public mutating func restore(_ state: ViewState) throws(DocumentViewError) {
        let page = state.pageIndex
        guard page >= 0, page < pages.count else { throw .pageOutOfRange(page: page, pageCount: pages.count) }
        guard let viewport = state.viewport, configuration.pageTransition != .curl else {
            try goToPage(page)
            return
        }
        guard viewport.width > 0, viewport.height > 0, viewport.width.isFinite, viewport.height.isFinite else {
            throw .emptyViewport(viewport)
        }
        userChanged()
        animation = nil
        let spread = spreads.spreadIndex(forPage: page)
        let displayed = pages[page].pageToDisplay.apply(to: viewport)
        let scale = clampZoom(viewportSize.width / (displayed.width * contentScale(ofPage: page)))
        let centre = pageToContent(page: page).apply(to: viewport.center)
        if layout.spreadBasedZooming {
            contentOffset = restingOffset(forSpread: spread)
            let frame = zoomFrame(spread: spread)
            apply(
                scale: scale, offset: frame.offset(placing: centre, at: viewBounds.center, scale: scale),
                to: .spread(spread))
        } else {
            let frame = ZoomFrame(scale: scale, offset: .zero, anchor: .zero, translation: .zero)
            apply(
                scale: scale, offset: frame.offset(placing: centre, at: viewBounds.center, scale: scale), to: .document)
        }
        rememberedPage = page
        markNavigation(to: page)
    }

    /// Changes the viewport size (a window resize or a screen rotation), keeping the
    /// reader's place.
    ///
    /// Zoomed in, the viewport's centre and width are kept, so a narrower screen shows more
    /// height and a wider one less. Not zoomed in, continuous layouts keep the fractional
    /// spread position and paged ones the spread. Consecutive resizes without user input
    /// restore the state captured before the first one, so A → B → A is the identity.
    ///
    /// An animation in progress (a page turn, a snap to a spread, a zoom to a text block)
    /// lands where it was going first, so that is the place kept: a page turn tapped just
    /// before a rotation is not lost half-way. A fling stops where it is.
    public mutating func setViewportSize(_ size: Size) {
        guard size != viewportSize, size.width > 0, size.height > 0 else { return }
        finishTransition()
        let anchor =
            resizeAnchor
            ?? ResizeAnchor(
                state: viewState(),
                continuousIndex: layout.spreadCount > 0
                    ? layout.continuousSpreadIndex(forContentOffset: unscaledOffset) : 0)
        animation = nil
        drag = nil
        pinch = nil
        viewportSize = size
        spreadZooms = [:]
        relayout()
        guard pages.count > 0 else { return }
        if anchor.state.viewport != nil || layout.isPagingEnabled || configuration.pageTransition == .curl {
            try? restore(anchor.state)
        } else {
            let offset = layout.contentOffset(forContinuousSpreadIndex: anchor.continuousIndex)
            let crossIsX = layout.scrollAxis == .vertical
            var scaled = offset * zoomScale
            if crossIsX { scaled.x = contentOffset.x } else { scaled.y = contentOffset.y }
            contentOffset = documentOffsetBounds().clamp(scaled)
            rememberedPage = anchor.state.pageIndex
            markNavigation(to: anchor.state.pageIndex)
        }
        resizeAnchor = anchor
    }

    /// The state a mirror display of `mirrorViewportSize` should restore to show at least
    /// what `state` shows here; see `ViewState.aspectFitMirrorState(page:mirrorAspectRatio:)`.
    public func aspectFitMirrorState(_ state: ViewState, mirrorViewportSize: Size) -> ViewState {
        guard state.pageIndex >= 0, state.pageIndex < pages.count else { return state }
        return state.aspectFitMirrorState(
            page: pages[state.pageIndex], mirrorAspectRatio: mirrorViewportSize.aspectRatio)
    }
}

extension DocumentView {
    /// How long an animated restore takes.
    public static let restoreDuration = 0.3

    /// Restores a view state as `restore(_:)` does, moving there over `restoreDuration` from
    /// where the view is when `animated` (eased; `advanceAnimations(to:)` plays it).
    ///
    /// Under document zooming the zoom and the offset move together. Under spread-based zooming
    /// a state on the spread shown zooms it in place; one on another spread pages there, that
    /// spread already at the state's zoom. A page curl turns the page (view states keep only
    /// the page there).
    public mutating func restore(_ state: ViewState, animated: Bool, at now: Double) throws(DocumentViewError) {
        guard animated else {
            try restore(state)
            return
        }
        guard state.viewport != nil, configuration.pageTransition != .curl else {
            try goToPage(state.pageIndex, animated: true, at: now)
            return
        }
        if case .transition? = animation { finishTransition() }
        var end = self
        try end.restore(state)
        let spread = spreads.spreadIndex(forPage: state.pageIndex)
        if layout.spreadBasedZooming {
            if spread == currentSpread, contentOffset == end.contentOffset {
                let target = end.snapshot(of: .spread(spread))
                startTransition(
                    to: target, target: .spread(spread), duration: Self.restoreDuration, curve: .easeInOut, at: now)
            } else {
                spreadZooms[spread] = end.spreadZooms[spread]
                startTransition(
                    to: end.snapshot(of: .document), target: .document, duration: Self.restoreDuration,
                    curve: .easeInOut, at: now, page: state.pageIndex)
            }
        } else {
            // No page: the end is not the page's resting offset (which a page turn heads for).
            startTransition(
                to: end.snapshot(of: .document), target: .document, duration: Self.restoreDuration, curve: .easeInOut,
                at: now)
        }
        userChanged()
        rememberedPage = end.rememberedPage
        navigationMark = end.navigationMark
    }
}
