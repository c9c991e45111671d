/// The range a scroll offset may take, per axis.
public struct OffsetBounds: Hashable, Sendable {
    /// The smallest offset on each axis.
    public var lower: Point
    /// The largest offset on each axis.
    public var upper: Point

    /// The bounds grown by `insets`: an offset may go that far past each edge, so content can
    /// be brought out from under what covers the viewport there (UIScrollView's content inset).
    public func widened(by insets: EdgeInsets) -> OffsetBounds {
        OffsetBounds(
            lower: Point(x: lower.x - insets.left, y: lower.y - insets.top),
            upper: Point(x: upper.x + insets.right, y: upper.y + insets.bottom))
    }

    /// The offset moved into the bounds.
    public func clamp(_ p: Point) -> Point {
        Point(x: min(max(p.x, lower.x), upper.x), y: min(max(p.y, lower.y), upper.y))
    }

    /// Whether `p` lies inside the bounds (with a tolerance for rounding).
    public func contains(_ p: Point, tolerance: Double = 1e-6) -> Bool {
        p.x >= lower.x - tolerance && p.x <= upper.x + tolerance
            && p.y >= lower.y - tolerance && p.y <= upper.y + tolerance
    }

    /// The bounds of an offset that scrolls `content` (in a zoom frame's local space, at
    /// zoom 1) shown at `scale` through a viewport of `viewport` size.
    ///
    /// Along an axis where the scaled content is larger than the viewport the offset ranges
    /// over the content; where it is smaller the content is centred in the viewport.
    static func of(content: Rect, scale: Double, viewport: Size) -> OffsetBounds {
        func axis(_ lo: Double, _ size: Double, _ view: Double) -> (Double, Double) {
            if size * scale >= view {
                return (lo * scale, (lo + size) * scale - view)
            }
            let centred = (lo + size / 2) * scale - view / 2
            return (centred, centred)
        }
        let (x0, x1) = axis(content.minX, content.width, viewport.width)
        let (y0, y1) = axis(content.minY, content.height, viewport.height)
        return OffsetBounds(lower: Point(x: x0, y: y0), upper: Point(x: x1, y: y1))
    }
}

/// Which offset a gesture moves: the document's, or one zoomed spread's own.
public enum ScrollTarget: Hashable, Sendable {
    /// `contentOffset` (document scrolling, or paging between spreads).
    case document
    /// The offset inside a zoomed spread under spread-based zooming.
    case spread(Int)
}

/// A drag in progress.
struct DragState: Sendable {
    var target: ScrollTarget
    var startOffset: Point
    var startSpread: Int
    /// `contentOffset` when the drag began (the paging position).
    var startPagingOffset: Point
}

extension DocumentView {
    /// How far past a bound the content may be pulled, as a fraction of the viewport (the
    /// UIScrollView constant).
    public static let rubberBandCoefficient = 0.55
    /// Finger speed (px/s) above which a paging drag turns the spread.
    public static let pagingVelocityThreshold = 300.0

    /// The rubber-banded position for a raw offset `x` that may lie outside `lower...upper`.
    ///
    /// The overshoot `o` shows as `(1 − 1 / (o·c / d + 1)) · d`: it starts 1:1-ish and never
    /// exceeds the viewport dimension `d`.
    public static func rubberBand(_ x: Double, lower: Double, upper: Double, dimension: Double) -> Double {
        let d = max(1, dimension)
        func resist(_ overshoot: Double) -> Double {
            (1 - 1 / (overshoot * rubberBandCoefficient / d + 1)) * d
        }
        if x < lower { return lower - resist(lower - x) }
        if x > upper { return upper + resist(x - upper) }
        return x
    }

    /// `rubberBand(_:lower:upper:dimension:)` when the configuration bounces; the bound
    /// otherwise.
    func banded(_ x: Double, lower: Double, upper: Double, dimension: Double) -> Double {
        configuration.bounces
            ? Self.rubberBand(x, lower: lower, upper: upper, dimension: dimension) : min(max(x, lower), upper)
    }

    /// The bounds of `contentOffset` at document zoom `scale` (at 1 under spread-based zooming),
    /// widened by `obscuredInsets` unless `obscured` is false.
    public func documentOffsetBounds(scale: Double? = nil, obscured: Bool = true) -> OffsetBounds {
        let content = Rect(origin: .zero, size: layout.contentSize)
        var bounds = OffsetBounds.of(
            content: content, scale: scale ?? (layout.spreadBasedZooming ? 1 : zoomScale), viewport: viewportSize)
        if layout.spreadBasedZooming {
            // Paging moves along the scroll axis only.
            if layout.scrollAxis == .horizontal {
                bounds.lower.y = 0
                bounds.upper.y = 0
            } else {
                bounds.lower.x = 0
                bounds.upper.x = 0
            }
        }
        return obscured ? bounds.widened(by: obscuredInsets) : bounds
    }

    /// The bounds of a zoomed spread's own offset at `scale`, widened by `obscuredInsets`
    /// unless `obscured` is false.
    public func spreadOffsetBounds(spread: Int, scale: Double, obscured: Bool = true) -> OffsetBounds {
        let cell = zoomCell(forSpread: spread)
        let local = layout.frame(forSpread: spread).offsetBy(Point(x: -cell.minX, y: -cell.minY))
        let bounds = OffsetBounds.of(content: local, scale: scale, viewport: viewportSize)
        return obscured ? bounds.widened(by: obscuredInsets) : bounds
    }

    func clampedDocumentOffset(_ offset: Point, scale: Double) -> Point {
        documentOffsetBounds(scale: scale).clamp(offset)
    }

    /// The target a pan moves now: the current spread when it is zoomed in under
    /// spread-based zooming, else the document.
    public var activeScrollTarget: ScrollTarget {
        guard layout.spreadBasedZooming, layout.spreadCount > 0 else { return .document }
        let spread = currentSpread
        if let zoom = spreadZooms[spread], zoom.scale > 1 + 1e-9 { return .spread(spread) }
        return .document
    }

    /// The offset of `target`.
    public func offset(of target: ScrollTarget) -> Point {
        switch target {
        case .document: contentOffset
        case .spread(let s): spreadZooms[s]?.offset ?? .zero
        }
    }

    /// The bounds of `target`'s offset (widened by `obscuredInsets` unless `obscured` is false).
    public func bounds(of target: ScrollTarget, obscured: Bool = true) -> OffsetBounds {
        switch target {
        case .document: documentOffsetBounds(obscured: obscured)
        case .spread(let s): spreadOffsetBounds(spread: s, scale: spreadZooms[s]?.scale ?? 1, obscured: obscured)
        }
    }

    mutating func setOffset(_ offset: Point, of target: ScrollTarget) {
        switch target {
        case .document: contentOffset = offset
        case .spread(let s): spreadZooms[s, default: .identity].offset = offset
        }
    }

    /// Moves every offset inside its bounds and forgets spreads back at zoom 1.
    mutating func clampAll() {
        contentOffset = documentOffsetBounds().clamp(contentOffset)
        for (spread, zoom) in spreadZooms {
            guard spread < layout.spreadCount, zoom.scale > 1 + 1e-9 || zoom.scale < 1 - 1e-9 else {
                spreadZooms[spread] = nil
                continue
            }
            let clamped = spreadOffsetBounds(spread: spread, scale: zoom.scale).clamp(zoom.offset)
            spreadZooms[spread]?.offset = clamped
        }
    }

    /// Scrolls the active target by `delta` view pixels, stopping at the bounds.
    public mutating func scroll(by delta: Point) {
        userChanged()
        animation = nil
        notePageTurnOrigin()
        let target = activeScrollTarget
        setOffset(bounds(of: target).clamp(offset(of: target) + delta), of: target)
    }

    /// Sets `contentOffset`, clamped to its bounds.
    public mutating func setContentOffset(_ offset: Point) {
        userChanged()
        animation = nil
        notePageTurnOrigin()
        contentOffset = documentOffsetBounds().clamp(offset)
    }

    /// Whether a drag is in progress.
    public var isDragging: Bool { drag != nil }

    /// Starts a drag (a one-finger pan); stops any animation or fling.
    public mutating func beginDrag() {
        userChanged()
        animation = nil
        notePageTurnOrigin()
        let target = activeScrollTarget
        drag = DragState(
            target: target, startOffset: offset(of: target), startSpread: currentSpread,
            startPagingOffset: contentOffset)
    }

    /// Follows the finger: `translation` is the finger's movement in view pixels since
    /// `beginDrag()`. Past a bound the content resists (rubber-banding).
    public mutating func drag(translation: Point) {
        if drag == nil { beginDrag() }
        guard let drag else { return }
        var raw = drag.startOffset - translation
        let bounds = bounds(of: drag.target)
        if drag.target == .document && layout.spreadBasedZooming {
            // Paging never moves across the scroll axis.
            // (It stays where it is: inside obscured insets a search may have moved it.)
            let kept = bounds.clamp(drag.startOffset)
            if layout.scrollAxis == .horizontal { raw.y = kept.y } else { raw.x = kept.x }
        }
        if case .spread = drag.target, layout.isPagingEnabled {
            // A zoomed spread pans to its edge; the rest of the movement along the scroll
            // axis pages, so the reader can swipe on without zooming out first.
            var paging = drag.startPagingOffset
            if layout.scrollAxis == .horizontal {
                let inside = min(max(raw.x, bounds.lower.x), bounds.upper.x)
                paging.x += raw.x - inside
                raw.x = inside
            } else {
                let inside = min(max(raw.y, bounds.lower.y), bounds.upper.y)
                paging.y += raw.y - inside
                raw.y = inside
            }
            let pagingBounds = documentOffsetBounds()
            contentOffset = Point(
                x: banded(
                    paging.x, lower: pagingBounds.lower.x, upper: pagingBounds.upper.x, dimension: viewportSize.width),
                y: banded(
                    paging.y, lower: pagingBounds.lower.y, upper: pagingBounds.upper.y, dimension: viewportSize.height))
        }
        // Along an axis where the content fits there is nothing to scroll: it stays put
        // rather than wobbling with the finger's drift (UIScrollView without alwaysBounce).
        let banded = Point(
            x: bounds.upper.x > bounds.lower.x
                ? banded(raw.x, lower: bounds.lower.x, upper: bounds.upper.x, dimension: viewportSize.width)
                : bounds.lower.x,
            y: bounds.upper.y > bounds.lower.y
                ? banded(raw.y, lower: bounds.lower.y, upper: bounds.upper.y, dimension: viewportSize.height)
                : bounds.lower.y)
        setOffset(banded, of: drag.target)
    }

    /// Ends a drag with the finger's `velocity` (view px/s) at time `now`.
    ///
    /// Scroll-per-spread snaps to a spread (the next one when flicked fast enough);
    /// content pulled past a bound springs back; otherwise a fast release starts a fling.
    public mutating func endDrag(velocity: Point, at now: Double) {
        guard let drag else { return }
        self.drag = nil
        let target = drag.target
        let current = offset(of: target)
        let bounds = bounds(of: target)
        let offsetVelocity = Point(x: -velocity.x, y: -velocity.y)
        let paged = contentOffset.distance(to: drag.startPagingOffset) > 0.5
        if layout.isPagingEnabled && layout.spreadCount > 0 && (target == .document || paged) {
            let speed = layout.scrollAxis == .horizontal ? offsetVelocity.x : offsetVelocity.y
            var projected = contentOffset
            if abs(speed) >= Self.pagingVelocityThreshold {
                // Project far enough to cross into the neighbour, at most one spread away.
                let push = (speed > 0 ? 1.0 : -1.0) * viewportSize.extent(along: layout.scrollAxis) * 0.5
                if layout.scrollAxis == .horizontal { projected.x += push } else { projected.y += push }
            }
            var index = Int(layout.continuousSpreadIndex(forContentOffset: projected).rounded())
            index = max(drag.startSpread - 1, min(drag.startSpread + 1, index))
            index = max(0, min(layout.spreadCount - 1, index))
            if case .spread = target { setOffset(bounds.clamp(current), of: target) }
            animateDocument(to: restingOffset(forSpread: index), duration: 0.3, curve: .easeOut, at: now)
            return
        }
        if !bounds.contains(current) {
            animateOffset(of: target, to: bounds.clamp(current), duration: 0.35, curve: .easeOut, at: now)
            return
        }
        if abs(offsetVelocity.x) > Fling.stopSpeed || abs(offsetVelocity.y) > Fling.stopSpeed {
            var v = offsetVelocity
            if target == .document && layout.spreadBasedZooming {
                if layout.scrollAxis == .horizontal { v.y = 0 } else { v.x = 0 }
            }
            animation = .fling(Fling(target: target, origin: current, velocity: v, start: now))
        }
    }
}
