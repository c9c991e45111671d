/// A language the chrome speaks: its code, its own name (what the language button shows: flags
/// are not languages), its direction and how it writes numbers.
public struct Language: Hashable, Sendable, CustomStringConvertible {
    /// The ISO 639-1 code, as the policy, `--language` and the catalogs (kiosk/po/CODE.po) name it.
    public let code: String
    /// The language's name in the language itself ("Deutsch", "العربية").
    public let name: String
    /// The chrome is laid out right to left (the pages follow their own binding).
    public let isRightToLeft: Bool
    /// The digit zero of the language's digits (the others follow it in Unicode).
    let zero: Unicode.Scalar
    /// Between groups of three digits, and the fewest digits a number has before it is grouped.
    let groupSeparator: String
    let groupingFrom: Int

    public var description: String { code }

    public static let english = Language(
        code: "en", name: "English", isRightToLeft: false, zero: "0", groupSeparator: ",", groupingFrom: 4)
    public static let german = Language(
        code: "de", name: "Deutsch", isRightToLeft: false, zero: "0", groupSeparator: ".", groupingFrom: 4)
    /// French groups with a narrow no-break space.
    public static let french = Language(
        code: "fr", name: "Français", isRightToLeft: false, zero: "0", groupSeparator: "\u{202F}", groupingFrom: 4)
    /// Spanish leaves four digits whole ("1234", "12.345").
    public static let spanish = Language(
        code: "es", name: "Español", isRightToLeft: false, zero: "0", groupSeparator: ".", groupingFrom: 5)
    /// Arabic writes Arabic-Indic digits (٠–٩) with the Arabic thousands separator, as CLDR's `ar`.
    public static let arabic = Language(
        code: "ar", name: "العربية", isRightToLeft: true, zero: "\u{0660}", groupSeparator: "\u{066C}",
        groupingFrom: 4)
    public static let hebrew = Language(
        code: "he", name: "עברית", isRightToLeft: true, zero: "0", groupSeparator: ",", groupingFrom: 4)

    /// The languages whose catalogs ship (kiosk/po/LINGUAS), English first: it is the default.
    public static let shipped: [Language] = [.english, .german, .french, .spanish, .arabic, .hebrew]

    /// The shipped language with this code, or nil.
    public static func named(_ code: String) -> Language? { shipped.first { $0.code == code } }

    /// `number` in this language's digits, grouped by thousands ("1.234" in German, "١٢" in Arabic).
    public func number(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            let remaining = digits.count - index
            if index > 0, digits.count >= groupingFrom, remaining % 3 == 0 { grouped += groupSeparator }
            grouped.unicodeScalars.append(localDigit(digit.unicodeScalars.first!))
        }
        return number < 0 ? "-" + grouped : grouped
    }

    /// A page's label with its ASCII digits in this language's digits ("12" is "١٢" in Arabic;
    /// "iv" and "A-3" keep their letters).
    public func label(_ label: String) -> String {
        guard zero != "0" else { return label }
        var result = String.UnicodeScalarView()
        for scalar in label.unicodeScalars { result.append(localDigit(scalar)) }
        return String(result)
    }

    private func localDigit(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard ("0"..."9").contains(scalar) else { return scalar }
        return Unicode.Scalar(zero.value + scalar.value - 48) ?? scalar
    }
}
