/// What the controller remembers about the text selection.
struct TextSelectionState {
    /// The selection, if any.
    var selection: TextSelection?
    /// The handle a finger drags, if any.
    var dragging: TextSelectionHandle?
}

/// Text selection: `selectText` (a long press selects the word under the finger),
/// `deselectText` (a tap away from the selection clears it), and the two handles a visitor
/// drags to extend or shrink the selection by character, across lines and, in continuous
/// layout, across pages. The characters come from the host (`InteractionHost.pageCharacters`).
extension InteractionController {
    /// How far from a handle's anchor a finger still grabs it, in view pixels.
    static let handleReach = 36.0

    /// The selected text's extent, if any.
    public var textSelection: TextSelection? { textSelectionState.selection }

    /// The selected text, if any (pages the host has no characters for add nothing).
    public var selectedText: String? {
        guard let selection = textSelectionState.selection, let host else { return nil }
        return selection.text { host.pageCharacters(onPage: $0) }
    }

    /// Clears the selection without a gesture (idle reset, a new document); tells the host.
    public func clearTextSelection() {
        guard textSelectionState.selection != nil else { return }
        setTextSelection(nil)
    }

    /// Sets the selection (nil clears it) and tells the host.
    public func setTextSelection(_ selection: TextSelection?) {
        textSelectionState.selection = selection
        if selection == nil { textSelectionState.dragging = nil }
        host?.textSelectionDidChange(selection, isSettled: textSelectionState.dragging == nil)
    }

    /// Wires the handle drag: it goes before the document pan, which waits for it to fail
    /// (it fails at once unless the finger came down on a handle).
    func wireTextSelection() {
        // Only a finger that came down on a handle: any other fails at once (selectText's gate
        // then decides with its conditions, and its action grabs the handle).
        textHandlePan.shouldBegin = { [weak self] pan in
            guard let self, let start = pan.touches.values.first?.startLocation else { return false }
            return handle(near: start) != nil
        }
        textHandlePan.addAction { [weak self] in self?.handlePanActed($0) }
        panRecognizer.require(toFail: textHandlePan)
        arena.add(textHandlePan)
    }

    /// The handle whose anchor is within `handleReach` of `viewPoint`, or whose knob's touch
    /// target holds it, if any (the nearer anchor when both are).
    func handle(near viewPoint: Point) -> TextSelectionHandle? {
        guard let host, let selection = textSelectionState.selection else { return nil }
        var best: (TextSelectionHandle, Double)?
        for handle in [TextSelectionHandle.start, .end] {
            let page = handle == .start ? selection.start.page : selection.end.page
            guard let characters = host.pageCharacters(onPage: page),
                let anchor = selection.anchor(of: handle, in: characters)
            else { continue }
            let viewAnchor = host.documentView.convert(anchor, from: .page(page), to: .view)
            let distance = viewAnchor.distance(to: viewPoint)
            let reaches = distance <= Self.handleReach || handle.touchArea(anchor: viewAnchor).contains(viewPoint)
            if reaches, best == nil || distance < best!.1 { best = (handle, distance) }
        }
        return best?.0
    }

    private func handlePanActed(_ pan: GestureRecognizer) {
        switch pan.state {
        case .began, .changed:
            guard let dragging = textSelectionState.dragging, var selection = textSelectionState.selection,
                let position = textPosition(nearView: pan.location)
            else { return }
            textSelectionState.dragging = selection.move(dragging, to: position)
            if selection != textSelectionState.selection { setTextSelection(selection) }
        default:
            guard textSelectionState.dragging != nil else { return }
            textSelectionState.dragging = nil
            host?.textSelectionDidChange(textSelectionState.selection, isSettled: true)
        }
    }

    /// The character nearest a view point: on the page under it, else on the nearest visible
    /// page with characters.
    func textPosition(nearView viewPoint: Point) -> TextPosition? {
        guard let host else { return nil }
        let view = host.documentView
        var candidates: [Int] = []
        if let page = view.page(at: viewPoint) { candidates.append(page) }
        let visible = view.visibleLayout().flatMap(\.pages).sorted {
            $0.visibleRect.distanceSquared(to: viewPoint) < $1.visibleRect.distanceSquared(to: viewPoint)
        }
        candidates += visible.map(\.page)
        for page in candidates {
            guard let characters = host.pageCharacters(onPage: page), !characters.isEmpty else { continue }
            let pagePoint = view.convert(viewPoint, from: .view, to: .page(page))
            if let index = characters.nearestIndex(to: pagePoint) { return TextPosition(page: page, index: index) }
        }
        return nil
    }

    // MARK: The components

    /// selectText's precondition: a character under the finger on a page whose characters
    /// the host knows.
    func selectTextContext(at viewPoint: Point) -> TextInteractionContext? {
        guard let host else { return nil }
        let view = host.documentView
        guard view.layout.spreadCount > 0, view.viewBounds.contains(viewPoint), let page = view.page(at: viewPoint),
            let characters = host.pageCharacters(onPage: page)
        else { return nil }
        let pagePoint = view.convert(viewPoint, from: .view, to: .page(page))
        guard let index = characters.index(at: pagePoint), !characters.characters[index].isSpace else { return nil }
        let word = characters.wordRange(around: index)
        return TextInteractionContext(
            page: page, characterIndex: index, wordRange: word, word: characters.text(in: word))
    }

    /// selectText's precondition for its handle pan: the handle under the finger where it came
    /// down, on the selection's page.
    func handleDragContext(_ pan: PanGestureRecognizer) -> TextInteractionContext? {
        guard let start = pan.touches.values.first?.startLocation, let selection = textSelectionState.selection,
            let handle = handle(near: start)
        else { return nil }
        let position = handle == .start ? selection.start : selection.end
        return TextInteractionContext(
            page: position.page, characterIndex: position.index, wordRange: nil, word: "", handle: handle)
    }

    func performSelectText(_ context: TextInteractionContext) {
        if let handle = context.handle {
            // The handle pan began: its drag moves that end (`handlePanActed`).
            textSelectionState.dragging = handle
            return
        }
        guard let page = context.page, let word = context.wordRange else { return }
        textSelectionState.dragging = nil  // a long press is a new selection, settled at once
        setTextSelection(
            TextSelection(
                TextPosition(page: page, index: word.lowerBound), TextPosition(page: page, index: word.upperBound)))
    }

    /// deselectText's precondition: a selection, and a tap that is not on a handle or a
    /// selected character.
    func deselectTextContext(at viewPoint: Point) -> TextInteractionContext? {
        guard let host, let selection = textSelectionState.selection, handle(near: viewPoint) == nil else { return nil }
        let view = host.documentView
        let page = view.page(at: viewPoint)
        var index: Int?
        if let page, let characters = host.pageCharacters(onPage: page) {
            index = characters.index(at: view.convert(viewPoint, from: .view, to: .page(page)))
            if let index, let range = selection.range(onPage: page, count: characters.count), range.contains(index) {
                return nil
            }
        }
        return TextInteractionContext(page: page, characterIndex: index, wordRange: nil, word: "")
    }

    func performDeselectText(_ context: TextInteractionContext) {
        clearTextSelection()
    }
}

extension Rect {
    /// The squared distance from `point` to the rectangle (0 inside).
    func distanceSquared(to point: Point) -> Double {
        let dx = max(minX - point.x, 0, point.x - maxX)
        let dy = max(minY - point.y, 0, point.y - maxY)
        return dx * dx + dy * dy
    }
}
