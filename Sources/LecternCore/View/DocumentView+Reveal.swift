extension DocumentView {
    /// Scrolls, at the current zoom, just far enough that `rect` (in the page space of
    /// `page`) lies inside `visible` (view pixels), centring it on each axis where it is
    /// not already inside.
    ///
    /// Used to bring a search hit into view: going to its page shows the page's top, and on
    /// a page taller than the screen (fit to width) or a zoomed spread the hit can still be
    /// off screen. Paging at zoom 1 never scrolls along the paging axis (a partial page turn
    /// would leave the view between spreads); across it, it moves only within
    /// `obscuredInsets`: out from under a search keyboard that covers a fitted page's foot.
    ///
    /// - Returns: Whether the view moved.
    @discardableResult
    public mutating func reveal(_ rect: Rect, onPage page: Int, within visible: Rect) -> Bool {
        guard page >= 0, page < pages.count, !visible.isEmpty else { return false }
        let target = activeScrollTarget
        let box = pageToView(page: page).apply(to: rect)
        func shift(_ low: Double, _ high: Double, _ visibleLow: Double, _ visibleHigh: Double) -> Double {
            guard low < visibleLow || high > visibleHigh else { return 0 }
            return (low + high) / 2 - (visibleLow + visibleHigh) / 2
        }
        var delta = Point(
            x: shift(box.minX, box.maxX, visible.minX, visible.maxX),
            y: shift(box.minY, box.maxY, visible.minY, visible.maxY))
        if case .document = target, layout.isPagingEnabled {
            if layout.scrollAxis == .horizontal { delta.x = 0 } else { delta.y = 0 }
        }
        guard delta.x != 0 || delta.y != 0 else { return false }
        let before = offset(of: target)
        scroll(by: delta)
        return offset(of: target) != before
    }
}
