/// What a key does under five-key navigation (the EZ Access model: a numeric keypad, the
/// arrow keys, or a switch interface): move the focus to the previous or next item, turn the
/// page, activate the focused item, go up a level, or say where the visitor is.
public enum KeypadCommand: String, Hashable, Sendable, CaseIterable {
    case previous, next, pageLeft, pageRight, select, back, help

    /// The command `key` gives under the standard key map (`KeypadKeyMap.standard`).
    public static func command(for key: Key, isFocusShown: Bool) -> KeypadCommand? {
        KeypadKeyMap.standard.command(for: key, isFocusShown: isFocusShown)
    }
}

/// Which keys give which command (the policy's `[keypad]`). A key the reader uses for itself
/// (arrows, Enter, Escape, Space, Page Up/Down, Home/End, +/−, Backspace, the main block's
/// digits, a key that types a character) navigates only while the focus shows; the others (the
/// keypad's digits, function keys, Help, `*`) always do, and so start the focus.
public struct KeypadKeyMap: Equatable, Sendable {
    public var keys: [KeypadCommand: [Key]]

    public init(keys: [KeypadCommand: [Key]]) { self.keys = keys }

    /// 8/2 previous/next, 4/6 page left/right, 5 select, 0 back, `*` help; the arrows, Enter and
    /// Escape too. (F1 and Help start the narrator, which says where the visitor is.)
    public static let standard = KeypadKeyMap(keys: [
        .previous: [.keypad(8), .up], .next: [.keypad(2), .down], .pageLeft: [.keypad(4), .left],
        .pageRight: [.keypad(6), .right], .select: [.keypad(5), .enter], .back: [.keypad(0), .escape],
        .help: [.other(0x2A), .other(0xFFAA)],
    ])

    /// The command `key` gives (nil: none, or a reader's key while the focus is off).
    public func command(for key: Key, isFocusShown: Bool) -> KeypadCommand? {
        guard isFocusShown || !Self.isReaderKey(key) else { return nil }
        return KeypadCommand.allCases.first { keys[$0]?.contains(key) == true }
    }

    /// Whether the reader uses `key` when the focus is off (see the type's comment). `*` is
    /// the help key, not a character.
    public static func isReaderKey(_ key: Key) -> Bool {
        switch key {
        case .keypad: false
        case .other(let keysym): keysym < 0x100 && keysym != 0x2A
        default: true
        }
    }

    /// The keys with names of their own (the others: KP_0…KP_9, F1…F12, 0…9, a…z). Built once:
    /// the policy's keypad settings name their keys at every start.
    private static let named: [String: Key] = [
        "Up": .up, "Down": .down, "Left": .left, "Right": .right, "Return": .enter, "KP_Enter": .enter,
        "Escape": .escape, "space": .space, "BackSpace": .backspace, "Page_Up": .pageUp, "Page_Down": .pageDown,
        "Home": .home, "End": .end, "Tab": .other(0xFF09), "Help": .other(0xFF6A), "asterisk": .other(0x2A),
        "KP_Multiply": .other(0xFFAA), "XF86AudioRaiseVolume": .other(0x1008_FF13),
        "XF86AudioLowerVolume": .other(0x1008_FF11), "XF86AudioMute": .other(0x1008_FF12),
        "KP_Decimal": .other(0xFFAE), "KP_Delete": .other(0xFF9F),
    ]

    /// The key an xkb keysym name stands for (the names the policy's `[keypad]` takes): KP_0 to
    /// KP_9, 0 to 9, a to z, Up, Down, Left, Right, Return, KP_Enter, Escape, space, BackSpace,
    /// Tab, Page_Up, Page_Down, Home, End, F1 to F12, Help, asterisk, KP_Multiply, KP_Decimal,
    /// KP_Delete, and the
    /// volume keys XF86AudioRaiseVolume, XF86AudioLowerVolume, XF86AudioMute.
    public static func key(named name: String) -> Key? {
        if let key = named[name] { return key }
        if name.hasPrefix("KP_"), name.count == 4, let digit = Int(name.dropFirst(3)) { return .keypad(digit) }
        if name.hasPrefix("F"), let number = Int(name.dropFirst()), (1...12).contains(number) {
            return .other(0xFFBE + UInt32(number - 1))
        }
        guard name.count == 1, let scalar = name.unicodeScalars.first else { return nil }
        if let digit = Int(name) { return .digit(digit) }
        return ("a"..."z").contains(scalar) ? .other(scalar.value) : nil
    }
}
