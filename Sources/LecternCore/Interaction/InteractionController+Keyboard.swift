extension InteractionController {
    /// Keys: arrows scroll by `keyboardScrollStep`, up and down along the pages where the view
    /// cannot move vertically (turn spreads in per-spread mode when not
    /// zoomed in, left and right mirrored under right-edge binding); Page Up/Down turn a
    /// spread (per spread) or scroll a screenful (continuous); Home/End go to the first/last
    /// page; +/− zoom about the view centre. Nothing else does anything (nothing quits).
    func handleKey(_ key: Key) {
        guard let host else { return }
        let view = host.documentView
        guard view.layout.spreadCount > 0 else { return }
        let rightToLeft = view.configuration.pageBinding.isRightToLeft
        let paging = view.layout.isPagingEnabled
        switch key {
        case .up, .down, .left, .right:
            if paging && !(view.currentZoomScale > 1 + configuration.zoomedInTolerance) {
                let forward =
                    switch key {
                    case .up: false
                    case .down: true
                    case .left: rightToLeft
                    default: !rightToLeft
                    }
                turn(forward: forward)
            } else {
                let step = configuration.keyboardScrollStep
                let delta =
                    switch key {
                    case .up: Point(x: 0, y: -step)
                    case .down: Point(x: 0, y: step)
                    case .left: Point(x: -step, y: 0)
                    default: Point(x: step, y: 0)
                    }
                host.documentView.scroll(by: alongTheScrollAxis(delta, in: view))
            }
        case .pageUp, .pageDown:
            let forward = key == .pageDown
            if paging {
                turn(forward: forward)
            } else {
                host.documentView.scroll(by: screenful(forward: forward, in: view))
            }
        case .home:
            try? host.documentView.goToPage(0)
        case .end:
            try? host.documentView.goToPage(view.pages.count - 1)
        case .plus, .minus:
            let factor = max(configuration.keyboardZoomFactor, 1)
            let scale = view.currentZoomScale * (key == .plus ? factor : 1 / factor)
            host.documentView.zoom(to: scale, about: view.viewBounds.center)
        default:
            break
        }
    }

    /// A screenful along the scroll axis, in reading direction.
    private func screenful(forward: Bool, in view: DocumentView) -> Point {
        let axis = view.layout.scrollAxis
        var amount = view.viewportSize.extent(along: axis) * (forward ? 1 : -1)
        if axis == .horizontal && view.configuration.pageBinding.isRightToLeft { amount = -amount }
        return axis == .horizontal ? Point(x: amount, y: 0) : Point(x: 0, y: amount)
    }

    /// Turns one spread forward or back, counting from where a turn in progress heads.
    func turn(forward: Bool) {
        guard let host else { return }
        let target = host.documentView.destinationSpread + (forward ? 1 : -1)
        host.documentView.turn(toSpread: target, at: now)
    }
}
