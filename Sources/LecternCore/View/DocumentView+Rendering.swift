extension DocumentView {
    /// Whether the zoom is changing right now (a pinch, or an animation between two zoom
    /// scales). Page sizes on screen are then in flux: a renderer scales what it already has
    /// instead of rendering sharp tiles for every intermediate size.
    public var isZoomChanging: Bool {
        if pinch != nil { return true }
        if case .transition(let transition)? = animation, transition.from.scale != transition.to.scale { return true }
        return false
    }

    /// Whether a drag or a pinch is in progress.
    public var isInteracting: Bool { drag != nil || pinch != nil }

    /// The spreads a reader is likely to look at next, most likely first: the spreads after
    /// and before the ones on screen (`visible`, from `visibleLayout()`), in reading order
    /// (which right-edge binding lays out right to left), at most `count` on each side.
    public func prefetchSpreads(around visible: [SpreadLayoutAttributes], count: Int = 1) -> [Int] {
        guard let first = visible.map(\.spread).min(), let last = visible.map(\.spread).max() else { return [] }
        var result: [Int] = []
        for step in 1...max(1, count) {
            if last + step < layout.spreadCount { result.append(last + step) }
            if first - step >= 0 { result.append(first - step) }
        }
        return result
    }
}
