/// Wheel motion not yet spent on page turns, and the flick that panned a zoomed spread.
struct WheelState: Sendable {
    /// Detents toward the next page turn, signed (positive leads on). Smooth scrolling
    /// counts `wheelPageTurnDistance` pixels a detent, a high-resolution wheel 120 units.
    var detents = 0.0
    /// The time of the latest wheel event of the flick that panned a zoomed spread, while
    /// that flick may still be going on.
    var lastPan: Double?

    /// Adds `amount` detents (positive leads on) and takes out the whole ones.
    ///
    /// - Returns: How many spreads to turn (negative: back).
    mutating func turns(adding amount: Double) -> Int {
        // A change of direction starts over.
        if amount * detents < 0 { detents = 0 }
        detents += amount
        // Four quarter detents of a high-resolution wheel make one, whatever the rounding.
        let whole = (detents + (detents > 0 ? 1e-9 : -1e-9)).rounded(.towardZero)
        detents -= whole
        return Int(max(-1000, min(1000, whole)))
    }
}

extension InteractionController {
    /// Wheel and touchpad scrolling.
    ///
    /// - Per spread, not zoomed in: each detent (120 units of a high-resolution wheel, or
    ///   `wheelPageTurnDistance` of smooth scrolling) turns a spread; down or right (left
    ///   under right-edge binding) leads on.
    /// - Otherwise the wheel scrolls: a detent by `wheelDetentFraction` of the viewport,
    ///   smooth scrolling by its own pixels. Vertical motion goes along the scroll axis
    ///   where the view cannot move vertically (continuous horizontal mode; mirrored under
    ///   right-edge binding, as the arrow keys are).
    /// - Zoomed in per spread, the wheel pans the spread to its edge and stops there; once
    ///   it has rested `wheelEdgePause`, a detent more at that edge turns the spread.
    func handleScroll(delta: Point, steps: Point?) {
        guard let host else { return }
        let view = host.documentView
        guard view.layout.spreadCount > 0 else { return }
        let sign = view.configuration.pageBinding.isRightToLeft ? -1.0 : 1.0
        let paged = view.layout.isPagingEnabled
        // A page turn in progress heads for a spread at zoom 1: later detents turn on from there.
        if paged && (!isZoomedIn(view) || view.isTurningPage) {
            wheel.lastPan = nil
            func along(_ p: Point) -> Double { abs(p.y) >= abs(p.x) ? p.y : p.x * sign }
            let stepped = steps.map(along) ?? 0
            let amount = stepped != 0 ? stepped : along(delta) / max(configuration.wheelPageTurnDistance, 1)
            turn(by: wheel.turns(adding: amount))
            return
        }
        // Detents and pixels, with vertical motion moved to the scroll axis if it cannot go down.
        let target = view.activeScrollTarget
        let steps = alongTheScrollAxis(steps ?? .zero, in: view)
        let delta = alongTheScrollAxis(delta, in: view)
        let detent = view.viewportSize * max(configuration.wheelDetentFraction, 0)
        let pixels = Point(
            x: steps.x != 0 ? steps.x * detent.width : delta.x,
            y: steps.y != 0 ? steps.y * detent.height : delta.y)
        let before = view.offset(of: target)
        host.documentView.scroll(by: pixels)
        guard paged else {
            wheel = WheelState()
            return
        }
        // Zoomed in per spread: pan to the edge, then turn.
        let vertical = abs(pixels.y) >= abs(pixels.x)
        let moved = host.documentView.offset(of: target) - before
        guard (vertical ? pixels.y : pixels.x) != 0 else { return }
        if abs(vertical ? moved.y : moved.x) > 1e-6 {
            // Panning (to the edge, perhaps): what is left of this event goes nowhere.
            wheel = WheelState(detents: 0, lastPan: now)
            return
        }
        if let last = wheel.lastPan, now - last < configuration.wheelEdgePause {
            // The flick that reached the edge goes on: it does not turn the page.
            wheel.lastPan = now
            return
        }
        wheel.lastPan = nil
        // Spreads follow each other down in any paged layout, sideways only in horizontal ones.
        guard vertical || view.layout.scrollAxis == .horizontal else { return }
        let stepped = vertical ? steps.y : steps.x * sign
        let smooth = (vertical ? delta.y : delta.x * sign) / max(configuration.wheelPageTurnDistance, 1)
        let turns = wheel.turns(adding: stepped != 0 ? stepped : smooth)
        // Leaving a zoomed spread is one turn, however far the wheel went.
        if turns != 0 {
            wheel.detents = 0
            turn(by: turns > 0 ? 1 : -1)
        }
    }

    /// `motion` (view space), with its vertical part moved along the pages where the view
    /// cannot move vertically (continuous horizontal mode, not zoomed in): down leads on,
    /// which is left under right-edge binding. The wheel and the up and down keys use it.
    func alongTheScrollAxis(_ motion: Point, in view: DocumentView) -> Point {
        let bounds = view.bounds(of: view.activeScrollTarget, obscured: false)
        guard view.layout.scrollAxis == .horizontal, bounds.upper.y - bounds.lower.y < 0.5 else { return motion }
        let sign = view.configuration.pageBinding.isRightToLeft ? -1.0 : 1.0
        return Point(x: motion.x + motion.y * sign, y: 0)
    }

    /// Turns `count` spreads (negative: back), each counted from where the last heads.
    private func turn(by count: Int) {
        for _ in 0..<abs(count) { turn(forward: count > 0) }
    }
}
