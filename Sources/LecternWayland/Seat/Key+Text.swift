import CXKBCommon
import LecternCore

extension Key {
    /// The character the key types under the keymap and modifiers it was resolved with (a
    /// letter, digit, punctuation, a space), or nil for keys that type nothing (Enter, arrows,
    /// Escape, function keys). Corresponding C function: `xkb_keysym_to_utf32`.
    public var character: Character? {
        switch self {
        case .digit(let digit), .keypad(let digit): return Character(String(digit))
        case .space: return " "
        case .plus: return "+"
        case .minus: return "-"
        case .other(let keysym):
            let value = xkb_keysym_to_utf32(keysym)
            // Control characters (Tab, Delete…) type nothing here.
            guard value >= 0x20, value != 0x7F, let scalar = Unicode.Scalar(value) else { return nil }
            return Character(scalar)
        default: return nil
        }
    }
}
