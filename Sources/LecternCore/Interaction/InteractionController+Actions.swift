/// What the components find under a point and do, and the default actions integrators call.
extension InteractionController {
    /// The link under `viewPoint` (its page and target) when the host has one there.
    func linkContext(at viewPoint: Point) -> LinkInteractionContext? {
        guard let host else { return nil }
        let view = host.documentView
        guard view.layout.spreadCount > 0, view.viewBounds.contains(viewPoint), let page = view.page(at: viewPoint)
        else { return nil }
        let pagePoint = view.convert(viewPoint, from: .view, to: .page(page))
        return host.link(at: pagePoint, onPage: page).map { LinkInteractionContext(page: page, target: $0) }
    }

    func performOpenLink(_ context: LinkInteractionContext) {
        guard let host else { return }
        host.documentView.stopAnimations()
        host.follow(context.target)
    }

    func fastScrollContext(at viewPoint: Point) -> FastScrollContext? {
        guard let view = host?.documentView, view.layout.spreadCount > 0, !isZoomedIn(view) else { return nil }
        let zone = view.viewportSize.width * min(max(configuration.fastScrollEdgeFraction, 0), 0.5)
        let inLeft = viewPoint.x < zone
        let inRight = viewPoint.x > view.viewportSize.width - zone
        guard inLeft || inRight, viewPoint.y >= 0, viewPoint.y <= view.viewportSize.height else { return nil }
        // Right-edge binding reads right to left: the left zone leads on.
        let forward = inRight != view.configuration.pageBinding.isRightToLeft
        let target = view.destinationSpread + (forward ? 1 : -1)
        guard target >= 0, target < view.layout.spreadCount else { return nil }
        return FastScrollContext(direction: forward ? .next : .previous, targetSpread: target)
    }

    func performFastScroll(_ context: FastScrollContext) {
        host?.documentView.turn(toSpread: context.targetSpread, at: now)
    }

    /// Smart zoom: zoomed in, zoom back out to fit (scale 1, the point under the finger
    /// staying where the bounds allow); otherwise zoom to the smallest text block under the
    /// finger with `smartZoomMargin`, or, with no block there (or one that would not zoom in
    /// by 10 %), to `smartZoomFallbackScale` about the finger.
    func smartZoomContext(at viewPoint: Point) -> SmartZoomContext? {
        guard let host else { return nil }
        let view = host.documentView
        guard view.layout.spreadCount > 0, view.viewBounds.contains(viewPoint) else { return nil }
        let page = view.page(at: viewPoint)
        let contentPoint = view.convert(viewPoint, from: .view, to: .content)
        let viewport = view.viewportSize
        let current = view.currentZoomScale
        if isZoomedIn(view) {
            let rect = Rect(origin: contentPoint - viewPoint, size: viewport)
            return SmartZoomContext(
                targetRect: view.convert(rect, from: .content, to: .view), page: page, zoomsOut: true)
        }
        if let page {
            let pagePoint = view.convert(viewPoint, from: .view, to: .page(page))
            let blocks = host.textBlocks(onPage: page).filter { !$0.isEmpty && $0.contains(pagePoint) }
            if let block = blocks.min(by: { $0.area < $1.area }) {
                let padded = block.inset(by: EdgeInsets(all: -configuration.smartZoomMargin))
                let rect = view.pageToContent(page: page).apply(to: padded)
                let scale = min(
                    min(viewport.width / rect.width, viewport.height / rect.height),
                    view.configuration.maximumZoomScale)
                if scale >= current * 1.1 {
                    return SmartZoomContext(
                        targetRect: view.convert(rect, from: .content, to: .view), page: page, zoomsOut: false)
                }
            }
        }
        let scale = max(configuration.smartZoomFallbackScale, 1)
        let size = viewport * (1 / scale)
        let centre = contentPoint - (viewPoint - view.viewBounds.center) * (1 / scale)
        let rect = Rect(
            x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width, height: size.height)
        return SmartZoomContext(targetRect: view.convert(rect, from: .content, to: .view), page: page, zoomsOut: false)
    }

    func performSmartZoom(_ context: SmartZoomContext) {
        guard let host else { return }
        let rect = host.documentView.convert(context.targetRect, from: .view, to: .content)
        host.documentView.zoom(toRect: rect, animated: true, at: now)
    }

    // MARK: Default actions for integrators

    /// Selects the annotation at `point`; returns whether it did.
    @discardableResult
    public func tryToSelectAnnotation(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(selectAnnotation, at: point, in: space)
    }

    /// Deselects the selected annotation (`point` away from it); returns whether it did.
    @discardableResult
    public func tryToDeselectAnnotation(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(deselectAnnotation, at: point, in: space)
    }

    /// Takes over the drag in progress (a finger's on the selection, through another recognizer
    /// of the integrator's): the selection follows it from `point`. Returns false, doing nothing,
    /// when no drag is in progress or `point` is not on the selection's body or a handle (or it
    /// is locked or read-only). To move it without a drag: `tryToTransformAnnotation(from:to:in:)`.
    @discardableResult
    public func tryToTransformAnnotation(at point: Point, in space: CoordinateSpace) -> Bool {
        guard let pan = transformAnnotation.gestureRecognizers.first as? PanGestureRecognizer, pan.state.isActive
        else { return false }
        return tryDefault(transformAnnotation, at: point, in: space)
    }

    /// Moves or resizes the selected annotation as a drag from `start` to `end` would (its body
    /// moves it, a handle resizes it, kept inside the page) and commits it at once (the host's
    /// `setRect`). Returns whether it changed: false when nothing is selected, `start` is not on
    /// it or a handle, it is locked or read-only, or it would not move.
    @discardableResult
    public func tryToTransformAnnotation(from start: Point, to end: Point, in space: CoordinateSpace) -> Bool {
        guard let host, let from = convert(start, from: space, to: .view),
            let to = convert(end, from: space, to: .view),
            let context = transformAnnotationContext(at: from, recognizer: nil)
        else { return false }
        let rect = transformedRect(AnnotationDrag(context: context, start: from), to: to)
        guard rect != context.annotation.rect else { return false }
        host.annotationSelection?.annotation.rect = rect
        host.setRect(rect, of: context.annotation, onPage: context.page)
        return true
    }

    /// Edits the annotation at `point` (a form field, free-text box or note): the host's
    /// keyboard, picker or toggle; returns whether it did.
    @discardableResult
    public func tryToEditAnnotation(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(editAnnotation, at: point, in: space)
    }

    /// Opens the link at `point` (an internal link goes to its page; what a web link does is
    /// the host's `follow(_:)`); returns whether there was a link to open.
    @discardableResult
    public func tryToOpenLinkAnnotation(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(openLinkAnnotation, at: point, in: space)
    }

    /// Selects the word at `point`; returns whether there was a word there.
    @discardableResult
    public func tryToSelectText(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(selectText, at: point, in: space)
    }

    /// Clears the text selection (unless `point` is on it or a handle); returns whether it did.
    @discardableResult
    public func tryToDeselectText(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(deselectText, at: point, in: space)
    }

    /// Turns the spread if `point` is in an edge zone; returns whether it did.
    @discardableResult
    public func tryToFastScroll(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(fastScroll, at: point, in: space)
    }

    /// Zooms in on the text block at `point`, or back out; returns whether it did.
    @discardableResult
    public func tryToSmartZoom(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(smartZoom, at: point, in: space)
    }

    /// Toggles the chrome; returns whether it did.
    @discardableResult
    public func tryToToggleUserInterface(at point: Point, in space: CoordinateSpace) -> Bool {
        tryDefault(toggleUserInterface, at: point, in: space)
    }

    /// A component's default behaviour, ignoring `isEnabled`, conditions and callbacks
    /// (for an integrator reimplementing the component with its own recognizer).
    private func tryDefault<C>(_ component: InteractionComponent<C>, at point: Point, in space: CoordinateSpace) -> Bool
    {
        guard let viewPoint = convert(point, from: space, to: .view) else { return false }
        return component.performDefault(atView: viewPoint)
    }
}
