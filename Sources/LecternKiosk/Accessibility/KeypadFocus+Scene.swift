import LecternCore
import LecternRender

extension KeypadFocus {
    /// The ring for the next frame (nil: none), around the focused item where `plan` puts its
    /// page (it follows the page as the view moves), or around the button (`reader` and `plan`
    /// are nil on the shelf).
    func ring(for reader: Reader?, plan: TilePlanner.Plan?, scale: DisplayScale) -> Scene.FocusRing? {
        focusFirstItemIfRead()
        followLargePrint()
        lastRing = placedRing(for: reader, plan: plan, scale: scale)
        return lastRing
    }

    private func placedRing(for reader: Reader?, plan: TilePlanner.Plan?, scale: DisplayScale) -> Scene.FocusRing? {
        guard isShown, let focused else { return nil }
        let band = max(3, scale.pixels(3))
        guard let page = focused.page else {
            return Scene.FocusRing(box: scale.enclosingPixels(PixelBox(enclosing: focused.rect)), band: band)
        }
        guard let reader, let item = plan?.pages.first(where: { $0.page == page }) else { return nil }
        let box = PixelBox(enclosing: reader.pageToPixels(item).apply(to: focused.rect)).insetBy(dx: -2, dy: -2)
        return Scene.FocusRing(box: box, band: band)
    }

    /// What `KioskStatus.focus` reports.
    var status: KioskStatus.KeypadFocus {
        KioskStatus.KeypadFocus(
            isShown: isShown, level: level.rawValue, kind: focused?.kind.rawValue, label: focused?.label,
            page: focused?.page, rect: focused?.rect, ring: lastRing?.box, lastSpoken: lastSpoken)
    }
}

extension KioskStatus {
    /// Five-key navigation's focus.
    public struct KeypadFocus: Equatable, Sendable {
        /// Whether the ring shows (a keypad key was pressed since the last touch).
        public var isShown = false
        /// "page", "search", "outline", "grid", "editing", "shelf".
        public var level = "page"
        /// "text", "link", "field", "figure", "button"; nil: nothing focused.
        public var kind: String?
        /// What is said for it (a paragraph's text, "Link to page 2: …", "Search").
        public var label: String?
        /// Its page (0-based), nil for a button.
        public var page: Int?
        /// Where it is: PDF user space of `page`, or surface units for a button.
        public var rect: Rect?
        /// The box the last frame's ring went around, in buffer pixels (the ring is outside it).
        public var ring: PixelBox?
        /// The last thing speech was asked to say.
        public var lastSpoken: String?
    }
}
