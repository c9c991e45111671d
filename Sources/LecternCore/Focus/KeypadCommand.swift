/// What a key does under five-key navigation (the EZ Access model: a numeric keypad, the
/// arrow keys, or a switch interface): move the focus to the previous or next item, turn the
/// page, activate the focused item, go up a level, or say where the visitor is.
public enum KeypadCommand: String, Hashable, Sendable, CaseIterable {
    case previous, next, pageLeft, pageRight, select, back, help

    /// The keysyms that ask for help: `*` (main block and keypad). F1 and Help start the narrator,
    /// which says where the visitor is.
    public static let helpKeysyms: Set<UInt32> = [0x2A, 0xFFAA]

    /// The command `key` gives. The keypad's keys (8, 2, 4, 6, 5, 0) and `*` always
    /// navigate, and so start the focus; the arrows, Enter and Escape navigate only while the
    /// focus shows (else they keep their meaning: arrows turn or scroll, Enter and Escape
    /// belong to typed page numbers and the back button).
    public static func command(for key: Key, isFocusShown: Bool) -> KeypadCommand? {
        switch key {
        case .keypad(8): .previous
        case .keypad(2): .next
        case .keypad(4): .pageLeft
        case .keypad(6): .pageRight
        case .keypad(5): .select
        case .keypad(0): .back
        case .other(let keysym) where helpKeysyms.contains(keysym): .help
        case .up where isFocusShown: .previous
        case .down where isFocusShown: .next
        case .left where isFocusShown: .pageLeft
        case .right where isFocusShown: .pageRight
        case .enter where isFocusShown: .select
        case .escape where isFocusShown: .back
        default: nil
        }
    }
}
