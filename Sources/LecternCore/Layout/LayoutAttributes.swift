/// Where one visible page is drawn.
public struct PageLayoutAttributes: Hashable, Sendable {
    /// The page index.
    public var page: Int
    /// The page's displayed crop box in view space.
    public var frame: Rect
    /// The part of `frame` that is on screen, in view space.
    public var visibleRect: Rect
    /// PDF user space of the page to view space.
    public var pageToView: AffineTransform
}

/// Where one visible spread is drawn.
public struct SpreadLayoutAttributes: Hashable, Sendable {
    /// The spread index.
    public var spread: Int
    /// The spread's frame in view space.
    public var frame: Rect
    /// The region the spread is clipped to, in view space (the viewport, or the spread's
    /// cell under spread-based zooming).
    public var clipRect: Rect
    /// The spread's visible pages from left to right.
    public var pages: [PageLayoutAttributes]
}

extension DocumentView {
    /// The spreads and pages on screen, with their view-space frames: all a renderer needs
    /// for one frame. Costs O(log n + visible pages).
    /// - Parameter margin: view units around the viewport on each side that count as on screen
    ///   too (a frame drawn larger than the window, for pans: `PanSurface`); the frames stay in
    ///   the viewport's coordinates.
    public func visibleLayout(margin: Size = .zero) -> [SpreadLayoutAttributes] {
        guard layout.spreadCount > 0, viewportSize.width > 0, viewportSize.height > 0 else { return [] }
        let viewBounds = Rect(
            x: -margin.width, y: -margin.height, width: viewportSize.width + 2 * margin.width,
            height: viewportSize.height + 2 * margin.height)
        var candidates: [Int]
        if layout.spreadBasedZooming {
            let outer = Rect(origin: contentOffset + viewBounds.origin, size: viewBounds.size)
            let current = currentSpread
            var set = Set(layout.visibleSpreads(in: outer))
            for s in (current - 1)...(current + 1) where s >= 0 && s < layout.spreadCount { set.insert(s) }
            candidates = set.sorted()
        } else {
            let visible = Rect(
                x: (contentOffset.x + viewBounds.minX) / zoomScale, y: (contentOffset.y + viewBounds.minY) / zoomScale,
                width: viewBounds.width / zoomScale, height: viewBounds.height / zoomScale)
            candidates = layout.visibleSpreads(in: visible)
        }
        var result: [SpreadLayoutAttributes] = []
        result.reserveCapacity(candidates.count)
        for spread in candidates {
            let toView = contentToView(spread: spread)
            var clip = viewBounds
            if layout.spreadBasedZooming {
                let cellInView = zoomCell(forSpread: spread).offsetBy(Point(x: -contentOffset.x, y: -contentOffset.y))
                guard let c = cellInView.intersection(viewBounds) else { continue }
                clip = c
            }
            let spreadToView = spreadToContent(spread: spread).concatenating(toView)
            let geometry = spreads.geometry(ofSpread: spread, pages: pages)
            let frame = spreadToView.apply(to: Rect(origin: .zero, size: geometry.size))
            guard frame.intersects(clip) else { continue }
            var pageAttributes: [PageLayoutAttributes] = []
            pageAttributes.reserveCapacity(geometry.slots.count)
            for slot in geometry.slots {
                let pageFrame = spreadToView.apply(to: slot.frame)
                guard let visible = pageFrame.intersection(clip) else { continue }
                let pageToSpread = pages[slot.page].pageToDisplay
                    .concatenating(.scale(slot.scale))
                    .concatenating(.translation(x: slot.frame.minX, y: slot.frame.minY))
                pageAttributes.append(
                    PageLayoutAttributes(
                        page: slot.page, frame: pageFrame, visibleRect: visible,
                        pageToView: pageToSpread.concatenating(spreadToView)))
            }
            result.append(SpreadLayoutAttributes(spread: spread, frame: frame, clipRect: clip, pages: pageAttributes))
        }
        return result
    }

    /// The most visible page: the page covering the largest part of the viewport (its
    /// on-screen area, clipped like `visibleLayout()`).
    ///
    /// The page the reader navigated to (`goToPage`, `restore`, a page turn, or the page
    /// kept across a resize) stays dominant for as long as the view rests where that
    /// navigation put it, even when another page covers more of the screen there (the
    /// wider page of a spread, or the page above a short last page). Equal areas go to the
    /// page last navigated to, then to the first page in reading order. Costs
    /// O(log n + visible pages).
    public func dominantPage() -> Int {
        guard pages.count > 0 else { return 0 }
        if let mark = navigationMark, isAt(mark) { return mark.page }
        var best: (page: Int, area: Double)?
        for spread in visibleLayout() {
            for page in spread.pages {
                let area = page.visibleRect.area
                guard area > 0 else { continue }
                guard let current = best else {
                    best = (page.page, area)
                    continue
                }
                // Areas computed from differently rounded frames may differ in the last bits.
                let tolerance = 1e-9 * max(area, current.area)
                if area > current.area + tolerance {
                    best = (page.page, area)
                } else if area >= current.area - tolerance, current.page != rememberedPage,
                    page.page == rememberedPage || page.page < current.page
                {
                    best = (page.page, area)
                }
            }
        }
        if let best { return best.page }
        return min(max(rememberedPage, 0), pages.count - 1)
    }
}
