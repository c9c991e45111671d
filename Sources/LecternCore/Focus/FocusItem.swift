/// One thing the keypad focus stops on: a paragraph, link, form field or figure of a page, or a button.
public struct FocusItem: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        /// A paragraph of the page's text (`ReadingBlock`).
        case text
        /// A link on the page.
        case link
        /// A form field (a widget).
        case field
        /// A figure of a tagged page (its /Alt is what is said).
        case figure
        /// An annotation a visitor may select (a note, a free-text box, a shape): Select selects
        /// it, and the keys then move it (`Annotations.handleSelected`).
        case annotation
        /// A button of the chrome or of an open overlay.
        case button
    }

    public var kind: Kind
    /// What is said when it gets the focus: the paragraph's text, "Link to page 3", "Search, button".
    public var label: String
    /// The page it is on (0-based); nil for a button.
    public var page: Int?
    /// Where it is: in the page's PDF user space when `page` is set, else in surface units.
    public var rect: Rect

    public init(kind: Kind, label: String, page: Int? = nil, rect: Rect) {
        self.kind = kind
        self.label = label
        self.page = page
        self.rect = rect
    }
}

/// The order the focus goes through a page: its paragraphs in reading order, and each link or
/// field where it falls in that order (after the paragraph it sits in; one on its own goes
/// where the reading order puts it among the paragraphs).
public enum FocusOrder {
    /// The items of `page`: `blocks` in reading order (`ReadingOrder.blocks`), and `extras`
    /// (links and fields, with their labels), all in page space.
    /// - Parameter toDisplay: page space to the page as displayed (y down), where order is found.
    public static func items(
        onPage page: Int, blocks: [ReadingBlock], extras: [FocusItem], toDisplay: AffineTransform = .identity
    ) -> [FocusItem] {
        let shownBlocks = blocks.map { toDisplay.apply(to: $0.rect) }
        let shownLines = blocks.map { $0.lines.map { toDisplay.apply(to: $0) } }
        // Each extra goes after the block at `slot` (-1: before the first).
        let placed = extras.map { extra -> (slot: Int, shown: Rect, item: FocusItem) in
            let shown = toDisplay.apply(to: extra.rect)
            return (slot(of: shown, blocks: shownBlocks, lines: shownLines), shown, extra)
        }
        var result: [FocusItem] = []
        result.reserveCapacity(blocks.count + extras.count)
        for slot in -1..<blocks.count {
            if slot >= 0 {
                result.append(FocusItem(kind: .text, label: blocks[slot].text, page: page, rect: blocks[slot].rect))
            }
            let here = placed.filter { $0.slot == slot }.sorted {
                ($0.shown.minY, $0.shown.minX) < ($1.shown.minY, $1.shown.minX)
            }
            result += here.map {
                var item = $0.item; item.page = page; return item
            }
        }
        return result
    }

    /// The block `shown` (displayed) follows: the one a line of which it overlaps, else the
    /// last block the reading order puts before it.
    private static func slot(of shown: Rect, blocks: [Rect], lines: [[Rect]]) -> Int {
        if let index = lines.firstIndex(where: { $0.contains { $0.intersects(shown) } }) { return index }
        let order = ReadingOrder.order(blocks + [shown])
        guard let position = order.firstIndex(of: blocks.count) else { return blocks.count - 1 }
        return order[..<position].max() ?? -1
    }
}

/// Where the focus is among a level's items: an index that wraps around at either end.
public struct FocusCursor: Equatable, Sendable {
    /// The focused item's index, nil before the first move.
    public private(set) var index: Int?

    public init(index: Int? = nil) { self.index = index }

    /// Moves `step` items on among `count` (wrapping at either end); the first move forward
    /// goes to the first item, the first move back to the last. Nothing when there is none.
    public mutating func move(by step: Int, count: Int) {
        guard count > 0 else { return index = nil }
        guard let index else { return self.index = step >= 0 ? 0 : count - 1 }
        self.index = ((index + step) % count + count) % count
    }

    /// Keeps the index inside `count` items (a list that shrank).
    public mutating func clamp(to count: Int) {
        guard let index else { return }
        self.index = count > 0 ? min(index, count - 1) : nil
    }

    /// The first item (after a page turn).
    public mutating func reset(toFirstOf count: Int) {
        index = count > 0 ? 0 : nil
    }
}
