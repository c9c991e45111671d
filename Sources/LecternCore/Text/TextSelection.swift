/// A place in the document's text: a character of a page, in the page's reading order.
public struct TextPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The page index.
    public var page: Int
    /// The character's index in the page's `PageCharacters`.
    public var index: Int

    /// Creates a position.
    public init(page: Int, index: Int) {
        self.page = page
        self.index = index
    }

    public static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.page, lhs.index) < (rhs.page, rhs.index)
    }

    public var description: String { "\(page):\(index)" }
}

/// Selected text: the characters from `start` through `end` in reading order, possibly over
/// several pages (continuous layout).
public struct TextSelection: Hashable, Sendable {
    /// The first selected character.
    public private(set) var start: TextPosition
    /// The last selected character (inclusive).
    public private(set) var end: TextPosition

    /// The selection between two positions, in either order.
    public init(_ a: TextPosition, _ b: TextPosition) {
        start = min(a, b)
        end = max(a, b)
    }

    /// The pages it spans.
    public var pages: ClosedRange<Int> { start.page...end.page }

    /// The selected characters of `page`, given its character count; nil when none.
    public func range(onPage page: Int, count: Int) -> ClosedRange<Int>? {
        guard pages.contains(page), count > 0 else { return nil }
        let lower = page == start.page ? start.index : 0
        let upper = page == end.page ? min(end.index, count - 1) : count - 1
        return lower <= upper ? lower...upper : nil
    }

    /// The selected text, pages joined by a line feed (a page whose characters are not known
    /// adds nothing).
    public func text(_ characters: (Int) -> PageCharacters?) -> String {
        var parts: [String] = []
        for page in pages {
            guard let text = characters(page), let range = range(onPage: page, count: text.count) else { continue }
            parts.append(text.text(in: range))
        }
        return parts.joined(separator: "\n")
    }

    /// Moves one end to `position` (the other stays): dragging a handle past the other end
    /// swaps them. `movingEnd` says which end was dragged; returns which end `position` is now.
    @discardableResult
    public mutating func move(_ movingEnd: TextSelectionHandle, to position: TextPosition) -> TextSelectionHandle {
        let fixed = movingEnd == .start ? end : start
        self = TextSelection(fixed, position)
        return position < fixed ? .start : (position > fixed ? .end : movingEnd)
    }

    /// Where `handle` is drawn, in page space of its page: the bottom of its character at the
    /// edge where the selection begins (start) or ends (end) in reading order: the left edge of
    /// a left-to-right start, the right edge of a right-to-left one.
    public func anchor(of handle: TextSelectionHandle, in characters: PageCharacters) -> Point? {
        let position = handle == .start ? start : end
        guard characters.characters.indices.contains(position.index) else { return nil }
        let character = characters.characters[position.index]
        let leftEdge = (handle == .start) != character.isRightToLeft
        return Point(x: leftEdge ? character.rect.minX : character.rect.maxX, y: character.rect.minY)
    }
}

/// The two ends of a text selection, each with a handle the visitor drags.
public enum TextSelectionHandle: Hashable, Sendable {
    case start, end

    /// The knob's side, in view units: small, so that it hides little of the next line.
    public static let knobSide = 18.0
    /// How far the knob hangs below the text, in view units (the stem's length).
    public static let stemLength = 6.0
    /// The side of the square a finger may touch to take the handle, in view units: 44, the
    /// smallest touch target the platform guides ask for (9 mm once the screen's size is known).
    public static let touchTarget = 44.0

    /// The knob of the handle whose text ends at `anchor` (the bottom of the last character's
    /// line, in view units): beside the stem, outside the selection (left of the start, right
    /// of the end), below the text.
    public func knob(anchor: Point) -> Rect {
        let side = Self.knobSide
        return Rect(
            x: self == .start ? anchor.x - side : anchor.x, y: anchor.y + Self.stemLength, width: side, height: side)
    }

    /// The square around the knob a finger may touch to take the handle.
    public func touchArea(anchor: Point) -> Rect {
        let knob = knob(anchor: anchor)
        let side = Self.touchTarget
        return Rect(x: knob.midX - side / 2, y: knob.midY - side / 2, width: side, height: side)
    }
}
