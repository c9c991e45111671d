import Foundation
import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// The chrome's language (issue 31): the policy's default, the title bar's language button, the
/// idle reset back to the default, and `lectern ctl status`.
@Suite("Chrome language", .serialized)
struct ChromeLanguageTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// The shipped catalogs, compiled by po/compile once, put in force.
    static let catalogs: Result<String, CatalogError> = {
        let root = #filePath.split(separator: "/").dropLast(4).joined(separator: "/")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-locale-\(UUID())")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/\(root)/kiosk/po/compile")
        process.arguments = [directory.path]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return .failure(CatalogError(reason: "\(error)"))
        }
        guard process.terminationStatus == 0 else { return .failure(CatalogError(reason: "po/compile failed")) }
        guard GettextTranslator.install(catalogs: directory.path) else { return .failure(CatalogError(reason: "bind")) }
        return .success(directory.path)
    }()

    struct CatalogError: Error { var reason: String }

    /// The reader with the chrome shown.
    static func withChrome(_ arguments: [String]) throws -> KioskHarness {
        _ = try catalogs.get()
        let lectern = try KioskHarness([colors, "--no-accessibility-button"] + arguments)
        #expect(lectern.settle())
        #expect(lectern.wait { lectern.status.pageSizesKnown })
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible)
        return lectern
    }

    /// The title bar's pixels, a sample of them.
    static func titleBar(_ lectern: KioskHarness) throws -> [UInt32] {
        let commit = try #require(lectern.lastCommit)
        let bar = Scene.Chrome.titleBar(width: 1280, height: 720)
        return stride(from: bar.x, to: bar.maxX, by: 3).flatMap { x in
            stride(from: bar.y, to: bar.maxY, by: 3).map { y in commit.pixel(x: x, y: y) }
        }
    }

    @Test("--language de: the title bar's buttons and the page's position in German, and so after the idle reset")
    func policyLanguage() throws {
        let lectern = try Self.withChrome(["--language", "de", "--idle-reset", "30"])
        #expect(lectern.status.language == .german)
        #expect(lectern.status.pagePosition == "Seite 1 von 8")
        #expect(lectern.status.navigation.titleButtons == ["Seiten", "Suche"], "no language button: one language")
        lectern.advance(by: 31)
        #expect(lectern.status.language == .german)
        try lectern.stop()
    }

    @Test(
        "the language button, in the next language's own name, switches the chrome and the keyboard; the idle reset brings back the default"
    )
    func languageButton() throws {
        let lectern = try Self.withChrome(["--languages", "en,de,ar", "--idle-reset", "30"])
        #expect(lectern.status.language == .english)
        #expect(lectern.status.navigation.titleButtons == ["Pages", "Search", "Deutsch"])
        let english = try Self.titleBar(lectern)
        let frames = lectern.status.framesCommitted
        let button = Scene.Chrome.buttonBox(2)
        lectern.tap(x: Double(button.x + 20), y: Double(button.y + 20))
        lectern.settle()
        #expect(lectern.status.language == .german)
        #expect(lectern.status.navigation.titleButtons == ["Seiten", "Suche", "العربية"])
        #expect(lectern.status.pagePosition == "Seite 1 von 8")
        #expect(lectern.status.framesCommitted > frames, "a new frame")
        #expect(try Self.titleBar(lectern) != english, "the title bar is drawn in German")
        // The search's keyboard in German.
        let search = Scene.Chrome.buttonBox(1)
        lectern.tap(x: Double(search.x + 20), y: Double(search.y + 20))
        lectern.settle()
        #expect(lectern.status.navigation.search?.isKeyboardShown == true)
        #expect(lectern.status.navigation.keyboardKeys.contains("Fertig"))
        #expect(!lectern.status.navigation.keyboardKeys.contains("Done"))
        // Nobody touches: the idle reset, and the chrome is in English again.
        lectern.advance(by: 31)
        #expect(lectern.status.language == .english)
        #expect(lectern.status.pagePosition == "Page 1 of 8")
        try lectern.stop()
    }

    @Test("lectern ctl status reports the chrome's language")
    func controlStatus() throws {
        _ = try Self.catalogs.get()
        let kiosk = try ControlSocketTests.Kiosk([Self.colors, "--language", "he"])
        let status = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(status.language == "he")
    }

    /// How many pixels of `box` in the last frame are the chrome's text colour (the ink of words).
    static func ink(_ lectern: KioskHarness, in box: PixelBox) throws -> Int {
        let commit = try #require(lectern.lastCommit)
        let text = Palette.normal.text.argb & 0xFF_FFFF
        return stride(from: box.x, to: box.maxX, by: 2).reduce(0) { count, x in
            count
                + stride(from: box.y, to: box.maxY, by: 2).filter { commit.pixel(x: x, y: $0) & 0xFF_FFFF == text }
                .count
        }
    }

    /// Whether the middle of `box` in the last frame is a button's colour.
    static func isButton(_ lectern: KioskHarness, at box: PixelBox) throws -> Bool {
        let commit = try #require(lectern.lastCommit)
        let pixel = commit.pixel(x: box.x + 4, y: box.y + box.height / 2)
        return pixel & 0xFF_FFFF == Palette.normal.button.argb & 0xFF_FFFF
    }

    @Test(
        "in Arabic the chrome is mirrored: the title bar's buttons from the right, the title at the right and Close at the left of all pages; the page turns still follow the binding",
        arguments: ["en", "ar"])
    func mirroredInArabic(code: String) throws {
        let lectern = try Self.withChrome(["--language", code])
        let rightToLeft = code == "ar"
        let leftEnd = PixelBox(x: 8, y: 0, width: 128, height: 0),
            rightEnd = PixelBox(x: 1280 - 136, y: 0, width: 128, height: 0)
        let bar = Scene.Chrome.titleBar(width: 1280, height: 720)
        func column(_ end: PixelBox) -> PixelBox {
            PixelBox(x: end.x, y: bar.y + 8, width: end.width, height: bar.height - 16)
        }
        // The first button (Pages) at the bar's start: its left end, or its right end in Arabic.
        #expect(try Self.isButton(lectern, at: column(rightToLeft ? rightEnd : leftEnd)))
        #expect(try !Self.isButton(lectern, at: column(rightToLeft ? leftEnd : rightEnd)))
        // Where the reader is, at the bar's other end.
        #expect(try Self.ink(lectern, in: column(rightToLeft ? leftEnd : rightEnd)) > 20)
        // The scrubber's knob on page 1: at the track's start, its right end in Arabic.
        let track = Scene.Chrome.scrubberTrack(width: 1280, height: 720)
        let knob = PixelBox(x: (rightToLeft ? track.maxX : track.x) - 8, y: track.y - 10, width: 16, height: 24)
        #expect(try Self.ink(lectern, in: knob) > 20, "the scrubber starts at the bar's start")
        // All pages: its title at the start of its header, Close at the end.
        let pages = PixelBox(x: rightToLeft ? 1280 - 136 : 8, y: bar.y + 8, width: 128, height: bar.height - 16)
        lectern.tap(x: Double(pages.x + 20), y: Double(pages.y + 20))
        lectern.settle()
        #expect(lectern.status.navigation.isGridOpen)
        let header = Scene.ThumbnailSheet.header(width: 1280, height: 720)
        let title = PixelBox(
            x: rightToLeft ? 1280 - 24 - 160 : 24, y: header.y + 8, width: 160, height: header.height - 16)
        #expect(try Self.ink(lectern, in: title) > 20, "the title at the header's start")
        #expect(try Self.isButton(lectern, at: column(rightToLeft ? leftEnd : rightEnd)), "Close at the header's end")
        // Close closes it, where it is drawn.
        let close = column(rightToLeft ? leftEnd : rightEnd)
        lectern.tap(x: Double(close.x + 20), y: Double(close.y + 20))
        lectern.settle()
        #expect(!lectern.status.navigation.isGridOpen)
        // A tap at the right edge still turns to the next page: the document is bound on the left.
        lectern.tap(x: 1260, y: 400)
        #expect(lectern.waitForPage(2))
        try lectern.stop()
    }

    /// A one-page PDF with a line of Helvetica in WinAnsi: "Größe und Breite".
    static func germanDocument() throws -> String {
        var pdf = GeneratedPDF()
        pdf.add("<< /Type /Catalog /Pages 2 0 R >>")
        pdf.add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.add(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
        )
        // ö is 0xF6 and ß 0xDF in WinAnsiEncoding.
        pdf.addStream("", Array("BT /F1 36 Tf 72 700 Td (Gr".utf8) + [0xF6, 0xDF] + Array("e und Breite) Tj ET".utf8))
        pdf.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-groesse-\(UUID()).pdf").path
        try pdf.write(to: path)
        return path
    }

    @Test("a German search typed on the German keyboard (ö and ß on their keys) finds \"Größe\"")
    func germanKeyboardSearch() throws {
        _ = try Self.catalogs.get()
        let lectern = try KioskHarness([try Self.germanDocument(), "--language", "de"])
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        let search = Scene.Chrome.buttonBox(1)
        lectern.tap(x: Double(search.x + 20), y: Double(search.y + 20))
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.isKeyboardShown == true)
        let keys = lectern.status.navigation.keyboardKeys
        #expect(["z", "ü", "ö", "ä", "ß", "Leerzeichen", "Fertig"].allSatisfy(keys.contains), "\(keys)")
        let metrics = lectern.status.chromeMetrics
        let keyboard = OnScreenKeyboardLayout(
            width: 1280, height: 720 - Double(metrics.reachBottom), keyHeight: Double(metrics.keyHeight),
            language: .german)
        #expect(keyboard.keys.map(\.label) == keys, "the keys where the kiosk has them")
        for character in "größe" {
            let key = try #require(keyboard.keys.first { $0.action == .character(character) })
            lectern.tap(x: key.frame.midX, y: key.frame.midY)
        }
        #expect(lectern.wait { lectern.status.navigation.search?.isSearching == false })
        #expect(lectern.status.navigation.search?.query == "größe")
        #expect(
            lectern.status.navigation.search?.hitCount == 1, "\(String(describing: lectern.status.navigation.search))")
        try lectern.stop()
    }

    @Test("the Arabic and Hebrew keyboards have their letters, and backspace and Done at the left")
    func rightToLeftKeyboards() {
        for language in [Language.arabic, .hebrew] {
            let keyboard = OnScreenKeyboardLayout(width: 1280, height: 720, language: language)
            let letters = keyboard.keys.compactMap { key -> Character? in
                if case .character(let c) = key.action, c.unicodeScalars.first!.properties.isAlphabetic { return c }
                return nil
            }
            let script: ClosedRange<UInt32> = language == .arabic ? 0x0600...0x06FF : 0x0590...0x05FF
            #expect(letters.count >= 27 && letters.allSatisfy { script.contains($0.unicodeScalars.first!.value) })
            let backspace = keyboard.keys.first { $0.action == .backspace }!,
                done = keyboard.keys.first { $0.action == .done }!
            let space = keyboard.keys.first { $0.action == .character(" ") }!
            #expect(backspace.frame.maxX < 640 && done.frame.maxX <= space.frame.minX)
        }
        let english = OnScreenKeyboardLayout(width: 1280, height: 720)
        #expect(english.keys.first { $0.action == .backspace }!.frame.minX > 640)
    }

    @Test("the accessibility button is at the bottom left, and at the bottom right in Hebrew", arguments: ["en", "he"])
    func accessibilityButtonMirrored(code: String) throws {
        _ = try Self.catalogs.get()
        let lectern = try KioskHarness([Self.colors, "--language", code])
        #expect(lectern.settle())
        let button = try #require(lectern.status.accessibilityButton)
        #expect(code == "he" ? button.x > 640 : button.maxX < 640, "\(button)")
        try lectern.stop()
    }

    @Test("in Arabic the search bar is mirrored: its close button at the right end closes it")
    func searchBarMirrored() throws {
        let lectern = try Self.withChrome(["--language", "ar"])
        var metrics = ChromeMetrics.standard
        metrics.mirroredWidth = 1280
        let search = metrics.placed(Scene.Chrome.buttonBox(1))
        lectern.tap(x: Double(search.x + search.width / 2), y: Double(search.y + search.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search != nil, "the search bar is open")
        let close = Scene.SearchBar.closeButton(width: 1280, height: 720, metrics: metrics)
        #expect(close.x > 1100, "the close button is at the right end: \(close)")
        #expect(Scene.SearchBar.nextButton(width: 1280, height: 720, metrics: metrics).maxX < 200)
        lectern.tap(x: Double(close.x + close.width / 2), y: Double(close.y + close.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search == nil, "tapped where it is drawn, it closed the search")
        try lectern.stop()
    }

    @Test("in Hebrew the contents panel is at the right: its triangles open entries from the right, a tap goes there")
    func outlineMirrored() throws {
        _ = try Self.catalogs.get()
        var metrics = ChromeMetrics.standard
        metrics.mirroredWidth = 1280
        let hebrew = try KioskHarness([OutlineOnScreenTests.outline, "--language", "he"])
        #expect(hebrew.settle())
        #expect(hebrew.wait { hebrew.status.pageSizesKnown })
        hebrew.tap(x: 640, y: 360)
        hebrew.advance(by: 0.35)
        let contents = metrics.placed(Scene.Chrome.buttonBox(1))
        OutlineOnScreenTests.tap(hebrew, (Double(contents.x + 20), Double(contents.y + 20)))
        #expect(hebrew.status.navigation.isOutlineOpen)
        let panel = Scene.OutlinePanel.box(width: 1280, height: 720, metrics: metrics)
        #expect(panel.x > 640 && panel.maxX == 1280, "\(panel)")
        #expect(hebrew.page(atX: 1000, y: 300) == nil && hebrew.page(atX: 450, y: 300) == 1, "drawn over the right")
        // Part One's triangle, at the row's right end, opens it; Green, under it, goes to page 3.
        let rowHeight = Scene.OutlinePanel.rowHeight(metrics)
        func row(_ index: Int) -> Double { Double(panel.y + index * rowHeight + rowHeight / 2) }
        let triangle = Scene.OutlinePanel.disclosureEnd(in: panel, depth: 0, metrics: metrics) + 20
        OutlineOnScreenTests.tap(hebrew, (Double(triangle), row(1)))
        #expect(hebrew.status.navigation.outline.prefix(4) == ["Introduction", "Part One", "  Blue", "  Green"])
        OutlineOnScreenTests.tap(hebrew, (Double(panel.x + 60), row(3)))
        #expect(hebrew.waitForPage(3))
        try hebrew.stop()
    }

    @Test(
        "a kiosk that ends gives its thread back the language it spoke: a test's thread goes on to other tests"
    )
    func languageGivenBack() throws {
        // The kiosk's translator (installed once per process), as the thread's last test left it.
        _ = GettextTranslator.install(catalogs: nil)
        Translation.language = .german
        defer { Translation.language = .english }
        let lectern = try KioskHarness([Self.colors, "--language", "he"])
        #expect(lectern.settle())
        #expect(Translation.language == .hebrew, "the kiosk speaks Hebrew on its thread")
        try lectern.stop()
        #expect(Translation.language == .german)
    }
}
