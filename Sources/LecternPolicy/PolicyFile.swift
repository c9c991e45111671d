import Glibc
import LecternCore
import LecternLinux
import TOMLKit

/// The operator's policy file (TOML, parsed by TOMLKit): every key, its type and its checks,
/// and how it sets the configuration (the table `PolicyKeys`, below, built from the declarations
/// of `PolicySettings`: a new key is one `let` there and the code that reads it). The file is
/// read over the launch configuration, and the command line's settings
/// (`KioskConfiguration.overrides`, by the same keys) go on top.
///
/// `kiosk/lectern.toml` is the commented example; `lectern --check-config PATH` prints the
/// problems `load(path:over:)` finds.
public enum PolicyFile {
    /// The path Lectern reads when `--config` is not given (if the file exists).
    public static let defaultPath = "/etc/lectern/lectern.toml"

    /// Reads `path` over `base` and applies `base.overrides` on top.
    public static func load(path: String, over base: KioskConfiguration) throws(PolicyError) -> KioskConfiguration {
        guard let text = readFile(path) else {
            throw PolicyError(problems: [.init(path: path, message: "cannot read the file: \(errnoText(errno))")])
        }
        return try parse(text, path: path, over: base)
    }

    /// Parses `text` (the contents of `path`) over `base`, then applies `base.overrides`.
    public static func parse(
        _ text: String, path: String, over base: KioskConfiguration
    ) throws(PolicyError) -> KioskConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw PolicyError(problems: [
                .init(path: path, line: error.source.begin.line, message: "not valid TOML: \(error.description)")
            ])
        } catch {
            throw PolicyError(problems: [.init(path: path, message: "not valid TOML: \(error)")])
        }
        let lines = TOMLKeyLines(text)
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var configuration = base
        var problems: [PolicyError.Problem] = []
        // `[[shelf]]`: an array of tables, read apart from the keys (which are flat values).
        if let value = table["shelf"] {
            switch shelfEntries(value, in: directory) {
            case .success(let entries): configuration.shelfEntries = entries
            case .failure(let failure):
                problems.append(
                    .init(path: path, line: lines.line(of: "shelf"), key: "shelf", message: failure.message))
            }
        }
        for (key, value) in flatten(table) where key != "shelf" {
            let line = lines.line(of: key)
            guard let spec = PolicyKeys.byName[key] ?? PolicyKeys.showKey(key) else {
                problems.append(.init(path: path, line: line, key: key, message: unknownKeyMessage(key)))
                continue
            }
            if let message = spec.apply(&configuration, resolvingPaths(value, in: directory, for: spec)) {
                problems.append(.init(path: path, line: line, key: key, message: message))
            }
        }
        for (key, value) in base.overrides.sorted(by: { $0.key < $1.key }) {
            guard let spec = PolicyKeys.byName[key], let message = spec.apply(&configuration, value) else { continue }
            problems.append(.init(path: "command line", key: key, message: message))
        }
        if !configuration.shelfEntries.isEmpty {
            if table.contains(key: "document") || table.contains(key: "documents") {
                problems.append(
                    .init(
                        path: path, line: lines.line(of: "shelf"), key: "shelf",
                        message: "[[shelf]] names the documents: leave out document and documents"))
            }
            let paths = configuration.shelfEntries.map { $0.path(in: configuration.language, fallback: "en") }
            configuration.documentPath = paths[0]
            configuration.shelfPaths = paths.count > 1 ? paths : []
        }
        if problems.isEmpty {
            for (key, message) in PolicyKeys.hoursProblems(in: configuration) {
                problems.append(.init(path: path, line: lines.line(of: key), key: key, message: message))
            }
        }
        guard problems.isEmpty else {
            throw PolicyError(problems: problems.sorted { ($0.line ?? Int.max) < ($1.line ?? Int.max) })
        }
        return configuration
    }

    /// `[[shelf]]`'s entries: each `document = PATH` or `documents = { CODE = PATH, … }` (the
    /// languages `Language.shipped` has), and a `title`; paths relative to the file's directory,
    /// and there.
    private static func shelfEntries(
        _ value: TOMLValueConvertible, in directory: String
    ) -> Result<[ShelfEntry], Failure> {
        guard let items = value.array.map({ Array($0) }), !items.isEmpty else {
            return .failure(Failure("needs one or more [[shelf]] tables"))
        }
        var entries: [ShelfEntry] = []
        for (number, item) in items.enumerated() {
            let which = "[[shelf]] \(number + 1)"
            guard let table = item.table else { return .failure(Failure("\(which) is not a table")) }
            var entry = ShelfEntry(versions: [:])
            for key in table.keys.sorted() {
                let value = table[key]!
                switch key {
                case "title":
                    guard let title = value.string else { return .failure(Failure("\(which): title needs a string")) }
                    entry.title = title
                case "document":
                    guard let path = value.string else { return .failure(Failure("\(which): document needs a path")) }
                    entry.versions[""] = path
                case "documents":
                    guard let versions = value.table else {
                        return .failure(Failure("\(which): documents needs a table of a path per language code"))
                    }
                    for code in versions.keys.sorted() {
                        guard Language.named(code) != nil else {
                            let shipped = Language.shipped.map(\.code).joined(separator: ", ")
                            return .failure(
                                Failure("\(which): \"\(code)\" is not a language Lectern ships (\(shipped))"))
                        }
                        guard let path = versions[code]!.string else {
                            return .failure(Failure("\(which): documents.\(code) needs a path"))
                        }
                        entry.versions[code] = path
                    }
                default:
                    let keys = shelfKeys.joined(separator: ", ")
                    return .failure(Failure("\(which): unknown key \(key) (\(keys))"))
                }
            }
            guard !entry.versions.isEmpty else { return .failure(Failure("\(which) names no document")) }
            for (code, path) in entry.versions {
                let resolved = resolve(path, in: directory)
                guard access(resolved, F_OK) == 0 else { return .failure(Failure("no such document: \(resolved)")) }
                entry.versions[code] = resolved
            }
            entries.append(entry)
        }
        return .success(entries)
    }

    /// The keys of a `[[shelf]]` table.
    public static let shelfKeys = ["title", "document", "documents"]

    /// Why `[[shelf]]` cannot be read.
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The file's keys as dotted paths with their values, tables walked into, in key order.
    private static func flatten(_ table: TOMLTable, prefix: String = "") -> [(String, PolicyValue)] {
        var result: [(String, PolicyValue)] = []
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            let name = prefix.isEmpty ? key : prefix + "." + key
            if let inner = value.table {
                result += flatten(inner, prefix: name)
            } else {
                result.append((name, policyValue(value)))
            }
        }
        return result
    }

    private static func policyValue(_ value: TOMLValueConvertible) -> PolicyValue {
        switch value.type {
        case .string: return .string(value.string ?? "")
        case .int: return .integer(value.int ?? 0)
        case .double: return .number(value.double ?? 0)
        case .bool: return .boolean(value.bool ?? false)
        case .array:
            let items = value.array.map { Array($0) } ?? []
            let strings = items.compactMap(\.string)
            return strings.count == items.count ? .strings(strings) : .other(typeName: "a list of other than strings")
        default: return .other(typeName: "a \(value.type)")
        }
    }

    /// `path` as the file means it: relative to the file's directory unless absolute (or empty).
    private static func resolve(_ path: String, in directory: String) -> String {
        path.isEmpty || path.hasPrefix("/") ? path : directory + "/" + path
    }

    /// Document paths in the file are relative to the file's directory.
    private static func resolvingPaths(
        _ value: PolicyValue, in directory: String, for spec: PolicyKeys.Key
    )
        -> PolicyValue
    {
        func resolve(_ path: String) -> String { Self.resolve(path, in: directory) }
        guard spec.isPath else { return value }
        switch value {
        case .string(let path): return .string(resolve(path))
        case .strings(let paths): return .strings(paths.map(resolve))
        default: return value
        }
    }

    private static func unknownKeyMessage(_ key: String) -> String {
        let section = key.split(separator: ".").dropLast().joined(separator: ".")
        if key.hasPrefix("hours.show.") {
            return section.split(separator: ".").count == 3
                ? "unknown key (known here: \(PolicyKeys.showKeys.joined(separator: ", ")))"
                : "unknown key (a show is a table [hours.show.NAME] of \(PolicyKeys.showKeys.joined(separator: ", ")))"
        }
        let known = PolicyKeys.all.map(\.name).filter {
            $0.split(separator: ".").dropLast().joined(separator: ".") == section
        }
        return known.isEmpty
            ? "unknown key"
            : "unknown key (known here: \(known.map { $0.split(separator: ".").last! }.joined(separator: ", ")))"
    }

    /// The whole file, or nil (errno set) when it cannot be read.
    public static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "re") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[0..<count]
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Every key of the policy file, what it takes and what it sets: the settings declared in
/// `PolicySettings` (found there by reflection), and the rows below for the keys that set more
/// than one thing. A key's `apply` returns the problem with its value, or nil. The command
/// line's options set the same keys (`KioskConfiguration.overrides`).
public enum PolicyKeys {
    /// One key.
    struct Key: Sendable {
        let name: String
        /// A file path: relative ones are relative to the policy file.
        var isPath = false
        let apply: @Sendable (inout KioskConfiguration, PolicyValue) -> String?
    }

    /// The names of every key (for `--check-config` and tests).
    public static var names: [String] { all.map(\.name) }

    /// The interaction components `components.NAME = false` can turn off
    /// (`KioskConfiguration.enables(_:)`).
    public static let components = [
        "selectAnnotation", "deselectAnnotation", "transformAnnotation", "editAnnotation", "openLinkAnnotation",
        "selectText", "deselectText", "fastScroll", "smartZoom", "toggleUserInterface", "keyCommand", "wheelScroll",
        "chromeButton", "thumbnail", "scrubber", "pinchToGrid",
    ]

    /// Every declaration of `PolicySettings`, in their order.
    static let settings: [any AnyPolicySetting] = Mirror(reflecting: PolicySettings.standard).children.compactMap {
        $0.value as? any AnyPolicySetting
    }

    static let all: [Key] =
        [
            Key(name: "document", isPath: true) { c, v in
                guard case .string(let path) = v else { return "needs a string, not \(v.typeName)" }
                guard access(path, F_OK) == 0 else { return "no such document: \(path)" }
                c.documentPath = path
                c.shelfPaths = []  // one document: the command line's FILE over the file's shelf
                return nil
            },
            Key(name: "documents", isPath: true) { c, v in
                guard case .strings(let paths) = v, !paths.isEmpty else {
                    return "needs a list of one or more paths, not \(v.typeName)"
                }
                if let missing = paths.first(where: { access($0, F_OK) != 0 }) { return "no such document: \(missing)" }
                c.documentPath = paths[0]
                c.shelfPaths = paths.count > 1 ? paths : []
                return nil
            },
        ]
        + (settings + components.map { PolicySetting.boolean("components.\($0)", default: true) }).map { setting in
            Key(name: setting.name, isPath: setting.isPath) { c, v in setting.apply(v, to: &c) }
        }

    static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
