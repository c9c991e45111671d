import LecternCore

extension Annotations {
    /// How far a key moves a selected annotation, or grows or shrinks it, in page points.
    static let keyStep = 4.0

    /// The keys' way to what a drag does to the selected annotation (EN 301 549 5.5.2: no
    /// gesture without another way): while one is selected and nothing is typed into it, the
    /// arrows and the keypad's 8, 2, 4 and 6 move it a step the way they point on screen, + and
    /// − grow or shrink it by a step at its right and bottom, and Enter, 5, Escape or 0 put it
    /// down (it is deselected). Only where a drag could (`canTransform`: the policy's and an
    /// integrator's conditions on `transformAnnotation`, not locked or read-only): other keys,
    /// and every key for a selection that cannot move, go on. Each change is saved as a drag's
    /// would be. Returns whether `key` was taken.
    func handleSelected(_ key: Key, canTransform: (AnnotationSelection) -> Bool) -> Bool {
        // Only a selection a drag could move: a field selected to be filled leaves the keys alone.
        guard editing == nil, let selected = selection, let reader = current.reader, canTransform(selected) else {
            return false
        }
        let step = Self.keyStep
        let move: (dx: Double, dy: Double)?
        let grow: Double?
        switch key {
        case .up, .keypad(8): (move, grow) = ((0, -step), nil)
        case .down, .keypad(2): (move, grow) = ((0, step), nil)
        case .left, .keypad(4): (move, grow) = ((-step, 0), nil)
        case .right, .keypad(6): (move, grow) = ((step, 0), nil)
        case .plus: (move, grow) = (nil, step)
        case .minus: (move, grow) = (nil, -step)
        case .enter, .keypad(5), .escape, .keypad(0):
            selection = nil
            frame.request()
            return true
        default:
            return false
        }
        let geometry = reader.view.pages[selected.page]
        guard let toPage = geometry.pageToDisplay.inverted() else { return true }
        let rect = selected.annotation.rect
        let display = geometry.pageToDisplay.apply(to: rect)
        var moved = display
        if let move { moved = moved.offsetBy(Point(x: move.dx, y: move.dy)) }
        if let grow {
            let least = InteractionController.minimumAnnotationSize
            moved = Rect(
                x: moved.minX, y: moved.minY, width: max(least, moved.width + grow),
                height: max(least, moved.height + grow))
        }
        // Inside the page's crop box, as a drag keeps it.
        let bounds = geometry.pageToDisplay.apply(to: geometry.cropBox)
        guard moved.width <= bounds.width, moved.height <= bounds.height else { return true }
        moved = moved.offsetBy(
            Point(
                x: min(max(0, bounds.minX - moved.minX), bounds.maxX - moved.maxX),
                y: min(max(0, bounds.minY - moved.minY), bounds.maxY - moved.maxY)))
        let new = toPage.apply(to: moved)
        guard new != rect else { return true }
        selection?.annotation.rect = new
        setRect(new, of: selected.annotation, onPage: selected.page)
        frame.request()
        return true
    }
}
