/// The annotation components' preconditions and actions: a tap selects the annotation under
/// it (its frame and handles are the host's to draw), a tap elsewhere deselects, a drag on
/// the selection moves it or, from a handle, resizes it (kept inside the page; the host
/// commits it when the finger lifts), and a tap on a form field (a double tap on a free-text
/// box or note) edits it.
extension InteractionController {
    /// How far from a corner of the selection, in view pixels, a finger grabs its handle.
    static let annotationHandleReach = 28.0
    /// The smallest an annotation is resized to, in page points.
    public static let minimumAnnotationSize = 8.0

    /// A drag of the selection in progress.
    struct AnnotationDrag {
        var context: AnnotationInteractionContext
        /// Where the finger went down (view space).
        var start: Point
    }

    // MARK: Hit testing

    /// The page under `viewPoint` and the point there in page space.
    private func pagePoint(at viewPoint: Point) -> (page: Int, point: Point)? {
        guard let view = host?.documentView, view.layout.spreadCount > 0, view.viewBounds.contains(viewPoint),
            let page = view.page(at: viewPoint)
        else { return nil }
        return (page, view.convert(viewPoint, from: .view, to: .page(page)))
    }

    /// The topmost annotation under `viewPoint` that takes touches: the smallest one there (a
    /// field inside a larger note wins), the later one of two the same size.
    func annotation(at viewPoint: Point) -> (page: Int, annotation: AnnotationInfo)? {
        guard let host, let (page, point) = pagePoint(at: viewPoint) else { return nil }
        let hits = host.annotations(onPage: page).filter { $0.isInteractive && $0.rect.contains(point) }
        guard let best = hits.reversed().min(by: { $0.rect.area < $1.rect.area }) else { return nil }
        return (page, best)
    }

    /// The selection's handle (or body) under `viewPoint`, if any.
    private func selectionHandle(at viewPoint: Point) -> AnnotationHandle? {
        guard let view = host?.documentView, let selection = host?.annotationSelection else { return nil }
        let rect = selection.rect
        for handle in AnnotationHandle.allCases where handle != .body {
            let corner = view.convert(handle.corner(of: rect), from: .page(selection.page), to: .view)
            if corner.distance(to: viewPoint) <= Self.annotationHandleReach { return handle }
        }
        let frame = view.convert(rect, from: .page(selection.page), to: .view)
        return frame.contains(viewPoint) ? .body : nil
    }

    // MARK: Preconditions

    /// A tap on an annotation other than the selected one.
    func selectAnnotationContext(at viewPoint: Point) -> AnnotationInteractionContext? {
        guard let (page, annotation) = annotation(at: viewPoint) else { return nil }
        if let selection = host?.annotationSelection, selection.page == page,
            selection.annotation.objectNumber == annotation.objectNumber
        {
            return nil
        }
        return AnnotationInteractionContext(page: page, annotation: annotation)
    }

    /// A tap away from the selection (its frame and handles), while there is one.
    func deselectAnnotationContext(at viewPoint: Point) -> AnnotationInteractionContext? {
        guard let selection = host?.annotationSelection, selectionHandle(at: viewPoint) == nil else { return nil }
        return AnnotationInteractionContext(page: selection.page, annotation: selection.annotation)
    }

    /// A drag that starts on the selection's body or a handle, unless it is locked or read-only.
    func transformAnnotationContext(
        at viewPoint: Point, recognizer: GestureRecognizer?
    ) -> AnnotationInteractionContext? {
        // A pan begins once the finger has moved: what it grabbed is where it went down.
        var start = viewPoint
        if let pan = recognizer as? PanGestureRecognizer { start = pan.location - pan.translation }
        guard let selection = host?.annotationSelection, !selection.annotation.isLocked,
            !selection.annotation.isReadOnly, let handle = selectionHandle(at: start)
        else { return nil }
        return AnnotationInteractionContext(page: selection.page, annotation: selection.annotation, handle: handle)
    }

    /// A single tap on a fillable form field, or a double tap on a free-text box or note; from
    /// `tryToEditAnnotation` (no recognizer) either.
    func editAnnotationContext(at viewPoint: Point, recognizer: GestureRecognizer?) -> AnnotationInteractionContext? {
        guard let (page, annotation) = annotation(at: viewPoint), !annotation.isReadOnly else { return nil }
        let taps = (recognizer as? TapGestureRecognizer)?.numberOfTaps
        let fillable = annotation.fieldType.map { ![.pushButton, .signature, .unknown].contains($0) } ?? false
        let editable = (fillable && taps != 2) || (annotation.isTextAnnotation && taps != 1)
        return editable ? AnnotationInteractionContext(page: page, annotation: annotation) : nil
    }

    // MARK: Actions

    func performSelectAnnotation(_ context: AnnotationInteractionContext) {
        host?.annotationSelection = AnnotationSelection(page: context.page, annotation: context.annotation)
    }

    func performDeselectAnnotation() {
        host?.annotationSelection = nil
    }

    func performEditAnnotation(_ context: AnnotationInteractionContext) {
        guard let host else { return }
        host.annotationSelection = AnnotationSelection(page: context.page, annotation: context.annotation)
        host.edit(context.annotation, onPage: context.page)
    }

    /// The pan began on the selection: follow it (`transformActed`). From `tryToTransform…`
    /// (no pan) there is nothing to follow.
    func performTransformAnnotation(_ context: AnnotationInteractionContext, at viewPoint: Point) {
        guard let pan = transformAnnotation.gestureRecognizers.first as? PanGestureRecognizer, pan.state.isActive
        else { return }
        annotationDrag = AnnotationDrag(context: context, start: pan.location - pan.translation)
    }

    /// The transform's pan moved or ended: the preview follows the finger; the lift commits.
    func transformActed(_ recognizer: GestureRecognizer) {
        guard let drag = annotationDrag, let host, let pan = recognizer as? PanGestureRecognizer else { return }
        switch pan.state {
        case .began, .changed:
            host.annotationSelection?.preview = transformedRect(drag, to: pan.location)
        case .ended:
            annotationDrag = nil
            let rect = transformedRect(drag, to: pan.location)
            host.annotationSelection?.preview = nil
            guard rect != drag.context.annotation.rect else { return }
            host.annotationSelection?.annotation.rect = rect
            host.setRect(rect, of: drag.context.annotation, onPage: drag.context.page)
        default:
            annotationDrag = nil
            host.annotationSelection?.preview = nil
        }
    }

    /// Where the drag puts the annotation with the finger at `viewPoint`: moved or resized by
    /// the finger's travel in page space, kept inside the page's crop box.
    func transformedRect(_ drag: AnnotationDrag, to viewPoint: Point) -> Rect {
        guard let view = host?.documentView else { return drag.context.annotation.rect }
        let page = drag.context.page
        let space = CoordinateSpace.page(page)
        let delta = view.convert(viewPoint, from: .view, to: space) - view.convert(drag.start, from: .view, to: space)
        let rect = drag.context.annotation.rect
        let bounds = view.pages[page].cropBox
        guard drag.context.handle != .body else {
            let x = min(max(rect.minX + delta.x, bounds.minX), max(bounds.minX, bounds.maxX - rect.width))
            let y = min(max(rect.minY + delta.y, bounds.minY), max(bounds.minY, bounds.maxY - rect.height))
            return Rect(x: x, y: y, width: rect.width, height: rect.height)
        }
        let handle = drag.context.handle
        let fixed = handle.opposite.corner(of: rect)
        var moved = handle.corner(of: rect) + delta
        moved.x = min(max(moved.x, bounds.minX), bounds.maxX)
        moved.y = min(max(moved.y, bounds.minY), bounds.maxY)
        // The dragged corner stays on its side of the fixed one, at least the minimum apart.
        let least = Self.minimumAnnotationSize
        let growsRight = handle.corner(of: rect).x >= fixed.x
        let growsUp = handle.corner(of: rect).y >= fixed.y
        moved.x = growsRight ? max(moved.x, fixed.x + least) : min(moved.x, fixed.x - least)
        moved.y = growsUp ? max(moved.y, fixed.y + least) : min(moved.y, fixed.y - least)
        return Rect(corner: fixed, corner: moved).intersection(bounds) ?? rect
    }
}

extension AnnotationHandle {
    /// The corner of `rect` (page space) the handle sits on; the centre for the body.
    public func corner(of rect: Rect) -> Point {
        switch self {
        case .body: rect.center
        case .topLeft: Point(x: rect.minX, y: rect.maxY)
        case .topRight: Point(x: rect.maxX, y: rect.maxY)
        case .bottomLeft: Point(x: rect.minX, y: rect.minY)
        case .bottomRight: Point(x: rect.maxX, y: rect.minY)
        }
    }

    /// The corner across the rectangle, which stays put while this one is dragged.
    var opposite: AnnotationHandle {
        switch self {
        case .body: .body
        case .topLeft: .bottomRight
        case .topRight: .bottomLeft
        case .bottomLeft: .topRight
        case .bottomRight: .topLeft
        }
    }
}
