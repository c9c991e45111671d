import Foundation
import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// Issue 31: a document in several languages (`[[shelf]] documents = { en = …, de = … }`): the
/// language button opens the other version on the same page where the page counts match.
@Suite("One document in several languages", .serialized)
struct ShelfLanguageTests {
    /// A policy whose one entry has `de` as `german` (a fixture), English colors-8pages.pdf.
    static func lectern(german: String) throws -> KioskHarness {
        _ = try ChromeLanguageTests.catalogs.get()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-versions-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let policy = directory.appendingPathComponent("lectern.toml").path
        try """
        languages = ["en", "de"]
        [[shelf]]
        documents = { en = "\(LecternHarness.fixture("colors-8pages.pdf"))", de = "\(LecternHarness.fixture(german))" }
        """.write(toFile: policy, atomically: true, encoding: .utf8)
        let lectern = try KioskHarness(["--config", policy, "--no-accessibility-button"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        return lectern
    }

    /// Shows the chrome and taps the language button (the third: Pages, Search, Deutsch).
    static func switchLanguage(_ lectern: KioskHarness) {
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        let button = Scene.Chrome.buttonBox(2)
        lectern.tap(x: Double(button.x + 20), y: Double(button.y + 20))
        lectern.settle()
    }

    @Test("German opens the German version on the same page: both have 8 pages")
    func sameCountSamePage() throws {
        let lectern = try Self.lectern(german: "colors-rtl-8pages.pdf")
        lectern.type(page: 3)
        #expect(lectern.waitForPage(3))
        #expect(!lectern.status.readsRightToLeft)
        Self.switchLanguage(lectern)
        #expect(lectern.status.language == .german)
        #expect(lectern.wait { lectern.status.documentReloads == 1 })
        #expect(lectern.settle())
        #expect(lectern.status.readsRightToLeft, "the German version (the right-to-left fixture) is shown")
        #expect(lectern.dominantPage == 3, "on the same page")
        try lectern.stop()
    }

    @Test("a version with another page count opens at the start page")
    func otherCountStartPage() throws {
        let lectern = try Self.lectern(german: "letter-6pages.pdf")
        lectern.type(page: 5)
        #expect(lectern.waitForPage(5))
        Self.switchLanguage(lectern)
        #expect(lectern.wait { lectern.status.documentReloads == 1 })
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 6))
        #expect(lectern.dominantPage == 1, "6 pages, not 8: the start page")
        try lectern.stop()
    }
}
