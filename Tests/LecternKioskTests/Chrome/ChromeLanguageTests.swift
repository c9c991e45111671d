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
        process.executableURL = URL(fileURLWithPath: "/\(root)/po/compile")
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
}
