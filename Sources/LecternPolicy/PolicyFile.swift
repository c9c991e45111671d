import Glibc
import LecternCore
import LecternLinux
import TOMLKit

/// The operator's policy file (TOML, parsed by TOMLKit): every key, its type and its checks,
/// and how it sets the configuration (the table `PolicyKeys`, below: a new key is one row there
/// and the field it fills). The file is read over the launch configuration, and the command
/// line's settings (`KioskConfiguration.overrides`, by the same keys) go on top.
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
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var configuration = base
        var problems: [PolicyError.Problem] = []
        for (key, value) in flatten(table) {
            let line = lines.line(of: key)
            guard let spec = PolicyKeys.byName[key] else {
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
        guard problems.isEmpty else {
            throw PolicyError(problems: problems.sorted { ($0.line ?? Int.max) < ($1.line ?? Int.max) })
        }
        return configuration
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

    /// Document paths in the file are relative to the file's directory.
    private static func resolvingPaths(
        _ value: PolicyValue, in directory: String, for spec: PolicyKeys.Key
    )
        -> PolicyValue
    {
        func resolve(_ path: String) -> String {
            path.isEmpty || path.hasPrefix("/") ? path : directory + "/" + path
        }
        guard spec.isPath else { return value }
        switch value {
        case .string(let path): return .string(resolve(path))
        case .strings(let paths): return .strings(paths.map(resolve))
        default: return value
        }
    }

    private static func unknownKeyMessage(_ key: String) -> String {
        let section = key.split(separator: ".").dropLast().joined(separator: ".")
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

/// Every key of the policy file, what it takes and what it sets. A key's `apply` returns the
/// problem with its value, or nil. The command line's options set the same keys
/// (`KioskConfiguration.overrides`).
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

    /// The interaction components `components.NAME = false` can turn off.
    public static let components = [
        "selectAnnotation", "deselectAnnotation", "transformAnnotation", "editAnnotation", "openLinkAnnotation",
        "selectText", "deselectText", "fastScroll", "smartZoom", "toggleUserInterface",
    ]

    static let all: [Key] =
        [
            Key(name: "document", isPath: true) { c, v in
                string(v) { path in
                    guard access(path, F_OK) == 0 else { return "no such document: \(path)" }
                    c.documentPath = path
                    c.shelfPaths = []  // one document: the command line's FILE over the file's shelf
                    return nil
                }
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
            Key(name: "password") { c, v in string(v) { c.password = $0.isEmpty ? nil : $0 } },
            Key(name: "frame-dump", isPath: true) { c, v in string(v) { c.frameDumpPath = $0.isEmpty ? nil : $0 } },
            Key(name: "cache-mb") { c, v in integer(v, 1...4096) { c.cacheBudget = $0 << 20 } },
            Key(name: "render.process") { c, v in
                choice(v, ["on": true, "off": false]) { c.renderProcess.isEnabled = $0 }
            },
            Key(name: "render.deadline") { c, v in number(v, 0.1...600) { c.renderProcess.deadline = $0 } },
            Key(name: "render.address-space-mb") { c, v in
                integer(v, 256...1_048_576) { c.renderProcess.addressSpace = $0 << 20 }
            },
            Key(name: "layout.spreads") { c, v in
                choice(v, ["single": SpreadMode.single, "double": .double, "cover": .cover]) { c.spreadMode = $0 }
            },
            Key(name: "layout.scroll") { c, v in
                choice(v, ["per-spread": ViewConfiguration.ScrollMode.perSpread, "continuous": .continuous]) {
                    c.scrollMode = $0
                }
            },
            Key(name: "layout.direction") { c, v in
                choice(v, ["horizontal": Axis.horizontal, "vertical": .vertical]) { c.scrollDirection = $0 }
            },
            Key(name: "layout.binding") { c, v in
                choice(v, ["auto": PageBinding?.none, "left": .leftEdge, "right": .rightEdge]) { c.pageBinding = $0 }
            },
            Key(name: "layout.margin") { c, v in integer(v, 0...200) { c.pageMargin = $0 } },
            Key(name: "start.page") { c, v in integer(v, 1...Int(Int32.max)) { c.startPage = $0 - 1 } },
            Key(name: "chrome.show") { c, v in
                choice(v, Dictionary(uniqueKeysWithValues: KioskPolicy.ChromeMode.allCases.map { ($0.rawValue, $0) })) {
                    c.policy.chrome = $0
                }
            },
            Key(name: "mirror") { c, v in
                choice(v, Dictionary(uniqueKeysWithValues: KioskPolicy.MirrorMode.allCases.map { ($0.rawValue, $0) })) {
                    c.policy.mirror = $0
                }
            },
            Key(name: "zoom.max") { c, v in number(v, 1...64) { c.policy.maximumZoom = $0 } },
            Key(name: "zoom.double-tap") { c, v in boolean(v) { c.policy.doubleTapZoom = $0 } },
            Key(name: "page-turn.edge-width") { c, v in number(v, 0...0.5) { c.policy.edgeWidth = $0 } },
            Key(name: "page-turn.transition") { c, v in
                choice(v, Dictionary(uniqueKeysWithValues: PageTurnTransition.allCases.map { ($0.rawValue, $0) })) {
                    c.transition = $0
                }
            },
            Key(name: "links.follow") { c, v in
                choice(v, Dictionary(uniqueKeysWithValues: KioskPolicy.LinkMode.allCases.map { ($0.rawValue, $0) })) {
                    c.policy.links = $0
                }
            },
            Key(name: "links.allow") { c, v in
                guard case .strings(let patterns) = v else { return "needs a list of strings, not \(v.typeName)" }
                c.policy.allowedLinks = patterns
                return nil
            },
            Key(name: "idle.reset") { c, v in integer(v, 0...86_400) { c.idleResetSeconds = $0 } },
            Key(name: "idle.countdown") { c, v in integer(v, 0...600) { c.policy.idleCountdownSeconds = $0 } },
            Key(name: "idle.notice") { c, v in string(v) { c.policy.idleNotice = $0 } },
            Key(name: "qr.seconds") { c, v in integer(v, 1...3600) { c.policy.qrSeconds = $0 } },
            Key(name: "attract.after") { c, v in integer(v, 0...86_400) { c.policy.attractAfterSeconds = $0 } },
            Key(name: "attract.interval") { c, v in number(v, 1...3600) { c.policy.attractPageSeconds = $0 } },
            Key(name: "attract.transition") { c, v in
                choice(v, ["fade": PageTransition.Style.fade, "push": .push, "none": .replace]) {
                    c.policy.attractTransition.style = $0
                }
            },
            Key(name: "attract.transition-seconds") { c, v in
                number(v, 0.1...10) { c.policy.attractTransition.duration = $0 }
            },
            Key(name: "reload.documents") { c, v in boolean(v) { c.policy.reloadsDocuments = $0 } },
            Key(name: "state.persist") { c, v in boolean(v) { c.operations.persistsState = $0 } },
            Key(name: "control.socket", isPath: true) { c, v in
                string(v) { c.operations.controlSocket = $0.isEmpty ? .off : .path($0) }
            },
            Key(name: "control.group") { c, v in
                string(v) { name in
                    guard name.isEmpty || groupID(named: name) != nil else { return "no such group: \(name)" }
                    c.operations.controlGroup = name.isEmpty ? nil : name
                    return nil
                }
            },
            Key(name: "control.documents", isPath: true) { c, v in
                string(v) { c.operations.openDirectory = $0.isEmpty ? nil : $0 }
            },
            Key(name: "control.screenshots", isPath: true) { c, v in
                string(v) { c.operations.screenshotDirectory = $0.isEmpty ? nil : $0 }
            },
            Key(name: "metrics.textfile", isPath: true) { c, v in
                string(v) { c.operations.metricsTextfile = $0.isEmpty ? nil : $0 }
            },
            Key(name: "annotations.select") { c, v in kinds(v) { c.policy.annotations.select = $0 } },
            Key(name: "annotations.move") { c, v in kinds(v) { c.policy.annotations.move = $0 } },
            Key(name: "annotations.edit") { c, v in kinds(v) { c.policy.annotations.edit = $0 } },
            Key(name: "annotations.exclude-authors") { c, v in
                guard case .strings(let names) = v else { return "needs a list of strings, not \(v.typeName)" }
                c.policy.annotations.excludedAuthors = names
                return nil
            },
            Key(name: "annotations.ignore-locked") { c, v in boolean(v) { c.policy.annotations.ignoresLocked = $0 } },
            Key(name: "annotations.save") { c, v in
                choice(v, Dictionary(uniqueKeysWithValues: AnnotationRules.SaveMode.allCases.map { ($0.rawValue, $0) }))
                {
                    c.policy.annotations.save = $0
                }
            },
            Key(name: "annotations.save-directory", isPath: true) { c, v in
                string(v) { c.policy.annotations.saveDirectory = $0.isEmpty ? nil : $0 }
            },
        ]
        + components.map { name in
            Key(name: "components.\(name)") { c, v in
                boolean(v) { enabled in
                    if enabled {
                        c.policy.disabledComponents.remove(name)
                    } else {
                        c.policy.disabledComponents.insert(name)
                    }
                }
            }
        }

    static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    // MARK: Value checks

    private static func string(_ value: PolicyValue, _ set: (String) -> String?) -> String? {
        guard case .string(let text) = value else { return "needs a string, not \(value.typeName)" }
        return set(text)
    }

    private static func string(_ value: PolicyValue, _ set: (String) -> Void) -> String? {
        string(value) { (text: String) -> String? in
            set(text)
            return nil
        }
    }

    private static func integer(_ value: PolicyValue, _ range: ClosedRange<Int>, _ set: (Int) -> Void) -> String? {
        guard case .integer(let number) = value else { return "needs a whole number, not \(value.typeName)" }
        guard range.contains(number) else {
            return "must be between \(range.lowerBound) and \(range.upperBound), not \(number)"
        }
        set(number)
        return nil
    }

    private static func number(_ value: PolicyValue, _ range: ClosedRange<Double>, _ set: (Double) -> Void) -> String? {
        let number: Double
        switch value {
        case .integer(let whole): number = Double(whole)
        case .number(let fraction): number = fraction
        default: return "needs a number, not \(value.typeName)"
        }
        guard range.contains(number) else {
            return "must be between \(range.lowerBound) and \(range.upperBound), not \(number)"
        }
        set(number)
        return nil
    }

    /// A list of annotation kinds (`AnnotationRules`).
    private static func kinds(_ value: PolicyValue, _ set: ([String]) -> Void) -> String? {
        guard case .strings(let kinds) = value else { return "needs a list of annotation kinds, not \(value.typeName)" }
        if let unknown = kinds.first(where: { !AnnotationRules.isKnownKind($0) }) {
            return "\"\(unknown)\" is not an annotation kind (a subtype such as freetext, form, form.text, or *)"
        }
        set(kinds)
        return nil
    }

    private static func boolean(_ value: PolicyValue, _ set: (Bool) -> Void) -> String? {
        guard case .boolean(let flag) = value else { return "needs true or false, not \(value.typeName)" }
        set(flag)
        return nil
    }

    private static func choice<T>(_ value: PolicyValue, _ choices: [String: T], _ set: (T) -> Void) -> String? {
        let names = choices.keys.sorted().joined(separator: ", ")
        guard case .string(let name) = value else { return "needs one of \(names), not \(value.typeName)" }
        guard let chosen = choices[name] else { return "must be one of \(names), not \"\(name)\"" }
        set(chosen)
        return nil
    }
}
