import ArgumentParser
import Foundation
import LecternKiosk
import Logging

/// `lectern [FILE]`: shows a PDF fullscreen on a Wayland kiosk.
@main
struct Lectern: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "A fullscreen PDF reader for touchscreen kiosks (Wayland).",
        discussion: """
            Runs fullscreen under a Wayland compositor such as cage. Logs go to standard error \
            (journald under systemd); LECTERN_LOG_LEVEL=debug|info|warning|error sets the level.
            """,
        version: version
    )

    @Argument(help: "The PDF to show. Without it, Lectern opens its bundled sample document.")
    var file: String?

    @Option(name: .long, help: "Password of an encrypted document.")
    var password: String?

    @Option(
        name: .customLong("frame-dump"),
        help: ArgumentHelp(
            "Write what the screen shows to this PNG (atomically replaced) whenever it changes, and on exit.",
            valueName: "path"))
    var frameDump: String?

    func validate() throws {
        if let frameDump, frameDump.isEmpty { throw ValidationError("--frame-dump needs a path") }
    }

    func run() throws {
        let level =
            ProcessInfo.processInfo.environment["LECTERN_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "lectern")
        let path = file ?? Self.bundledSamplePath()
        logger.info("Lectern \(Self.version) showing \(path)")
        let configuration = KioskConfiguration(documentPath: path, password: password, frameDumpPath: frameDump)
        let status = KioskApp(configuration: configuration, logger: logger).run()
        if status != 0 { throw ExitCode(status) }
    }

    /// The sample PDF shipped with the binary: the SwiftPM resource bundle next to the
    /// executable, else an installed copy. A missing one becomes an on-screen message.
    static func bundledSamplePath() -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let folder = directory.isEmpty ? "." : directory
        // SwiftPM names the resource bundle <package>_<target>.resources.
        let bundles = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix("_lectern.resources") }.sorted()
        let candidates =
            bundles.map { "\(folder)/\($0)/sample.pdf" } + [
                "/usr/local/share/lectern/sample.pdf",
                "/usr/share/lectern/sample.pdf",
            ]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) } ?? candidates[0]
    }
}
