import Foundation
import LecternCore
import LecternPDF
import LecternTestSupport
import Testing

/// The operator's policy file, read at start and followed while the app runs (issue 14):
/// `KioskApp` in process against the test compositor, on the manual clock; the file is
/// written for real and inotify reports it.
@Suite("Policy file", .serialized)
struct PolicyTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let sample = LecternHarness.repository.appendingPathComponent("Sources/lectern/Resources/sample.pdf").path

    /// A fresh directory holding `lectern.toml` with `text`.
    final class PolicyDirectory {
        let url: URL
        var path: String { url.appendingPathComponent("lectern.toml").path }

        init(_ text: String) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-policy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try replace(with: text)
        }

        /// Writes a temporary file and renames it over the policy, as deploy tools and editors do.
        func replace(with text: String) throws {
            let temporary = url.appendingPathComponent(".lectern.toml.new")
            try text.write(to: temporary, atomically: false, encoding: .utf8)
            guard rename(temporary.path, path) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        }

        /// Rewrites the policy in place (truncate and write).
        func rewrite(with text: String) throws {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Waits for the app to see the file change, then lets the quiet period pass on the clock.
    func letPolicyApply(_ lectern: KioskHarness) -> Bool {
        let seen = lectern.wait { lectern.status.hasPendingFileChanges }
        lectern.advance(by: 0.3)
        return seen && !lectern.status.hasPendingFileChanges
    }

    @Test("a component disabled in the running kiosk's policy stops acting at once; enabled again, it acts")
    func componentDisabledLive() throws {
        let policy = try PolicyDirectory("document = \"\(Self.colors)\"\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.status.policyGeneration == 1, "the file was read at start")
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "a tap at the right edge turns the page")

        try policy.replace(with: "document = \"\(Self.colors)\"\n[components]\nfastScroll = false\n")
        #expect(letPolicyApply(lectern))
        #expect(lectern.status.policyGeneration == 2)
        lectern.tap(x: 1240, y: 360)
        lectern.advance(by: 0.4)
        #expect(lectern.dominantPage == 2, "fastScroll is off: the tap does not turn the page")
        #expect(lectern.page(atX: 500, y: 360) == 2)

        try policy.rewrite(with: "document = \"\(Self.colors)\"\n[components]\nfastScroll = true\n")
        #expect(letPolicyApply(lectern))
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(3), "on again (rewritten in place): the tap turns the page")
        #expect(lectern.page(atX: 500, y: 360) == 3)
        try lectern.stop()
    }

    @Test("a live change of cache-mb applies to the document on screen, not only to the next one")
    func cacheBudgetLive() throws {
        let policy = try PolicyDirectory("document = \"\(Self.colors)\"\ncache-mb = 64\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.status.tileCacheBudget == 64 << 20)

        try policy.replace(with: "document = \"\(Self.colors)\"\ncache-mb = 8\n")
        #expect(letPolicyApply(lectern))
        #expect(lectern.settle())
        #expect(lectern.status.documentReloads == 0, "the same document stays on screen")
        #expect(lectern.status.tileCacheBudget == 8 << 20)
        try lectern.stop()
    }

    @Test("a narrower page-turn zone and chrome 'never' apply at start, and the default zone again after a live change")
    func edgeWidthAndChrome() throws {
        let policy = try PolicyDirectory(
            "document = \"\(Self.colors)\"\n[page-turn]\nedge-width = 0.05\n[chrome]\nshow = \"never\"\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        lectern.tap(x: 1100, y: 360)  // inside the default fifth, outside 5 %
        lectern.advance(by: 0.4)
        #expect(lectern.dominantPage == 1, "outside the 5 % zone: no page turn")
        #expect(!lectern.status.isUserInterfaceVisible, "chrome 'never': a tap does not show it")
        lectern.tap(x: 1270, y: 360)
        #expect(lectern.waitForPage(2), "inside the 5 % zone: the page turns")

        try policy.replace(with: "document = \"\(Self.colors)\"\n[chrome]\nshow = \"always\"\n")
        #expect(letPolicyApply(lectern))
        #expect(lectern.status.isUserInterfaceVisible, "chrome 'always' shows it at once")
        #expect(lectern.page(atX: 640, y: 30) == nil, "the title bar covers the page's top")
        lectern.tap(x: 1100, y: 360)
        #expect(lectern.waitForPage(3), "the default zone again: x 1100 turns the page")
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.4)
        #expect(lectern.status.isUserInterfaceVisible, "a tap does not hide the 'always' chrome")
        try lectern.stop()
    }

    @Test("the links policy changed live: web links shown, then not, then only those allowed")
    func linksPolicyLive() throws {
        let pdf = try LecternPDF.PDFDocument(path: Self.sample)
        let web = try #require(try pdf.links(page: 5).first { $0.target == .uri("https://mupdf.com") })
        let point = TouchTests.onScreen((web.rect.minX + web.rect.maxX) / 2, (web.rect.minY + web.rect.maxY) / 2)
        let policy = try PolicyDirectory("document = \"\(Self.sample)\"\n[start]\npage = 6\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        lectern.tap(x: point.x, y: point.y)
        #expect(lectern.settle())
        #expect(lectern.status.notice?.contains("https://mupdf.com") == true, "by default a web link is shown")
        lectern.tap(x: 640, y: 100)  // the next touch takes the notice and its QR code away
        lectern.advance(by: 0.4)
        #expect(lectern.status.notice == nil)

        try policy.replace(with: "document = \"\(Self.sample)\"\n[start]\npage = 6\n[links]\nfollow = \"internal\"\n")
        #expect(letPolicyApply(lectern))
        lectern.tap(x: point.x, y: point.y)
        lectern.advance(by: 0.4)
        #expect(lectern.status.notice == nil, "internal links only: the web link does nothing")

        try policy.replace(
            with:
                "document = \"\(Self.sample)\"\n[start]\npage = 6\n[links]\nfollow = \"allow-list\"\nallow = [\"https://mupdf.com*\"]\n"
        )
        #expect(letPolicyApply(lectern))
        lectern.tap(x: point.x, y: point.y)
        lectern.advance(by: 0.4)
        #expect(lectern.status.notice?.contains("https://mupdf.com") == true, "an allowed web link is shown")
        try lectern.stop()
    }

    @Test("an invalid policy (syntax, unknown key, wrong type, missing document) is kept out; the old one works on")
    func invalidPolicyKeptOut() throws {
        let good = "document = \"\(Self.colors)\"\n[components]\nfastScroll = false\n"
        let policy = try PolicyDirectory(good)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let bad: [(text: String, expected: String)] = [
            ("document = \"\(Self.colors)\"\n[layout\nspreads = \"double\"\n", "lectern.toml:2: not valid TOML"),
            ("document = \"\(Self.colors)\"\n\n[zoom]\nmaxx = 2\n", "lectern.toml:4: zoom.maxx: unknown key"),
            (
                "document = \"\(Self.colors)\"\n[components]\nfastScroll = \"yes\"\n",
                "lectern.toml:3: components.fastScroll: needs true or false"
            ),
            (
                "document = \"/nonexistent/menu.pdf\"\n",
                "lectern.toml:1: document: no such document: /nonexistent/menu.pdf"
            ),
        ]
        for (text, expected) in bad {
            let frames = lectern.status.framesCommitted
            try policy.replace(with: text)
            #expect(letPolicyApply(lectern))
            #expect(lectern.status.policyGeneration == 1, "not applied: \(text)")
            // The status holds each problem as it is logged: the file, the line, the key.
            #expect(
                lectern.status.policyError?.contains(expected) == true,
                "with its line and key: \(expected), not \(lectern.status.policyError ?? "no error")")
            #expect(lectern.status.framesCommitted == frames, "nothing of it reaches the screen")
            #expect(lectern.status.notice == nil)
            lectern.tap(x: 1240, y: 360)
            lectern.advance(by: 0.4)
            #expect(lectern.dominantPage == 1, "the old policy (fastScroll off) is still in force")
        }
        try policy.replace(with: "document = \"\(Self.colors)\"\n")
        #expect(letPolicyApply(lectern))
        #expect(lectern.status.policyGeneration == 2)
        #expect(lectern.status.policyError == nil)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "the fixed policy applies")
        try lectern.stop()
    }

    @Test("a layout change in the policy applies live and keeps the page")
    func layoutChangeLive() throws {
        let policy = try PolicyDirectory("document = \"\(Self.colors)\"\n[start]\npage = 3\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.pages(alongRow: 360) == [3])
        try policy.replace(with: "document = \"\(Self.colors)\"\n[start]\npage = 3\n[layout]\nspreads = \"double\"\n")
        #expect(letPolicyApply(lectern))
        #expect(lectern.pages(alongRow: 360) == [3, 4], "pairs, still at page 3: \(lectern.pages(alongRow: 360))")
        try lectern.stop()
    }
}
