import Foundation
import Testing

/// A string the chrome shows or the narrator says goes through `tr`/`trn` (so that every catalog
/// has it: `CatalogCoverageTests`). This reads the chrome's sources and fails at a string literal
/// with words in it that does not: put it through `tr("…")`, or, if no visitor ever sees or hears
/// it (a log line, a file name, a key), add it to `notShown` below with the file's name.
@Suite("Chrome strings")
struct ChromeStringsTests {
    /// Where the chrome's strings are made: the kiosk's parts (but Operations/, which speaks to the
    /// operator through the log and `lectern ctl`), the scenes and their drawing, keypad focus's
    /// sentences and the on-screen keyboard.
    static let folders = [
        "Sources/LecternKiosk", "Sources/LecternRender/Compositor", "Sources/LecternRender/Scene",
        "Sources/LecternCore/Focus", "Sources/LecternCore/Navigation",
    ]
    static let skippedFolders = ["Sources/LecternKiosk/Operations/"]
    /// Files that hold only names no visitor sees (key symbols).
    static let skippedFiles = ["KeypadCommand.swift"]

    /// Literals that are not shown: file → the literals, as written between the quotes.
    static let notShown: [String: Set<String>] = [
        // Window titles: the compositor's, never drawn by a kiosk compositor.
        "KioskApp.swift": ["Lectern"],
        "FramePresenter.swift": [" at scale \\(scale)"],
        "PresenterMirror.swift": ["Lectern mirror"],
        // The PDF's own names of annotation kinds and a checkbox's off state.
        "KeypadFocus+Items.swift": ["Link", "Popup", "Widget"],
        "FocusSpeech.swift": ["Off"],
        // Log lines built before they are logged, and errors that go to the log.
        "IdleReset.swift": ["the shelf"],
        "Shelf+Covers.swift": ["\\(path) has no pages", "cannot render the first page of \\(path)"],
        "DocumentPhase.swift": ["cannot show the document: \\(error)"],
        "DocumentReloader.swift": [
            "the new version of \\(path) has no pages", "the new version of \\(path) is damaged or incomplete",
            "the first page of the new version of \\(reader.document.path) cannot be rendered",
        ],
        "DocumentSession.swift": [
            "cannot show \\(path): the document has no pages"
        ],
        "DocumentSession+Books.swift": ["; page \\(page + 1) is now \\(book.page + 1)"],
        // Why a kept first frame was not used: `KioskStatus.firstFrame` and the log.
        "CachedFrame.swift": [
            "no frame kept", "cannot read the kept frame: \\(reason)", "not a kept frame (\\(reason))",
            "kept for another document, version, setting or screen", "no magic",
            "\\(size) bytes for a \\(width)x\\(height) frame",
            "a \\(width)x\\(height) frame with a key of \\(keyLength) bytes", "short read", "not zeros after the key",
        ],
        "FirstFrame.swift": [
            "frame \\(width)x\\(height) scale \\(scale.numerator)/120\\n",
            "kept for a \\(frame.width)x\\(frame.height) frame or another scale",
            "file device \\(identity.device) inode \\(identity.inode) size \\(identity.size) modified \\(identity.modified) ",
        ],
    ]

    /// A string literal that reads as words: two words with a space, or a capitalised word.
    static func isWords(_ literal: String) -> Bool {
        let text = literal.replacing(/\\\([^)]*\)/, with: "")
        return text.contains(/[A-Za-z]{2,}[^"]* [A-Za-z]/) || text.contains(/^[^a-z]*[A-Z][a-z]/)
    }

    /// The literals in `source` that are not passed to tr/trn, outside comments and log lines, as
    /// (line number, literal).
    static func untranslated(in source: String) -> [(Int, String)] {
        var found: [(Int, String)] = []
        var openLogParentheses = 0
        var continuesTranslation = false
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") { continue }
            // A log statement, to its closing parenthesis (plain searches: a regular expression
            // for every line of the sources costs seconds).
            let logs = ["logger.", "logOnce(", "precondition", "fatalError", "assert"]
            if openLogParentheses > 0 || logs.contains(where: { line.contains($0) }) {
                openLogParentheses = max(0, openLogParentheses + line.count { $0 == "(" } - line.count { $0 == ")" })
                continue
            }
            let wasContinuing = continuesTranslation
            continuesTranslation = trimmed.hasSuffix("tr(") || trimmed.hasSuffix("trn(")
            guard line.contains("\"") else { continue }
            for match in line.matches(of: /"((?:[^"\\]|\\.)*)"/) {
                let before = line[..<match.range.lowerBound]
                if before.contains(/\btrn?\($/) || before.contains(/\btrn\("(?:[^"\\]|\\.)*",\s*$/) { continue }
                if wasContinuing, before.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                // A literal inside a trailing comment.
                if let comment = before.range(of: "//"), !before[comment.upperBound...].contains("\"") { continue }
                let literal = String(match.1)
                if isWords(literal) { found.append((number + 1, literal)) }
            }
        }
        return found
    }

    @Test("every string with words in the chrome's sources goes through tr/trn, or is listed as not shown")
    func everyStringTranslated() throws {
        let root = Fixture.root
        var unwrapped: [String] = []
        var listedButGone = notShownAll
        for folder in Self.folders {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let path = "\(folder)/\(file)"
                let name = URL(fileURLWithPath: file).lastPathComponent
                if Self.skippedFolders.contains(where: path.hasPrefix) || Self.skippedFiles.contains(name) { continue }
                let source = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                for (line, literal) in Self.untranslated(in: source) {
                    if Self.notShown[name]?.contains(literal) == true {
                        listedButGone.remove("\(name): \(literal)")
                    } else {
                        unwrapped.append("\(path):\(line): \"\(literal)\"")
                    }
                }
            }
        }
        #expect(unwrapped == [], "not through tr(…): translate them, or list them in notShown if no one sees them")
        #expect(listedButGone == [], "listed in notShown but no longer in the sources: remove them there")
    }

    var notShownAll: Set<String> {
        Set(Self.notShown.flatMap { file, literals in literals.map { "\(file): \($0)" } })
    }

    @Test("the scan finds a new string that is not translated, and passes one that is")
    func scanFindsNewStrings() {
        let source = """
            chrome.showNotice("The shelf is closed.")
            paintButton("Close", in: box)
            chrome.showNotice(tr("The shelf is open."))
            let key = "read-aloud"
            logger.info("opened \\(path) in \\(ms) ms")
            """
        #expect(Self.untranslated(in: source).map(\.1) == ["The shelf is closed.", "Close"])
    }
}
