/// Page sizes measured after the first layout (an estimate refined, a lying page count corrected), with the view kept where the reader is.
extension DocumentView {
    /// Records the real geometry of pages whose sizes were estimated, without moving what
    /// the reader sees: the dominant page's spread keeps its place on screen, and a drag,
    /// pinch, fling or animation in progress carries on from where it is (a page turn still
    /// ends on its page).
    ///
    /// All updates are checked first: when one is out of range nothing changes.
    public mutating func updatePageGeometries(
        _ updates: [(page: Int, geometry: PageGeometry)]
    ) throws(DocumentViewError) {
        guard !updates.isEmpty else { return }
        for update in updates where update.page < 0 || update.page >= pages.count {
            throw .pageOutOfRange(page: update.page, pageCount: pages.count)
        }
        let restingAtMark = navigationMark.map(isAt) ?? false
        let anchorSpread = spreads.spreadIndex(forPage: dominantPage())
        let before = contentToView(spread: anchorSpread).apply(to: layout.frame(forSpread: anchorSpread).origin)
        var changed: [Int] = []
        for update in updates {
            if try pages.setGeometry(update.geometry, forPage: update.page) {
                changed.append(spreads.spreadIndex(forPage: update.page))
            }
        }
        guard !changed.isEmpty else { return }
        layout.invalidateSpreads(changed, context: layoutContext)
        let after = contentToView(spread: anchorSpread).apply(to: layout.frame(forSpread: anchorSpread).origin)
        if !layout.spreadBasedZooming {
            let delta = after - before
            contentOffset = contentOffset + delta
            shiftGestures(byContent: delta * (1 / zoomScale))
        }
        clampAll()
        followLayoutChange(restingAtMark: restingAtMark)
    }

    /// After the layout changed under the reader: a page turn heads for where its page rests
    /// now, and a view resting where the last navigation put it still counts as resting there.
    private mutating func followLayoutChange(restingAtMark: Bool) {
        if case .transition(var transition) = animation, let page = transition.page, transition.target == .document {
            // A page turn heads for where its page rests now, carrying on from where it is:
            // re-base its start so that the current progress gives the current offset.
            let target = restingOffset(forSpread: spreads.spreadIndex(forPage: page))
            let span = transition.to.offset - transition.from.offset
            let done = contentOffset - transition.from.offset
            let progress =
                abs(span.x) >= abs(span.y) ? (span.x != 0 ? done.x / span.x : 0) : done.y / span.y
            if progress < 1 - 1e-3 {
                let p = max(0, progress)
                transition.from.offset = (contentOffset - target * p) * (1 / (1 - p))
            }
            transition.to.offset = target
            animation = .transition(transition)
            navigationMark?.contentOffset = transition.to.offset
        } else if restingAtMark, let page = navigationMark?.page {
            markNavigation(to: page)
        } else {
            navigationMark = nil
        }
    }

    /// Changes the number of pages, when a document's page tree turns out to hold another
    /// count than it claimed, without moving what the reader sees: the dominant page stays
    /// where it is on screen, and a drag, pinch, fling or page turn carries on. When the
    /// dominant page is past the new end, the view goes to the last page; a page turn
    /// heading past the new end stops. Pages added at the end use the table's estimate.
    ///
    /// Costs O(m) in the pages whose geometry was recorded, not O(pages).
    public mutating func setPageCount(_ count: Int) {
        let count = max(0, count)
        guard count != pages.count else { return }
        let dominant = dominantPage()
        resizeAnchor = nil
        rememberedPage = min(rememberedPage, max(0, count - 1))
        if case .transition(let transition) = animation, let page = transition.page, page >= count {
            animation = nil
        }
        guard dominant < count else {
            // The page on screen does not exist: show the last one that does.
            drag = nil
            pinch = nil
            animation = nil
            navigationMark = nil
            spreadZooms = [:]
            pages.setCount(count)
            relayout()
            if count > 0 {
                try? goToPage(count - 1)
            } else {
                contentOffset = .zero
                zoomScale = 1
            }
            return
        }
        let restingAtMark = navigationMark.map(isAt) ?? false
        // Paged layouts keep the dominant spread's cell (the page is centred in it); the
        // others keep the page itself.
        func anchor() -> Point {
            let spread = spreads.spreadIndex(forPage: dominant)
            let point = layout.spreadBasedZooming ? zoomCell(forSpread: spread).origin : frame(forPage: dominant).origin
            return contentToView(spread: spread).apply(to: point)
        }
        let before = anchor()
        pages.setCount(count)
        relayout()
        if case .spread(let s) = drag?.target, s >= layout.spreadCount { drag = nil }
        if case .spread(let s) = pinch?.target, s >= layout.spreadCount { pinch = nil }
        let delta = anchor() - before
        contentOffset = contentOffset + delta
        shiftGestures(byContent: delta * (1 / (layout.spreadBasedZooming ? 1 : zoomScale)))
        clampAll()
        followLayoutChange(restingAtMark: restingAtMark)
    }

    /// Moves the document-space state of a running drag, pinch, fling or animation by
    /// `delta` content units, the amount the content under the viewport just moved.
    mutating func shiftGestures(byContent delta: Point) {
        if var drag, drag.target == .document {
            drag.startOffset = drag.startOffset + delta * zoomScale
            drag.startPagingOffset = drag.startPagingOffset + delta * zoomScale
            self.drag = drag
        }
        if var pinch, pinch.target == .document {
            pinch.contentPoint = pinch.contentPoint + delta
            self.pinch = pinch
        }
        switch animation {
        case .fling(var fling) where fling.target == .document:
            fling.origin = fling.origin + delta * zoomScale
            animation = .fling(fling)
        case .transition(var transition) where transition.target == .document:
            transition.from.offset = transition.from.offset + delta * transition.from.scale
            transition.to.offset = transition.to.offset + delta * transition.to.scale
            animation = .transition(transition)
        default:
            break
        }
    }

    /// Records the real geometry of one page; see `updatePageGeometries(_:)`.
    public mutating func updatePageGeometry(_ geometry: PageGeometry, forPage page: Int) throws(DocumentViewError) {
        try updatePageGeometries([(page, geometry)])
    }
}
