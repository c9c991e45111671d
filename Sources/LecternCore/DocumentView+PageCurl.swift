/// A page turn under page curl, part of the way: the spread that lifts, the one it uncovers,
/// both where they rest, and how far the turn has gone.
///
/// Under page curl the view pages horizontally like a slide, and the paging offset between
/// two spreads is how far the earlier one (in reading order) has turned: a drag, a fling, a
/// tap's page turn and a snap back all move that offset, so they all curl. A renderer draws
/// the two spreads at rest, the earlier one folded back.
public struct PageCurl: Equatable, Sendable {
    /// The spread that lifts (the earlier of the two in reading order), where it rests.
    public var top: SpreadLayoutAttributes
    /// The spread it uncovers, where it rests (the same place on screen).
    public var under: SpreadLayoutAttributes
    /// How far `top` has turned: 0 flat, 1 turned away.
    public var progress: Double
    /// The page lifts from its left edge and the fold moves right (right-edge binding, where
    /// turning forward moves right to left through the book); else from its right edge.
    public var liftsFromLeft: Bool

    public init(top: SpreadLayoutAttributes, under: SpreadLayoutAttributes, progress: Double, liftsFromLeft: Bool) {
        self.top = top
        self.under = under
        self.progress = progress
        self.liftsFromLeft = liftsFromLeft
    }
}

extension DocumentView {
    /// The page curl the view shows now: nil unless the configuration curls and the paging
    /// offset lies between two spreads at zoom 1 (a zoomed spread pans and slides instead).
    /// Costs what `visibleLayout()` does.
    public func pageCurl() -> PageCurl? {
        guard configuration.pageTransition == .curl, layout.isPagingEnabled, layout.scrollAxis == .horizontal,
            layout.spreadCount > 1, viewportSize.width > 0
        else { return nil }
        let index = layout.continuousSpreadIndex(forContentOffset: contentOffset)
        let lower = Int(index.rounded(.down))
        let progress = index - Double(lower)
        // Less than half a pixel from a spread's rest is that spread at rest.
        let epsilon = 0.5 / viewportSize.width
        guard lower >= 0, lower + 1 < layout.spreadCount, progress > epsilon, progress < 1 - epsilon,
            (spreadZooms[lower]?.scale ?? 1) == 1, (spreadZooms[lower + 1]?.scale ?? 1) == 1,
            let top = restingLayout(ofSpread: lower), let under = restingLayout(ofSpread: lower + 1)
        else { return nil }
        return PageCurl(top: top, under: under, progress: progress, liftsFromLeft: spreads.binding.isRightToLeft)
    }

    /// `spread` laid out as if the view rested on it (at its current zoom), or nil when it
    /// has no page on screen there.
    public func restingLayout(ofSpread spread: Int) -> SpreadLayoutAttributes? {
        guard spread >= 0, spread < layout.spreadCount else { return nil }
        var resting = self
        resting.contentOffset = restingOffset(forSpread: spread)
        return resting.visibleLayout().first { $0.spread == spread }
    }

    /// Brings a page turn or a snap to a spread that is under way to its end at once (a
    /// reader that shows no page-turn animation). A zoom animation or a fling keeps running.
    public mutating func finishPageTurn() {
        guard layout.isPagingEnabled, case .transition(let transition)? = animation, transition.target == .document,
            transition.from.scale == transition.to.scale
        else { return }
        finishTransition()
    }
}
