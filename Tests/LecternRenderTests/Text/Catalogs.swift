import Foundation

/// The chrome's catalogs as the repository has them (po/), and the gettext tools the tests run.
enum Catalogs {
    static var po: URL { Fixture.root.appendingPathComponent("kiosk/po") }

    /// The codes kiosk/po/LINGUAS lists.
    static func languages() throws -> [String] {
        try String(contentsOf: po.appendingPathComponent("LINGUAS"), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Runs `tool` (on PATH) and returns its status and what it wrote to stdout and stderr.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A new temporary directory.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// kiosk/po/LINGUAS compiled by kiosk/po/compile (msgfmt --check) once for the whole test run.
    static let compiled: Result<URL, CompileError> = {
        do {
            let directory = try temporaryDirectory("locale")
            let result = try run(po.appendingPathComponent("compile").path, [directory.path])
            guard result.status == 0 else { return .failure(CompileError(output: result.output)) }
            return .success(directory)
        } catch {
            return .failure(CompileError(output: "\(error)"))
        }
    }()

    struct CompileError: Error, CustomStringConvertible {
        var output: String
        var description: String {
            "kiosk/po/compile failed (is Debian's gettext installed? kiosk/install-deps): \(output)"
        }
    }
}

/// A catalog's entries as a .po or .pot file has them: enough of the format for the tests.
struct POFile {
    struct Entry {
        var msgid = ""
        var plural: String?
        var translations: [String] = []
        var isFuzzy = false
        /// Translated: every form filled in, and not marked fuzzy.
        var isTranslated: Bool { !isFuzzy && !translations.isEmpty && translations.allSatisfy { !$0.isEmpty } }
    }

    /// The entries but the header (msgid ""), in the file's order.
    var entries: [Entry] = []
    /// The header's text (msgstr of msgid "").
    var header = ""

    init(contentsOf url: URL) throws {
        var current: Entry?
        var isFuzzy = false
        var field: WritableKeyPath<Entry, String>?
        var translationIndex: Int?
        func finish() {
            guard let entry = current else { return }
            if entry.msgid.isEmpty { header = entry.translations.first ?? "" } else { entries.append(entry) }
            current = nil
        }
        for raw in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#,") { isFuzzy = line.contains("fuzzy") }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (keyword, quoted) = Self.split(line)
            let value = Self.unquote(quoted)
            switch keyword {
            case "msgid":
                finish()
                current = Entry(msgid: value, isFuzzy: isFuzzy)
                isFuzzy = false
                field = \.msgid
                translationIndex = nil
            case "msgid_plural":
                current?.plural = value
                field = nil
            case "msgstr",
                _ where keyword.hasPrefix("msgstr["):
                current?.translations.append(value)
                field = nil
                translationIndex = (current?.translations.count ?? 1) - 1
            default:
                // A continuation line adds to the string before it.
                if let field { current?[keyPath: field] += value }
                if let index = translationIndex { current?.translations[index] += value }
            }
        }
        finish()
    }

    private static func split(_ line: String) -> (String, String) {
        guard !line.hasPrefix("\""), let space = line.firstIndex(of: " ") else { return ("", line) }
        return (String(line[..<space]), String(line[line.index(after: space)...]))
    }

    private static func unquote(_ quoted: String) -> String {
        var result = ""
        var escaped = false
        for character in quoted.dropFirst().dropLast() {
            if escaped {
                result.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
