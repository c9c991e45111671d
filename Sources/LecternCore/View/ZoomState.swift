/// A pinch in progress.
struct PinchState: Sendable {
    var target: ScrollTarget
    var startScale: Double
    /// The content point under the fingers when the pinch began.
    var contentPoint: Point
}

extension DocumentView {
    /// The zoom scale of the active zoom target (the document, or the current spread).
    public var currentZoomScale: Double {
        layout.spreadBasedZooming ? (spreadZooms[currentSpread]?.scale ?? 1) : zoomScale
    }

    /// Whether what is on screen is zoomed in beyond zoom 1.
    public var isZoomedIn: Bool { currentZoomScale > 1 + 1e-6 }

    func clampZoom(_ scale: Double) -> Double {
        min(max(scale, configuration.minimumZoomScale), configuration.maximumZoomScale)
    }

    /// The zoom target for the current position: the document, or the current spread.
    var zoomTarget: ScrollTarget {
        layout.spreadBasedZooming && layout.spreadCount > 0 ? .spread(currentSpread) : .document
    }

    func zoomFrame(for target: ScrollTarget) -> ZoomFrame {
        switch target {
        case .document: zoomFrame(spread: nil)
        case .spread(let s): zoomFrame(spread: s)
        }
    }

    /// Sets the zoom scale and offset of `target` and clamps the offset.
    mutating func apply(scale: Double, offset: Point, to target: ScrollTarget) {
        switch target {
        case .document:
            zoomScale = scale
            contentOffset = documentOffsetBounds(scale: scale).clamp(offset)
        case .spread(let s):
            let clamped = spreadOffsetBounds(spread: s, scale: scale).clamp(offset)
            spreadZooms[s] = abs(scale - 1) < 1e-9 && clamped == .zero ? nil : SpreadZoom(scale: scale, offset: clamped)
        }
    }

    /// Zooms to `scale` (clamped to the configured range) keeping the content under the
    /// view point `focal` in place.
    public mutating func zoom(to scale: Double, about focal: Point) {
        userChanged()
        animation = nil
        let target = zoomTarget
        let frame = zoomFrame(for: target)
        guard let inverse = frame.contentToView.inverted() else { return }
        let p = inverse.apply(to: focal)
        let z = clampZoom(scale)
        apply(scale: z, offset: frame.offset(placing: p, at: focal, scale: z), to: target)
    }

    /// Starts a pinch with the fingers' centre at `focal` (view space).
    public mutating func beginPinch(focal: Point) {
        userChanged()
        animation = nil
        drag = nil
        let target = zoomTarget
        let frame = zoomFrame(for: target)
        let p = frame.contentToView.inverted()?.apply(to: focal) ?? .zero
        pinch = PinchState(target: target, startScale: frame.scale, contentPoint: p)
    }

    /// Follows a pinch: `scale` is relative to the start, `focal` the fingers' centre now.
    /// The content point that was under the fingers stays under them.
    public mutating func pinch(scale: Double, focal: Point) {
        if pinch == nil { beginPinch(focal: focal) }
        guard let pinch else { return }
        let z = clampZoom(pinch.startScale * scale)
        let frame = zoomFrame(for: pinch.target)
        apply(scale: z, offset: frame.offset(placing: pinch.contentPoint, at: focal, scale: z), to: pinch.target)
    }

    /// Ends a pinch.
    public mutating func endPinch() {
        pinch = nil
    }

    /// Zooms so that `rect` (content space) fills the viewport, centred on it.
    ///
    /// - Parameters:
    ///   - rect: The region to show, in content space.
    ///   - animated: Whether to animate the change.
    ///   - now: The clock's time, when animated.
    public mutating func zoom(toRect rect: Rect, animated: Bool = false, at now: Double = 0) {
        guard rect.width > 0, rect.height > 0 else { return }
        userChanged()
        let target = zoomTarget
        let frame = zoomFrame(for: target)
        let z = clampZoom(min(viewportSize.width / rect.width, viewportSize.height / rect.height))
        let offset = frame.offset(placing: rect.center, at: viewBounds.center, scale: z)
        if animated {
            var end = self
            end.apply(scale: z, offset: offset, to: target)
            startTransition(to: end.snapshot(of: target), target: target, duration: 0.3, curve: .easeInOut, at: now)
        } else {
            animation = nil
            apply(scale: z, offset: offset, to: target)
        }
    }
}
