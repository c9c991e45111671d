import LecternCore

/// A command line read without swift-argument-parser, when it is one that parser would read
/// without complaint: `--version` alone, or a FILE and options spelled `--name value` or
/// `--name=value` whose values pass the checks. Anything else (help, an error, an unusual
/// spelling) is `.other`, and swift-argument-parser handles it as it always did.
///
/// Why: swift-argument-parser learns a command's options by reflection (a `Mirror` of the
/// command, casts to its property-wrapper protocols, generic metadata for each option type):
/// about 50 first-time protocol-conformance lookups, each one a scan of every conformance
/// record in the binary, 10 M instructions and some 3 ms of each start before the reader could
/// begin. `FastCommandLineTests` parses generated command lines both ways and checks that this
/// path never reads one differently.
enum FastCommandLine: Equatable {
    /// `lectern --version`.
    case version
    /// Run the reader with these options.
    case launch(LaunchOptions)
    /// `lectern ctl …`: the control socket's client (`Ctl`), with the arguments after `ctl`.
    case control([String])
    /// `lectern audit …`: the document audit (`Audit`), with the arguments after `audit`.
    case audit([String])
    /// Not for the short path: give it to swift-argument-parser.
    case other

    /// - Parameter arguments: the command line without the program's name.
    init(_ arguments: [String]) {
        self = Self.parse(arguments)
    }

    private static func parse(_ arguments: [String]) -> FastCommandLine {
        if arguments == ["--version"] { return .version }
        if arguments.first == "ctl" { return .control(Array(arguments.dropFirst())) }
        if arguments.first == "audit" { return .audit(Array(arguments.dropFirst())) }
        var options = LaunchOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            // Empty arguments, `-`, `--` and short options are left to the parser.
            guard !argument.isEmpty else { return .other }
            guard argument.hasPrefix("--") else {
                guard !argument.hasPrefix("-") else { return .other }
                options.files.append(argument)
                continue
            }
            let name: Substring
            let value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = argument[argument.index(argument.startIndex, offsetBy: 2)..<equals]
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument.dropFirst(2)
                value = remaining.popFirst()
            }
            // A value that looks like an option is a "missing value" error to the parser. An
            // option given twice takes its last value, there as here.
            guard let value, !value.isEmpty, !value.hasPrefix("-"), options.set(name, to: value) else { return .other }
        }
        guard (try? options.validate()) != nil else { return .other }
        return .launch(options)
    }
}

extension LaunchOptions {
    /// Sets the option `--name` from `value` as swift-argument-parser would (`Int(_:)`,
    /// `init(rawValue:)`); false for an unknown name or a value that does not convert.
    fileprivate mutating func set(_ name: Substring, to value: String) -> Bool {
        switch name {
        case "password": password = value
        case "frame-dump": frameDump = value
        case "config": config = value
        case "check-config": checkConfig = value
        case "cache-mb":
            cacheMegabytes = Int(value)
            return cacheMegabytes != nil
        case "font-size": return set(\.fontSize, Int(value))
        case "spreads": return set(\.spreads, SpreadOption(rawValue: value))
        case "scroll": return set(\.scroll, ScrollOption(rawValue: value))
        case "direction": return set(\.direction, DirectionOption(rawValue: value))
        case "binding": return set(\.binding, BindingOption(rawValue: value))
        case "transition": return set(\.transition, TransitionOption(rawValue: value))
        case "contrast": return set(\.contrast, Contrast.Mode(rawValue: value))
        case "large-print": return set(\.largePrint, SwitchOption(rawValue: value))
        case "mirror": return set(\.mirror, MirrorOption(rawValue: value))
        case "language": return set(\.language, LanguageOption(rawValue: value))
        case "render-process": return set(\.renderProcess, RenderProcessOption(rawValue: value))
        case "render-deadline": return set(\.renderDeadline, Double(value))
        case "speech-output": speechOutput = value
        case "page": return set(\.page, Int(value))
        case "idle-reset": return set(\.idleReset, Int(value))
        default: return false
        }
        return true
    }

    /// Stores `value` at `option` unless it is nil (a value that did not convert).
    private mutating func set<Value>(_ option: WritableKeyPath<LaunchOptions, Value?>, _ value: Value?) -> Bool {
        guard let value else { return false }
        self[keyPath: option] = value
        return true
    }
}
