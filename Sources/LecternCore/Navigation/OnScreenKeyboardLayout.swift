/// The keys of the on-screen keyboard a kiosk types its search with, and where they sit along the
/// bottom of a screen: digits, three rows of letters in the chrome language's layout (QWERTY,
/// QWERTZ with ü ö ä ß, AZERTY, Spanish with ñ, Arabic, Hebrew), then a space bar and Done.
/// Other accented letters are not needed: search ignores accents and case. For a right-to-left
/// language the function keys are mirrored (backspace and Done at the left); the letters keep
/// their places, as on that language's keyboards.
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

    /// The rows of `language`'s keyboard: digits, then three rows of at most eleven letters.
    static func rows(for language: Language) -> [String] {
        let letters =
            switch language.code {
            case "de": ["qwertzuiopü", "asdfghjklöä", "yxcvbnmß-.,"]
            case "fr": ["azertyuiop", "qsdfghjklm", "wxcvbn'-.,"]
            case "es": ["qwertyuiop", "asdfghjklñ", "zxcvbnm-.,"]
            case "ar": ["ضصثقفغعهخحج", "شسيبلاتنمكط", "ئءؤرىةوزظذد"]
            case "he": ["קראטוןםפ", "שדגכעיחלךף", "זסבהנמצתץ"]
            default: ["qwertyuiop", "asdfghjkl'", "zxcvbnm-.,"]
            }
        return ["1234567890"] + letters
    }
    /// A key's height on a screen whose millimetres are not known.
    public static let standardKeyHeight = 58.0
    /// A key's height here.
    let keyHeight: Double
    static let gap = 6.0
    static let padding = 10.0

    /// The keyboard for a screen `width` × `height`, with keys `keyHeight` high, in `language`'s
    /// layout and labels.
    public init(
        width: Double, height: Double, keyHeight: Double = Self.standardKeyHeight, language: Language = .english
    ) {
        self.keyHeight = keyHeight
        let rows = Self.rows(for: language)
        let rowCount = Double(rows.count + 1)
        let totalHeight = rowCount * keyHeight + (rowCount - 1) * Self.gap + 2 * Self.padding
        frame = Rect(x: 0, y: height - totalHeight, width: width, height: totalHeight)
        // Ten keys a row, at most 110 px wide each, centred.
        let keyWidth = min(110, (width - 2 * Self.padding - 10 * Self.gap) / 11)
        let pitch = keyWidth + Self.gap
        let rowWidth = 11 * pitch - Self.gap
        let left = (width - rowWidth) / 2
        // A right-to-left language's function keys from the right: columns counted from there.
        let mirrors = language.isRightToLeft
        func x(_ column: Double, span: Double = 1) -> Double {
            mirrors ? left + rowWidth - (column + span) * pitch + Self.gap : left + column * pitch
        }
        var keys: [Key] = []
        for (index, row) in rows.enumerated() {
            let y = frame.minY + Self.padding + Double(index) * (keyHeight + Self.gap)
            for (column, character) in row.enumerated() {
                // Letters keep their places; the digits move over for the backspace in the mirror.
                let place = index == 0 && mirrors ? Double(column + 1) : Double(column)
                let frame = Rect(x: left + place * pitch, y: y, width: keyWidth, height: keyHeight)
                keys.append(Key(action: .character(character), label: String(character), frame: frame))
            }
            if index == 0 {
                let frame = Rect(x: x(10), y: y, width: keyWidth, height: keyHeight)
                keys.append(Key(action: .backspace, label: mirrors ? "⌦" : "⌫", frame: frame))
            }
        }
        let y = frame.minY + Self.padding + Double(rows.count) * (keyHeight + Self.gap)
        keys.append(
            Key(
                action: .character(" "), label: tr("space", in: language),
                frame: Rect(x: x(2, span: 6), y: y, width: 6 * pitch - Self.gap, height: keyHeight)))
        keys.append(
            Key(
                action: .done, label: tr("Done", in: language),
                frame: Rect(x: x(8, span: 3), y: y, width: 3 * pitch - Self.gap, height: keyHeight)))
        self.keys = keys
    }

    /// The index of the key under `point`, if any.
    public func key(at point: Point) -> Int? {
        keys.firstIndex { $0.frame.contains(point) }
    }
}
