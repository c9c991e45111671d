import ArgumentParser
import LecternKiosk
import LecternPolicy
import PropertyBased
import Testing

@testable import lectern

/// The short path must read a command line exactly as swift-argument-parser does, or leave it
/// to swift-argument-parser; and the command lines a kiosk really uses must take it.
@Suite("Command line short path")
struct FastCommandLineTests {
    /// Values for each option: good ones first, then bad ones.
    static let values = [
        "page": ["1", "3", "+2", "07", "0", "-1", "x"],
        "spreads": ["single", "double", "cover", "Double", "triple"],
        "scroll": ["per-spread", "continuous", "perSpread"],
        "direction": ["horizontal", "vertical", "up"],
        "binding": ["auto", "left", "right", "top"],
        "transition": ["slide", "curl", "none", "Curl", "fold"],
        "contrast": ["normal", "invert", "high", "yellow-on-black", "Invert", "yellow"],
        "mirror": ["auto", "off", "on", "Off"],
        "language": ["en", "de", "ar", "he", "DE", "xx"],
        "large-print": ["on", "off", "On", "yes"],
        "idle-reset": ["0", "120", "-5", "1.5", "x"],
        "cache-mb": ["1", "64", "4096", "0", "4097", "x"],
        "font-size": ["50", "150", "400", "49", "401", "x", "1.5"],
        "password": ["pw", "p=w", "", "-pw"],
        "frame-dump": ["/tmp/f.png", "a=b.png", "", "-x"],
        "config": ["/etc/lectern/lectern.toml", "a=b.toml", "", "-x"],
        "check-config": ["lectern.toml", "", "-c"],
        "render-process": ["on", "off", "On", "auto"],
        "render-deadline": ["4", "0.5", "600", "1e1", "0", "601", "nan", "x", "-1"],
    ]

    /// The pieces command lines are made of: each option with each value in both spellings,
    /// files, and what swift-argument-parser treats specially.
    static let pieces: [[String]] =
        values.flatMap { name, values in values.flatMap { [["--\(name)", $0], ["--\(name)=\($0)"]] } }
        + [["a.pdf"], ["/srv/kiosk/menu.pdf"], ["help"], ["3"]]
        + [["--version"], ["--help"], ["-h"], ["-help"], ["--"], ["-"], [""], ["--no-such-option"], ["--page"]]

    /// What swift-argument-parser makes of `arguments`: a `Lectern`, or how `lectern` would exit.
    enum Parsed: Equatable {
        case launch(LaunchOptions)
        case exit(code: Int32, message: String)
    }

    static func parsedByArgumentParser(_ arguments: [String]) -> Parsed {
        do {
            let command = try Lectern.parseAsRoot(arguments)
            guard let lectern = command as? Lectern else { return .exit(code: -1, message: "\(type(of: command))") }
            return .launch(lectern.options)
        } catch {
            return .exit(code: Lectern.exitCode(for: error).rawValue, message: Lectern.fullMessage(for: error))
        }
    }

    @Test("a command line the short path takes, swift-argument-parser reads the same way")
    func agreesWithArgumentParser() async {
        await propertyCheck(count: 3000, input: Gen.element(of: Self.pieces).array(of: 1...6)) { pieces in
            let arguments = pieces.compactMap { $0 }.flatMap { $0 }
            switch FastCommandLine(arguments) {
            case .launch(let options):
                #expect(Self.parsedByArgumentParser(arguments) == .launch(options), "\(arguments)")
            case .version:
                #expect(
                    Self.parsedByArgumentParser(arguments) == .exit(code: 0, message: Lectern.version), "\(arguments)")
            case .other:
                break  // swift-argument-parser decides
            case .control(let rest):
                Issue.record("\(arguments) taken for `lectern ctl \(rest)`")
            case .audit(let rest):
                Issue.record("\(arguments) taken for `lectern audit \(rest)`")
            }
        }
    }

    /// The value each option is given below; an option Lectern gains needs one here, and the
    /// short path must know it.
    static let sampleValues = [
        "page": "3", "spreads": "double", "scroll": "continuous", "direction": "vertical", "binding": "right",
        "transition": "curl", "contrast": "yellow-on-black", "large-print": "on", "mirror": "off", "idle-reset": "60",
        "cache-mb": "64", "font-size": "150", "language": "ar",
        "password": "secret",
        "frame-dump": "/run/lectern/frame.png",
        "config": "/etc/lectern/lectern.toml", "check-config": "/etc/lectern/lectern.toml",
        "render-process": "on", "render-deadline": "2.5", "speech-output": "/run/lectern/speech.wav",
    ]

    @Test("every option Lectern declares takes the short path, in both spellings")
    func everyOptionTakesTheShortPath() throws {
        let help = Lectern.helpMessage(columns: 200)
        let names = Set(
            help.split(whereSeparator: { !$0.isLetter && $0 != "-" })
                .filter { $0.hasPrefix("--") && $0.count > 2 }.map { String($0.dropFirst(2)) }
        ).subtracting(["help", "version"])
        #expect(names == Set(Self.sampleValues.keys), "options in `lectern --help`: \(names.sorted())")
        for name in names {
            let value = try #require(Self.sampleValues[name], "no sample value for --\(name)")
            for arguments in [["--\(name)", value, "doc.pdf"], ["doc.pdf", "--\(name)=\(value)"]] {
                let fast = FastCommandLine(arguments)
                #expect(fast != .other, "\(arguments) is left to swift-argument-parser")
                if case .launch(let options) = fast {
                    #expect(Self.parsedByArgumentParser(arguments) == .launch(options), "\(arguments)")
                }
            }
        }
    }

    @Test("a kiosk's command lines take the short path")
    func kioskCommandLinesTakeTheShortPath() {
        let lines = [
            [],
            ["/srv/kiosk/document.pdf"],
            // kiosk/lectern.service's command line, and options a systemd drop-in may add.
            ["--config", "/etc/lectern/lectern.toml"],
            ["--frame-dump", "/run/lectern/frame.png", "--idle-reset", "120", "/srv/kiosk/document.pdf"],
            ["menu.pdf", "--spreads=double", "--binding=auto", "--page=12", "--cache-mb=256", "--password=pw"],
        ]
        for arguments in lines {
            guard case .launch(let options) = FastCommandLine(arguments) else {
                Issue.record("\(arguments) is left to swift-argument-parser")
                continue
            }
            #expect(Self.parsedByArgumentParser(arguments) == .launch(options), "\(arguments)")
        }
        #expect(FastCommandLine(["--version"]) == .version)
    }

    @Test("`lectern ctl …` goes to the control socket's client, which reads its command line")
    func controlCommandLine() throws {
        #expect(FastCommandLine(["ctl", "goto", "iv"]) == .control(["goto", "iv"]))
        #expect(FastCommandLine(["menu.pdf", "ctl"]) != .control([]), "a FILE named ctl after another is no command")
        #expect(
            try Ctl.parse(["goto", "iv", "--socket", "/run/x.sock"]).request
                == ControlRequest(command: "goto", label: "iv"))
        #expect(try Ctl.parse(["goto", "12"]).request == ControlRequest(command: "goto", page: 12))
        #expect(try Ctl.parse(["open", "/srv/a.pdf"]).request == ControlRequest(command: "open", path: "/srv/a.pdf"))
        #expect(try Ctl.parse(["status", "--json"]).request == ControlRequest(command: "status"))
        // A negative page is the command's argument, not an option: the kiosk says it is out of range.
        #expect(try Ctl.parse(["goto", "-1"]).request == ControlRequest(command: "goto", page: -1))
        #expect(try Ctl.parse(["goto", "-1", "--json"]).json)
        for bad in [["explode"], ["goto"], ["status", "now"], ["screenshot"], ["reset", "--timeout", "0"]] {
            #expect(throws: (any Error).self, "\(bad)") { try Ctl.parse(bad) }
        }
    }

    @Test("`lectern ctl status` says whether the kiosk is open and until when, and each input's time to the screen")
    func statusWithHoursAndPresentation() throws {
        let line =
            #"{"ok":true,"status":{"document":"/srv/a.pdf","state":"open","page":1,"pageCount":4,"zoom":1,"#
            + #""idleSeconds":0,"uptimeSeconds":1,"framesCommitted":1,"version":"x","#
            + #""hours":{"isOpen":false,"nextChange":"2026-11-30 08:00","show":"morning"},"#
            + #""inputToPresent":{"touch":{"count":120,"p50":0.0214,"p99":0.0331,"max":0.041},"#
            + #""key":{"count":3,"p50":0.03,"p99":0.035,"max":0.035}}}}"#
        let reply = try ControlClient.decode(Array(line.utf8))
        #expect(
            Ctl.describe(reply).hasSuffix(
                "hours: closed until 2026-11-30 08:00, show morning\n"
                    + "key to screen: median 30 ms, p99 35 ms, longest 35 ms (3 frames)\n"
                    + "touch to screen: median 21 ms, p99 33 ms, longest 41 ms (120 frames)\nversion: x"))
    }

    @Test("`lectern ctl status` says the last audit's findings, a line each")
    func statusWithAudit() throws {
        let line =
            #"{"ok":true,"status":{"document":"/srv/a.pdf","state":"open","page":1,"pageCount":4,"zoom":1,"#
            + #""idleSeconds":0,"uptimeSeconds":1,"framesCommitted":1,"version":"x","audit":{"document":"/srv/a.pdf","#
            + #""isRunning":false,"pagesAudited":4,"slowPages":[2],"pagesWithoutText":[1],"substitutedFonts":[],"#
            + #""figuresWithoutAlt":1,"tagged":true,"findings":["slow pages (over 250 ms at 1920x1080): page 2 (900 ms)","#
            + #""figures without /Alt: 1 (page 3)"]}}}"#
        let reply = try ControlClient.decode(Array(line.utf8))
        #expect(reply.status?.audit?.slowPages == [2])
        #expect(
            Ctl.describe(reply).hasSuffix(
                "audit of /srv/a.pdf: 4 pages\n  slow pages (over 250 ms at 1920x1080): page 2 (900 ms)\n"
                    + "  figures without /Alt: 1 (page 3)\nversion: x"))
    }
}

/// Every command-line option is also a key of the policy file, and the command line's value
/// overrides the file's (issue 14).
@Suite("Command line and policy keys")
struct CommandLinePolicyKeyTests {
    @Test("each option but --config and --check-config sets a policy key the file knows")
    func everyOptionHasAKey() throws {
        let names = FastCommandLineTests.sampleValues.keys.filter { $0 != "config" && $0 != "check-config" }
        var keys: Set<String> = []
        for name in names.sorted() {
            let value = try #require(FastCommandLineTests.sampleValues[name])
            guard case .launch(let options) = FastCommandLine(["--\(name)", value]) else {
                Issue.record("--\(name) \(value) does not parse")
                continue
            }
            let added = Set(options.overrides.keys)
            #expect(added.count == 1, "--\(name) sets \(added.sorted())")
            keys.formUnion(added)
        }
        guard case .launch(let withFile) = FastCommandLine(["menu.pdf"]) else { return }
        keys.formUnion(withFile.overrides.keys)
        #expect(keys.count == names.count + 1, "one key per option and one for FILE: \(keys.sorted())")
        #expect(
            keys.subtracting(PolicyKeys.names).isEmpty,
            "keys the policy file lacks: \(keys.subtracting(PolicyKeys.names).sorted())")
    }
}

/// Several FILEs make a shelf (issue 14): both parsers read them, and they set the policy's
/// `documents` over the file's.
@Suite("Command line: several documents")
struct SeveralDocumentsTests {
    @Test("two FILEs: both parsers read both, and they become the shelf over the policy file's document")
    func twoFiles() throws {
        let fixtures = #filePath.split(separator: "/").dropLast(2).joined(separator: "/") + "/Fixtures/"
        let files = ["/" + fixtures + "colors-8pages.pdf", "/" + fixtures + "text-3pages.pdf"]
        guard case .launch(let options) = FastCommandLine(files + ["--page", "2"]) else {
            Issue.record("two files do not take the short path")
            return
        }
        #expect(options.files == files)
        #expect(FastCommandLineTests.parsedByArgumentParser(files + ["--page", "2"]) == .launch(options))
        #expect(options.overrides["documents"] == .strings(files) && options.overrides["document"] == nil)
        let configuration = try PolicyFile.parse(
            "document = \"\(files[0])\"\n", path: "/tmp/lectern.toml",
            over: options.configuration(documentPath: files[0]))
        #expect(configuration.shelfPaths == files && configuration.documentPath == files[0])
        guard case .launch(let one) = FastCommandLine([files[1]]) else { return }
        let single = try PolicyFile.parse(
            "documents = [\"\(files[0])\", \"\(files[1])\"]\n", path: "/tmp/lectern.toml",
            over: one.configuration(documentPath: files[1]))
        #expect(single.shelfPaths.isEmpty && single.documentPath == files[1], "one FILE wins over the file's shelf")
    }
}

/// `--transition` (issue 16, item 6): both parsers read it, and it sets `page-turn.transition`
/// over the policy file's.
@Suite("Command line: page-turn transition")
struct TransitionOptionTests {
    @Test("--transition curl: both parsers agree, and it wins over the policy file's key")
    func transitionOption() throws {
        let fixtures = #filePath.split(separator: "/").dropLast(2).joined(separator: "/") + "/Fixtures/"
        let file = "/" + fixtures + "colors-8pages.pdf"
        for arguments in [["--transition", "curl", file], [file, "--transition=curl"]] {
            guard case .launch(let options) = FastCommandLine(arguments) else {
                Issue.record("\(arguments) does not take the short path")
                continue
            }
            #expect(FastCommandLineTests.parsedByArgumentParser(arguments) == .launch(options))
            #expect(options.transition == .curl && options.overrides["page-turn.transition"] == .string("curl"))
            #expect(options.configuration(documentPath: file).transition == .curl)
            let configuration = try PolicyFile.parse(
                "[page-turn]\ntransition = \"none\"\n", path: "/tmp/lectern.toml",
                over: options.configuration(documentPath: file))
            #expect(configuration.transition == .curl, "the command line wins over the file")
        }
        guard case .launch(let plain) = FastCommandLine([file]) else { return }
        #expect(plain.configuration(documentPath: file).transition == .slide, "slide by default")
        #expect(FastCommandLine([file, "--transition", "fold"]) == .other, "a bad value goes to the parser")
        #expect(FastCommandLineTests.parsedByArgumentParser([file, "--transition", "fold"]) != .launch(plain))
    }
}
