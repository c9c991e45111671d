import ArgumentParser
import FoundationEssentials
import Glibc
import LecternDocuments
import Logging

/// `lectern audit FILE…`: what a kiosk visitor would meet in each document (`DocumentAuditor`,
/// each document in a render worker of its own), for a person (the findings) or for scripts
/// (`--json`: an array of one object per document, each with a `pages` array).
struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lectern audit",
        abstract: "Audit PDFs for a kiosk: slow pages, scans, small text, substituted fonts, tags, /Alt, repairs.",
        discussion: """
            Each page is drawn fitted to the screen in a sandboxed render worker, as the reader \
            draws it; a page over the budget is slow. Exits 1 when a document cannot be opened.
            """)

    @Argument(help: ArgumentHelp("The PDFs to audit.", valueName: "file"))
    var files: [String]

    @Flag(help: "Print an array of one JSON object per document, each with its pages.")
    var json = false

    @Option(help: ArgumentHelp("The screen's size in pixels (default 1920x1080).", valueName: "WIDTHxHEIGHT"))
    var screen = "1920x1080"

    @Option(
        name: .customLong("width-mm"),
        help: ArgumentHelp("The screen's width in millimetres (default: 96 pixels an inch).", valueName: "mm"))
    var widthMillimetres: Double?

    @Option(
        name: .customLong("budget-ms"),
        help: ArgumentHelp("A page drawn slower than this is slow (default 250).", valueName: "ms"))
    var budget = DocumentAuditor.defaultBudgetMilliseconds

    @Option(
        name: .customLong("render-deadline"),
        help: ArgumentHelp("Seconds a page may take before it is reported not drawn (default 4).", valueName: "seconds")
    )
    var deadline = 4.0

    @Option(help: ArgumentHelp("Audit this many pages, spread evenly (default: all).", valueName: "pages"))
    var sample: Int?

    @Option(help: "Password of encrypted documents.")
    var password: String?

    /// The screen `--screen` and `--width-mm` describe.
    var auditScreen: AuditScreen? {
        let parts = screen.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= 16_384 }) else { return nil }
        return AuditScreen(width: parts[0], height: parts[1], widthMillimetres: widthMillimetres)
    }

    func validate() throws {
        guard auditScreen != nil else { throw ValidationError("--screen must be WIDTHxHEIGHT, such as 1080x1920") }
        guard budget > 0, deadline > 0, deadline <= 600 else {
            throw ValidationError("--budget-ms must be positive, --render-deadline 0 to 600 seconds")
        }
        if let widthMillimetres, widthMillimetres <= 0 { throw ValidationError("--width-mm must be positive") }
        if let sample, sample <= 0 { throw ValidationError("--sample must be positive") }
    }

    func run() throws {
        LaunchOptions.bootstrapLogging(level: .warning)
        // The render worker's address space as the policy's default sets it (render.address-space-mb).
        let settings = RenderProcess.Settings(
            executable: "/proc/self/exe", documentPath: "", password: nil, startPage: -1, channels: 1,
            addressSpace: 2048 << 20)
        let auditor = DocumentAuditor(
            settings: settings, screen: auditScreen!, budgetMilliseconds: budget, deadline: deadline,
            logger: Logger(label: "lectern-audit"))
        let reports = files.map { auditor.audit(path: $0, password: password, sample: sample) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        } else {
            print(reports.map(\.text).joined(separator: "\n"))
        }
        if reports.contains(where: { $0.error != nil }) { throw ExitCode.failure }
    }
}
