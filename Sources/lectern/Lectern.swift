import ArgumentParser
import FoundationEssentials
import Glibc
import LecternCore
import LecternDocuments
import LecternKiosk
import LecternLinux
import LecternPolicy
import LecternSpeech
import Logging

/// `lectern [FILE]`: shows a PDF fullscreen on a Wayland kiosk.
@main
struct Lectern: ParsableCommand {
    static let version = KioskApp.version

    static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "A fullscreen PDF reader for touchscreen kiosks (Wayland).",
        discussion: """
            Runs fullscreen under a Wayland compositor such as cage. Logs go to standard error \
            (journald under systemd); LECTERN_LOG_LEVEL=debug|info|warning|error sets the level. \
            LECTERN_RENDER_WORKER=PATH: the lectern binary the render worker runs (default: this \
            one; kiosk/link-order profiles under valgrind, which cannot run /proc/self/exe). \
            `lectern ctl --help`: the client of a running kiosk's control socket. `lectern audit \
            --help`: what a visitor would meet in documents (slow pages, scans, small text, tags).
            """,
        version: version
    )

    @Argument(
        help: ArgumentHelp(
            "The PDF to show; several go on a shelf of covers. Without one, Lectern opens its bundled sample.",
            valueName: "file"))
    var files: [String] = []

    @Option(name: .long, help: "Password of an encrypted document.")
    var password: String?

    @Option(
        name: .customLong("frame-dump"),
        help: ArgumentHelp(
            "Write what the screen shows to this PNG (atomically replaced) whenever it changes, and on exit.",
            valueName: "path"))
    var frameDump: String?

    @Option(
        help: ArgumentHelp(
            "The policy file (TOML; default: \(PolicyFile.defaultPath) if it exists). Options given here override it.",
            valueName: "path"))
    var config: String?

    @Option(
        name: .customLong("check-config"),
        help: ArgumentHelp(
            "Check a policy file, print its problems with their lines and keys, and exit (1 if it has any).",
            valueName: "path"))
    var checkConfig: String?

    @Option(help: "How pages are grouped: single (default), double, or cover (first page alone, then pairs).")
    var spreads: SpreadOption?

    @Option(help: "Scrolling: per-spread (default: one spread at a time, like a book) or continuous.")
    var scroll: ScrollOption?

    @Option(help: "Scroll direction: horizontal (default) or vertical.")
    var direction: DirectionOption?

    @Option(help: "Binding edge: auto (default: from the PDF), left or right (right to left).")
    var binding: BindingOption?

    @Option(help: "How a page turn looks (horizontal per-spread paging): slide (default), curl (like paper), or none.")
    var transition: TransitionOption?

    @Option(
        help: "The contrast a visitor starts in: normal (default), invert, high (two tones), or yellow-on-black.")
    var contrast: Contrast.Mode?

    @Option(
        name: .customLong("large-print"),
        help:
            "Start in large print (the page's text in one column, readable from the viewing distance): on or off (default)."
    )
    var largePrint: SwitchOption?

    @Option(help: "The page to show first (default 1, the first page).")
    var page: Int?

    @Option(
        name: .customLong("idle-reset"),
        help: ArgumentHelp(
            "Go back to the start page, zoomed out, after this many seconds without input (0: never; default 120).",
            valueName: "seconds"))
    var idleReset: Int?

    @Option(
        name: .customLong("cache-mb"),
        help: ArgumentHelp("Tile cache budget in MiB (default: about three screens).", valueName: "MiB"))
    var cacheMegabytes: Int?

    @Option(
        name: .customLong("font-size"),
        help: ArgumentHelp(
            "A book's type size (EPUB, FB2, XHTML), in percent of its own, 50 to 400 (default 100).",
            valueName: "percent"))
    var fontSize: Int?

    @Option(help: "Presenter mirror on a second screen: auto (default: the page aspect-fit there) or off.")
    var mirror: MirrorOption?

    @Option(
        help: ArgumentHelp(
            "The chrome's language at start and after the idle reset: en (default), de, fr, es, ar or he.",
            valueName: "code"))
    var language: LanguageOption?

    @Option(
        name: .customLong("render-process"),
        help: "Draw pages in a separate, sandboxed worker process: on (default), or off (in this process).")
    var renderProcess: RenderProcessOption?

    @Option(
        name: .customLong("render-deadline"),
        help: ArgumentHelp(
            "With the render process: seconds a page may take before it shows as not drawn (default 4).",
            valueName: "seconds"))
    var renderDeadline: Double?

    @Option(
        name: .customLong("speech-output"),
        help: ArgumentHelp(
            "Where speech goes: an ALSA device (default \"default\"), or a .wav file every sentence is appended to.",
            valueName: "device-or-file"))
    var speechOutput: String?

    /// The options as parsed here, for the reader.
    var options: LaunchOptions {
        LaunchOptions(
            files: files, password: password, frameDump: frameDump, config: config, checkConfig: checkConfig,
            spreads: spreads, scroll: scroll,
            direction: direction, binding: binding, transition: transition, contrast: contrast,
            largePrint: largePrint, page: page,
            idleReset: idleReset,
            cacheMegabytes: cacheMegabytes, fontSize: fontSize, mirror: mirror, language: language,
            renderProcess: renderProcess,
            renderDeadline: renderDeadline,
            speechOutput: speechOutput)
    }

    func validate() throws { try options.validate() }

    func run() throws {
        let status = options.launch()
        if status != 0 { throw ExitCode(status) }
    }

    /// Takes the short path for a command line that needs nothing but parsing
    /// (`FastCommandLine`: swift-argument-parser's reflection costs milliseconds at every start)
    /// and gives any other to swift-argument-parser: help, errors and checks stay its own.
    static func main() {
        // The dynamic linker is done with the relocation table (1.5 MB): its pages are not
        // this process's to keep, nor the render worker's forked from it.
        _ = try? RelocationTables.release()
        // The render worker (`RenderProcess` starts it): before anything else of the reader.
        if CommandLine.arguments.count > 1, CommandLine.arguments[1] == RenderWorkerMain.option {
            LaunchOptions.bootstrapLogging()
            Glibc.exit(RenderWorkerMain.run(Array(CommandLine.arguments.dropFirst(2))))
        }
        // The speech process (`SpeechClient` starts it), likewise.
        if CommandLine.arguments.count > 1, CommandLine.arguments[1] == SpeechProcessMain.option {
            LaunchOptions.bootstrapLogging()
            Glibc.exit(SpeechProcessMain.run())
        }
        switch FastCommandLine(Array(CommandLine.arguments.dropFirst())) {
        case .version:
            print(version)
        case .launch(let options):
            // Not `exit(withError: ExitCode(status))`, which prints the same (nothing) but first
            // builds the usage text, by the same reflection.
            let status = options.launch()
            if status != 0 { Glibc.exit(status) }
        case .control(let arguments):
            // Its own swift-argument-parser command, not a declared subcommand: the reader's FILE
            // argument would take "ctl" for a file name.
            Ctl.main(arguments)
        case .audit(let arguments):
            // Likewise its own command: a FILE named "audit" after another is still a file.
            Audit.main(arguments)
        case .other:
            main(nil)
        }
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

enum SpreadOption: String, ExpressibleByArgument, CaseIterable {
    case single, double, cover
    var mode: SpreadMode {
        switch self {
        case .single: .single
        case .double: .double
        case .cover: .cover
        }
    }
}

enum ScrollOption: String, ExpressibleByArgument, CaseIterable {
    case perSpread = "per-spread", continuous
    var mode: ViewConfiguration.ScrollMode { self == .continuous ? .continuous : .perSpread }
}

enum DirectionOption: String, ExpressibleByArgument, CaseIterable {
    case horizontal, vertical
    var axis: Axis { self == .vertical ? .vertical : .horizontal }
}

enum BindingOption: String, ExpressibleByArgument, CaseIterable {
    case auto, left, right
    var binding: PageBinding? {
        switch self {
        case .auto: nil
        case .left: .leftEdge
        case .right: .rightEdge
        }
    }
}

enum TransitionOption: String, ExpressibleByArgument, CaseIterable {
    case slide, curl, none
    var transition: PageTurnTransition {
        switch self {
        case .slide: .slide
        case .curl: .curl
        case .none: .none
        }
    }
}

extension Contrast.Mode: ExpressibleByArgument {}

/// A language the chrome ships (`Language.shipped`), by its code.
enum LanguageOption: String, ExpressibleByArgument, CaseIterable {
    case en, de, fr, es, ar, he
}

enum MirrorOption: String, ExpressibleByArgument, CaseIterable {
    case auto, off
}

enum RenderProcessOption: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

enum SwitchOption: String, ExpressibleByArgument, CaseIterable {
    case on, off
}
