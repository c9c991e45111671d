import Synchronization

/// Where the chrome's words come from, and which language it speaks: gettext's catalogs in the
/// kiosk (`GettextTranslator`, LecternRender); English as written until one is installed.
public protocol Translator: AnyObject, Sendable {
    /// The language the chrome speaks now, as the calling thread sees it (the kiosk's loop sets
    /// and reads it; a test's thread has its own, so tests in parallel do not share one).
    var language: Language { get set }
    /// `msgid` in `language`, or `msgid` itself when there is no translation.
    func text(_ msgid: String, in language: Language) -> String
    /// The form of the plural pair for `count` in `language`; without a translation, `singular`
    /// for 1 and `plural` otherwise.
    func text(_ singular: String, _ plural: String, count: Int, in language: Language) -> String
}

/// The chrome's words in the language in force. Every string the screen shows or the narrator
/// says goes through `tr` or `trn` with a literal msgid, so that `po/update` (xgettext) finds it
/// and the catalogs' tests can check that every catalog has it (po/README.md).
public enum Translation {
    private static let installed = Mutex<any Translator>(EnglishAsWritten())

    /// Where translations come from; set once at start.
    public static var translator: any Translator {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    /// The language the chrome speaks now (`Translator.language`): the kiosk sets it from the
    /// policy's default, the visitor's choice and the idle reset.
    public static var language: Language {
        get { translator.language }
        set { translator.language = newValue }
    }

    /// `msgid` in `language`, its placeholders filled with `arguments` (see `format`).
    public static func text(
        _ msgid: StaticString, in language: Language, _ arguments: [any CustomStringConvertible] = []
    ) -> String {
        let text = translator.text(msgid.description, in: language)
        return arguments.isEmpty ? text : format(text, arguments, in: language)
    }

    /// The form for `count` of `singular`/`plural` in `language`: `%s` (or `%1$s`) is the count.
    public static func text(
        _ singular: StaticString, _ plural: StaticString, count: Int, in language: Language,
        _ arguments: [any CustomStringConvertible] = []
    ) -> String {
        let text = translator.text(singular.description, plural.description, count: count, in: language)
        return format(text, [count] + arguments, in: language)
    }

    /// `format` with its placeholders filled: `%s` takes the next argument, `%1$s` the first (a
    /// translation may reorder them), `%%` is a percent sign. Whole numbers are written in
    /// `language`'s digits and grouping; anything else as its description.
    public static func format(
        _ format: String, _ arguments: [any CustomStringConvertible], in language: Language
    ) -> String {
        var result = ""
        var next = 0
        var scalars = format.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            var position: Int?
            var directive = scalars.next()
            while let digit = directive, ("0"..."9").contains(digit) {
                position = (position ?? 0) * 10 + Int(digit.value - 48)
                directive = scalars.next()
            }
            if position != nil, directive == "$" { directive = scalars.next() }
            switch directive {
            case "%": result += "%"
            case "s", "d":
                let index = position.map { $0 - 1 } ?? next
                next = index + 1
                guard arguments.indices.contains(index) else { continue }
                let argument = arguments[index]
                result += (argument as? Int).map(language.number) ?? argument.description
            default: result += "%"
            }
        }
        return result
    }
}

/// `msgid` in the chrome's language, its `%s` filled with `arguments` (numbers in its digits).
/// The one way a string reaches the screen or the narrator: `msgid` must be a literal.
public func tr(_ msgid: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    Translation.text(msgid, in: Translation.language, arguments)
}

/// `msgid` in `language` rather than the chrome's (what a layout made for a language writes).
public func tr(_ msgid: StaticString, in language: Language, _ arguments: any CustomStringConvertible...) -> String {
    Translation.text(msgid, in: language, arguments)
}

/// The form of `singular`/`plural` for `count` in the chrome's language; `%s` (or `%1$s`) is the
/// count, written in the language's digits, and the further ones `arguments`.
public func trn(
    _ singular: StaticString, _ plural: StaticString, count: Int, _ arguments: any CustomStringConvertible...
) -> String {
    Translation.text(singular, plural, count: count, in: Translation.language, arguments)
}

/// The msgids as they are: what the chrome says before a catalog is installed, and in tests of
/// parts that never install one.
final class EnglishAsWritten: Translator {
    private let chosen = Mutex(Language.english)
    var language: Language {
        get { chosen.withLock { $0 } }
        set { chosen.withLock { $0 = newValue } }
    }
    func text(_ msgid: String, in language: Language) -> String { msgid }
    func text(_ singular: String, _ plural: String, count: Int, in language: Language) -> String {
        count == 1 ? singular : plural
    }
}
