import LecternCore
import LecternPolicy
import Testing

/// The policy file's checks and messages, without an app (issue 14).
@Suite("Policy file checks")
struct PolicyFileTests {
    static let base = KioskConfiguration(documentPath: "/srv/sample.pdf")

    func problems(_ text: String) -> [String] {
        do {
            _ = try PolicyFile.parse(text, path: "p.toml", over: Self.base)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("each problem names its line and key, past multi-line strings, arrays and dotted keys")
    func linesAndKeys() {
        let text = """
            # comment with key = "value"
            [idle]
            notice = \"\"\"
            spreads = "x"
            \"\"\"
            countdown = "ten"
            [links]
            allow = [
              "https://a/*",
            ]
            follow = "web"
            layout.spreads = "triple"
            [layout]
            "scroll" = "sideways"
            """
        #expect(
            problems(text) == [
                "p.toml:6: idle.countdown: needs a whole number, not a string",
                "p.toml:11: links.follow: must be one of allow-list, internal, none, qr, not \"web\"",
                "p.toml:12: links.layout.spreads: unknown key",
                "p.toml:14: layout.scroll: must be one of continuous, per-spread, not \"sideways\"",
            ])
    }

    @Test("a syntax error names its line; a good file sets what it says; the command line wins")
    func syntaxValuesAndOverrides() throws {
        #expect(problems("[layout]\nspreads = \"double\n").first?.hasPrefix("p.toml:2: not valid TOML") == true)
        var base = Self.base
        base.overrides = ["start.page": .integer(5)]
        let configuration = try PolicyFile.parse(
            "[layout]\nspreads = \"double\"\n[start]\npage = 2\n[zoom]\nmax = 3\n[components]\nsmartZoom = false\n",
            path: "p.toml", over: base)
        #expect(configuration.spreadMode == .double)
        #expect(configuration.startPage == 4, "--page 5 wins over start.page = 2")
        #expect(configuration.maximumZoom == 3)
        #expect(!configuration.enables("smartZoom"))
        #expect(configuration.enables("fastScroll"))
    }

    @Test("the [pull] keys kiosk/lectern-pull reads: paths relative to the file, an https URL, sha256// pins")
    func pullKeys() throws {
        let pin = "sha256//" + String(repeating: "A", count: 43) + "="
        let configuration = try PolicyFile.parse(
            """
            [pull]
            manifest = "https://kiosks.example.org/lobby/manifest.json"
            directory = "srv"
            ca-file = "/etc/lectern/ca.pem"
            pinned-key = "\(pin);\(pin)"
            signature-key = "pull.pub"
            """, path: "/etc/lectern/p.toml", over: Self.base)
        #expect(configuration.pullManifest == "https://kiosks.example.org/lobby/manifest.json")
        #expect(configuration.pullDirectory == "/etc/lectern/srv")
        #expect(configuration.pullCAFile == "/etc/lectern/ca.pem")
        #expect(configuration.pullPinnedKey == "\(pin);\(pin)")
        #expect(configuration.pullSignatureKey == "/etc/lectern/pull.pub")
        #expect(Self.base.pullManifest == nil, "nothing is pulled by default")
        #expect(
            problems("[pull]\nmanifest = \"ftp://a/m.json\"\npinned-key = \"sha256//short\"\n") == [
                "p.toml:2: pull.manifest: needs an https:// (or http://) URL, not \"ftp://a/m.json\"",
                "p.toml:3: pull.pinned-key: needs sha256// and 44 characters of base64 (several separated by ;)",
            ])
    }

    @Test("the operator's contrast: a mode and whether images are recoloured; --contrast wins; a wrong mode is named")
    func contrast() throws {
        let text = "[accessibility]\ncontrast = \"yellow-on-black\"\nrecolor-images = true\n"
        let configuration = try PolicyFile.parse(text, path: "p.toml", over: Self.base)
        #expect(configuration.defaultContrast == Contrast(.yellowOnBlack, recolorsImages: true))
        #expect(Self.base.defaultContrast == .normal, "normal when the file says nothing")
        var base = Self.base
        base.overrides = ["accessibility.contrast": .string("high")]
        let overridden = try PolicyFile.parse(text, path: "p.toml", over: base)
        #expect(overridden.defaultContrast == Contrast(.high, recolorsImages: true))
        #expect(
            problems("[accessibility]\ncontrast = \"dark\"\n") == [
                "p.toml:2: accessibility.contrast: must be one of high, invert, normal, yellow-on-black, not \"dark\""
            ])
    }

    @Test("[accessibility] panel names what the panel offers; a name it does not know is a problem on its line")
    func accessibilityPanel() throws {
        #expect(
            problems("[accessibility]\npanel = [\"contrast\", \"speak\"]\n") == [
                "p.toml:2: accessibility.panel: \"speak\" is not one of read-aloud, contrast, large-print, text-size, lower, more-time"
            ])
        let configuration = try PolicyFile.parse(
            "[accessibility]\npanel = [\"more-time\", \"contrast\"]\n", path: "p.toml", over: Self.base)
        #expect(configuration.accessibilityPanelItems == ["more-time", "contrast"])
    }

    @Test("[keypad] takes lists of key names; a name it does not know is a problem on its line")
    func keypad() throws {
        #expect(
            problems("[keypad]\nnext = [\"KP_2\", \"Kp_8\"]\nback = \"KP_0\"\n") == [
                "p.toml:2: keypad.next: \"Kp_8\" is not a key name (KP_0…KP_9, Up, Down, Left, Right, Return, Escape, space, F1…F12, Help, asterisk, XF86AudioRaiseVolume, a…z, 0…9)",
                "p.toml:3: keypad.back: needs a list of key names, not a string",
            ])
        let configuration = try PolicyFile.parse(
            "[keypad]\nnext = [\"F2\", \"space\"]\n", path: "p.toml", over: Self.base)
        #expect(configuration.keypadNext == [.other(0xFFBF), .space])
        #expect(configuration.keypadKeys.command(for: .other(0xFFBF), isFocusShown: false) == .next)
        #expect(configuration.keypadKeys.command(for: .keypad(8), isFocusShown: false) == .previous, "the default")
    }
}
