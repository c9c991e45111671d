/// A page turn under page curl, part of the way: the spread that lifts, the one it uncovers,
/// both where they rest, and how far the turn has gone.
///
/// Under page curl the view pages horizontally like a slide, and the paging offset between
/// two spreads is how far the earlier one (in reading order) has turned: a drag, a fling, a
/// tap's page turn and a snap back all move that offset, so they all curl. A renderer draws
/// the two spreads at rest, the earlier one folded back: in single-page spreads its page folds
/// away; in double and cover spreads one leaf of a book turns (`leaf`).
public struct PageCurl: Equatable, Sendable {
    /// The leaf a page turn between two spreads of a book turns: `top`'s last page (in reading
    /// order) on its front, `under`'s first page on its back. Turning forward it lifts from its
    /// front's outer edge; turning back (the turn began on `under`), from its back's.
    public struct Leaf: Equatable, Sendable {
        /// The page on its front: the last page of `top` in reading order.
        public var front: Int
        /// The page on its back: the first page of `under` in reading order.
        public var back: Int
        /// The turn began on `under`: the leaf lay on `under`'s side, its back up, and lifts
        /// from that page's outer edge.
        public var turnsBack: Bool

        public init(front: Int, back: Int, turnsBack: Bool) {
            self.front = front
            self.back = back
            self.turnsBack = turnsBack
        }
    }

    /// The spread that lifts (the earlier of the two in reading order), where it rests.
    public var top: SpreadLayoutAttributes
    /// The spread it uncovers, where it rests (the same place on screen).
    public var under: SpreadLayoutAttributes
    /// How far `top` has turned: 0 flat, 1 turned away.
    public var progress: Double
    /// The page lifts from its left edge and the fold moves right (right-edge binding, where
    /// turning forward moves right to left through the book); else from its right edge.
    public var liftsFromLeft: Bool
    /// The leaf that turns, in double and cover spreads (nil in single-page spreads).
    public var leaf: Leaf?

    public init(
        top: SpreadLayoutAttributes, under: SpreadLayoutAttributes, progress: Double, liftsFromLeft: Bool,
        leaf: Leaf? = nil
    ) {
        self.top = top
        self.under = under
        self.progress = progress
        self.liftsFromLeft = liftsFromLeft
        self.leaf = leaf
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
        var leaf: PageCurl.Leaf?
        if spreads.typicalPagesPerSpread > 1 {
            // The leaf lifts on the side the turn began on (when that is not known, the nearer).
            let turnsBack = pageTurnOrigin.map { $0 > lower } ?? (progress > 0.5)
            leaf = PageCurl.Leaf(
                front: spreads.pageRange(forSpread: lower).upperBound - 1,
                back: spreads.pageRange(forSpread: lower + 1).lowerBound, turnsBack: turnsBack)
        }
        return PageCurl(
            top: top, under: under, progress: progress, liftsFromLeft: spreads.binding.isRightToLeft, leaf: leaf)
    }

    /// Notes the spread the view rests on as where a page turn begins, unless the view is
    /// between two spreads already (a turn under way goes on from where it began). Called
    /// wherever the paging offset starts to move.
    mutating func notePageTurnOrigin() {
        guard layout.isPagingEnabled, layout.spreadCount > 0, viewportSize.width > 0 else { return }
        let index = layout.continuousSpreadIndex(forContentOffset: contentOffset)
        let nearest = index.rounded()
        guard abs(index - nearest) <= 0.5 / viewportSize.width else { return }
        pageTurnOrigin = Int(max(0, min(Double(layout.spreadCount - 1), nearest)))
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
