extension DocumentView {
    /// The spread a page turn in progress heads for, else the current spread: taps and
    /// keys that turn pages count from there, so quick repeated taps each turn one spread.
    public var destinationSpread: Int {
        if case .transition(let transition)? = animation, let page = transition.page, page >= 0,
            page < pages.count
        {
            return spreads.spreadIndex(forPage: page)
        }
        return currentSpread
    }

    /// Whether a page turn is on its way (an animation heading for a page at zoom 1).
    var isTurningPage: Bool {
        if case .transition(let transition)? = animation, transition.page != nil { return true }
        return false
    }

    /// The page whose visible part contains `point` (view space), if any.
    public func page(at point: Point) -> Int? {
        for spread in visibleLayout() {
            for page in spread.pages where page.visibleRect.contains(point) { return page.page }
        }
        return nil
    }

    /// Turns to `spread` with a page-turn animation (its first page in reading order).
    public mutating func turn(toSpread spread: Int, at now: Double) {
        guard spread >= 0, spread < layout.spreadCount else { return }
        try? goToPage(spreads.pageRange(forSpread: spread).lowerBound, animated: true, at: now)
    }
}
