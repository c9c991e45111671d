/// Spreads stacked along one scroll direction, either back to back (continuous) or one
/// viewport-sized cell per spread (paged).
///
/// Continuous: every spread is scaled to fill the cross axis inside `contentInsets`, and
/// `interitemSpacing` separates consecutive spreads. Paged: every spread gets a cell the
/// size of the viewport, is aspect-fit inside the cell less `contentInsets` and centred,
/// and `interitemSpacing` is the gap between cells. Horizontal stacks run right to left
/// under right-edge binding, as the mirror image of the left-to-right stack.
///
/// Spread extents are uniform except where pages were measured to another size (or a first
/// or last spread holds fewer pages): the layout stores only those exceptions, so its memory
/// and `prepare(_:)` grow with the exceptions, not with the spread count, and visible-spread
/// queries and offset↔index conversions are O(log m) in the m exceptions.
public struct StackViewLayout: DocumentViewLayout {
    /// Whether spreads follow each other directly or one per viewport.
    public enum Arrangement: String, Hashable, Sendable, Codable {
        /// Spreads back to back, fit to the cross axis.
        case continuous
        /// One viewport-sized cell per spread.
        case paged
    }

    /// The scroll direction.
    public var axis: Axis { didSet { needsPrepare = true } }
    /// Continuous or paged.
    public var arrangement: Arrangement { didSet { needsPrepare = true } }
    /// The gap between consecutive spreads (continuous) or cells (paged), in pixels.
    public var interitemSpacing: Double { didSet { needsPrepare = true } }
    /// Padding around the content (continuous) or around each spread in its cell (paged).
    public var contentInsets: EdgeInsets { didSet { needsPrepare = true } }
    /// Whether each spread zooms on its own.
    public var spreadBasedZooming: Bool

    public private(set) var spreads: Spreads
    /// The viewport size the layout was prepared for.
    public private(set) var viewportSize: Size
    /// Whether properties changed since the last `prepare(_:)`.
    public private(set) var needsPrepare = true

    private var isRightToLeft = false
    /// The number of spreads.
    private var count = 0
    /// Width/height of each spread's natural size.
    private var aspectRatios = SparsePrefixSums(count: 0, uniform: 1)
    /// Continuous: main-axis extent of each spread plus the spacing after it.
    private var steps = SparsePrefixSums(count: 0, uniform: 1)
    private var crossExtent = 1.0

    /// Creates an empty stack; call `prepare(_:)` before asking for frames.
    public init(
        axis: Axis, arrangement: Arrangement, interitemSpacing: Double = 0,
        contentInsets: EdgeInsets = .zero, spreadBasedZooming: Bool = false
    ) {
        self.axis = axis
        self.arrangement = arrangement
        self.interitemSpacing = max(0, interitemSpacing)
        self.contentInsets = contentInsets
        self.spreadBasedZooming = spreadBasedZooming
        self.spreads = Spreads(pageCount: 0, mode: .single)
        self.viewportSize = .zero
    }

    public var scrollAxis: Axis { axis }
    public var isPagingEnabled: Bool { arrangement == .paged }

    /// How the paging frame extends past the viewport, set by the user (nil: half the spacing
    /// on each side along the scroll axis). Only paged stacks page.
    public var pagingFrameInsets: EdgeInsets? { didSet { needsPrepare = true } }

    /// Paged stacks widen their paging frame by half the gap on each side (or as
    /// `pagingFrameInsets` says), so that paging moves by one viewport plus the gap the insets
    /// make: cell `n` starts `n × (viewport − insets along the axis)` from the content's
    /// start. Only the total along the axis counts; a positive total is no gap.
    public var scrollViewFrameInsets: EdgeInsets {
        guard arrangement == .paged else { return .zero }
        if let pagingFrameInsets { return pagingFrameInsets }
        let half = -interitemSpacing / 2
        return axis == .horizontal ? EdgeInsets(left: half, right: half) : EdgeInsets(top: half, bottom: half)
    }

    private var viewportMain: Double { max(1, viewportSize.extent(along: axis)) }
    /// Paged: the gap between cells, from the paging frame's insets.
    private var pagingGap: Double { max(0, -scrollViewFrameInsets.total(along: axis)) }
    private var stride: Double { viewportMain + pagingGap }
    private var mirrors: Bool { axis == .horizontal && isRightToLeft }

    public mutating func prepare(_ context: LayoutContext) {
        spreads = context.spreads
        viewportSize = context.viewportSize
        isRightToLeft = context.isRightToLeft
        crossExtent = max(1, context.viewportSize.extent(along: axis.cross) - contentInsets.total(along: axis.cross))
        count = context.spreads.spreadCount
        // Every spread of pages that all use the estimate looks alike: that is the uniform
        // spread. Only spreads holding a recorded page, and the spreads the strategy calls
        // irregular (for the modes, the first and last, which may hold fewer pages), can
        // differ; measure those and nothing else, so opening a document costs the same for
        // 15,000 or 1.4 billion claimed pages.
        let uniform = context.spreads.typicalSize(ofPagesSized: context.pages.estimate.displaySize).aspectRatio
        var measured = Set(context.spreads.irregularSpreads)
        for page in context.pages.recordedPages where page < context.spreads.pageCount {
            measured.insert(context.spreads.spreadIndex(forPage: page))
        }
        let candidates = measured.sorted()
        let exceptions = candidates.map { spread in
            (index: spread, value: context.spreads.size(ofSpread: spread, pages: context.pages).aspectRatio)
        }
        aspectRatios = SparsePrefixSums(count: count, uniform: uniform, exceptions: exceptions)
        if arrangement == .continuous {
            steps = SparsePrefixSums(
                count: count, uniform: step(aspectRatio: uniform),
                exceptions: exceptions.map { ($0.index, step(aspectRatio: $0.value)) })
        } else {
            steps = SparsePrefixSums(count: 0, uniform: 1)
        }
        needsPrepare = false
    }

    public mutating func invalidateSpreads(_ changed: [Int], context: LayoutContext) {
        guard !needsPrepare, context.viewportSize == viewportSize, context.spreads == spreads else {
            prepare(context)
            return
        }
        let updates = changed.filter { $0 >= 0 && $0 < count }.map { spread in
            (index: spread, value: context.spreads.size(ofSpread: spread, pages: context.pages).aspectRatio)
        }
        aspectRatios.set(updates)
        if arrangement == .continuous {
            steps.set(updates.map { ($0.index, step(aspectRatio: $0.value)) })
        }
    }

    /// How many spreads the layout stores a size for (the others are uniform): what its
    /// memory grows with.
    var storedSpreadCount: Int { aspectRatios.exceptionCount }

    /// Continuous: the main-axis extent of a spread plus the spacing after it.
    private func step(aspectRatio: Double) -> Double {
        mainExtent(aspectRatio: aspectRatio) + interitemSpacing
    }

    private func mainExtent(aspectRatio: Double) -> Double {
        axis == .vertical ? crossExtent / aspectRatio : crossExtent * aspectRatio
    }

    public var contentSize: Size {
        let main: Double
        switch arrangement {
        case .continuous:
            main = contentInsets.total(along: axis) + (count > 0 ? steps.total - interitemSpacing : 0)
        case .paged:
            main = count > 0 ? Double(count) * stride - pagingGap : 0
        }
        let cross = viewportSize.extent(along: axis.cross)
        return axis == .vertical ? Size(width: cross, height: main) : Size(width: main, height: cross)
    }

    /// Converts a main-axis interval from content space to the left-to-right order.
    private func normalized(_ lo: Double, _ hi: Double) -> (Double, Double) {
        guard mirrors else { return (lo, hi) }
        let total = contentSize.width
        return (total - hi, total - lo)
    }

    private func rect(main: Double, extent: Double, cross: Double, crossExtent: Double) -> Rect {
        var m = main
        if mirrors { m = contentSize.width - main - extent }
        return axis == .vertical
            ? Rect(x: cross, y: m, width: crossExtent, height: extent)
            : Rect(x: m, y: cross, width: extent, height: crossExtent)
    }

    /// The paging cell of a paged spread, the frame of a continuous one.
    public func zoomCell(forSpread spread: Int) -> Rect { cell(forSpread: spread) }

    /// The viewport-sized cell of a paged spread in content space.
    public func cell(forSpread spread: Int) -> Rect {
        switch arrangement {
        case .paged:
            let cross = viewportSize.extent(along: axis.cross)
            return rect(main: Double(spread) * stride, extent: viewportMain, cross: 0, crossExtent: cross)
        case .continuous:
            return frame(forSpread: spread)
        }
    }

    public func frame(forSpread spread: Int) -> Rect {
        precondition(spread >= 0 && spread < count, "spread \(spread) out of 0..<\(count)")
        switch arrangement {
        case .continuous:
            let (prefix, step) = steps.prefixAndValue(at: spread)
            let start = contentInsets.leading(along: axis) + prefix
            return rect(
                main: start, extent: step - interitemSpacing,
                cross: contentInsets.leading(along: axis.cross), crossExtent: crossExtent)
        case .paged:
            let cell = cell(forSpread: spread)
            let ratio = aspectRatios[spread]
            let fitted = cell.inset(by: contentInsets).aspectFit(Size(width: ratio, height: 1))
            return Rect(
                x: cell.midX - fitted.width / 2, y: cell.midY - fitted.height / 2,
                width: fitted.width, height: fitted.height)
        }
    }

    public func visibleSpreads(in rect: Rect) -> [Int] {
        guard count > 0, !rect.isEmpty else { return [] }
        let (lo, hi) = normalized(rect.minimum(along: axis), rect.maximum(along: axis))
        var first: Int
        var last: Int
        switch arrangement {
        case .continuous:
            let leading = contentInsets.leading(along: axis)
            first = steps.largestIndex(withPrefixAtMost: lo - leading + interitemSpacing)
            last = steps.largestIndex(withPrefixAtMost: hi - leading, strictly: true)
        case .paged:
            first = Int(max(-1, min(Double(count), (lo / stride).rounded(.down))))
            last = Int(max(-1, min(Double(count), (hi / stride).rounded(.down))))
        }
        // The searches accumulate sums in another order than `frame(forSpread:)`; widen by
        // one and let the exact predicate decide, so the answer matches a brute-force scan.
        first = max(0, first - 1)
        last = min(count - 1, last + 1)
        guard first <= last else { return [] }
        return (first...last).filter { frame(forSpread: $0).intersects(rect) }
    }

    public func continuousSpreadIndex(forContentOffset offset: Point) -> Double {
        guard count > 0 else { return 0 }
        var main = axis == .vertical ? offset.y : offset.x
        if mirrors { main = contentSize.width - main - viewportMain }
        switch arrangement {
        case .paged:
            return main / stride
        case .continuous:
            let relative = main - contentInsets.leading(along: axis)
            if relative < 0 { return relative / steps[0] }
            var s = min(steps.largestIndex(withPrefixAtMost: relative), count - 1)
            var start = steps.prefix(s)
            // Correct a search that disagrees with the prefix sums by one rounding step.
            while s > 0 && start > relative {
                s -= 1
                start = steps.prefix(s)
            }
            while s < count - 1 && steps.prefix(s + 1) <= relative {
                s += 1
                start = steps.prefix(s)
            }
            return Double(s) + (relative - start) / steps[s]
        }
    }

    public func contentOffset(forContinuousSpreadIndex index: Double) -> Point {
        guard count > 0 else { return .zero }
        var main: Double
        switch arrangement {
        case .paged:
            main = index * stride
        case .continuous:
            let s = Int(max(0, min(Double(count - 1), index.rounded(.down))))
            let (prefix, step) = steps.prefixAndValue(at: s)
            main = contentInsets.leading(along: axis) + prefix + (index - Double(s)) * step
        }
        if mirrors { main = contentSize.width - main - viewportMain }
        return axis == .vertical ? Point(x: 0, y: main) : Point(x: main, y: 0)
    }
}
