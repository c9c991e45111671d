/// The keys of the on-screen keyboard a kiosk types its search with, and where they sit along the
/// bottom of a screen: digits, three rows of letters (QWERTY), then a space bar and Done.
/// Accented letters are not needed: search ignores accents and case.
public struct OnScreenKeyboardLayout: Hashable, Sendable {
    /// What a key does.
    public enum Action: Hashable, Sendable {
        /// Types a character.
        case character(Character)
        case backspace
        /// Hides the keyboard (the query stays).
        case done
    }

    /// One key.
    public struct Key: Hashable, Sendable {
        public var action: Action
        /// What is written on it.
        public var label: String
        /// Where it is, in screen pixels.
        public var frame: Rect
    }

    /// The keyboard's area: the whole width, along the bottom.
    public let frame: Rect
    public let keys: [Key]

    static let rows = ["1234567890", "qwertyuiop", "asdfghjkl'", "zxcvbnm-.,"]
    /// A key's height on a screen whose millimetres are not known.
    public static let standardKeyHeight = 58.0
    /// A key's height here.
    let keyHeight: Double
    static let gap = 6.0
    static let padding = 10.0

    /// The keyboard for a screen `width` × `height`, with keys `keyHeight` high.
    public init(width: Double, height: Double, keyHeight: Double = Self.standardKeyHeight) {
        self.keyHeight = keyHeight
        let rowCount = Double(Self.rows.count + 1)
        let totalHeight = rowCount * keyHeight + (rowCount - 1) * Self.gap + 2 * Self.padding
        frame = Rect(x: 0, y: height - totalHeight, width: width, height: totalHeight)
        // Ten keys a row, at most 110 px wide each, centred.
        let keyWidth = min(110, (width - 2 * Self.padding - 10 * Self.gap) / 11)
        let pitch = keyWidth + Self.gap
        let rowWidth = 11 * pitch - Self.gap
        let left = (width - rowWidth) / 2
        var keys: [Key] = []
        for (index, row) in Self.rows.enumerated() {
            let y = frame.minY + Self.padding + Double(index) * (keyHeight + Self.gap)
            for (column, character) in row.enumerated() {
                let frame = Rect(x: left + Double(column) * pitch, y: y, width: keyWidth, height: keyHeight)
                keys.append(Key(action: .character(character), label: String(character), frame: frame))
            }
            if index == 0 {
                let frame = Rect(x: left + 10 * pitch, y: y, width: keyWidth, height: keyHeight)
                keys.append(Key(action: .backspace, label: "⌫", frame: frame))
            }
        }
        let y = frame.minY + Self.padding + Double(Self.rows.count) * (keyHeight + Self.gap)
        keys.append(
            Key(
                action: .character(" "), label: tr("space"),
                frame: Rect(x: left + 2 * pitch, y: y, width: 6 * pitch - Self.gap, height: keyHeight)))
        keys.append(
            Key(
                action: .done, label: tr("Done"),
                frame: Rect(x: left + 8 * pitch, y: y, width: 3 * pitch - Self.gap, height: keyHeight)))
        self.keys = keys
    }

    /// The index of the key under `point`, if any.
    public func key(at point: Point) -> Int? {
        keys.firstIndex { $0.frame.contains(point) }
    }
}
