import LecternCore
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// "More time" on the idle countdown (WCAG 2.2.1, EN 301 549): the countdown shows at least
/// 20 s before the reset with a large button; the button puts the kiosk in accessibility mode,
/// where the wait is `accessibility.idle-factor` times as long; the reset puts it back.
@Suite("More time", .serialized)
struct MoreTimeTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// Lectern on page 2 with a 30 s idle reset, at the moment the countdown shows.
    static func counting(_ options: [String] = []) throws -> KioskHarness {
        let lectern = try KioskHarness([colors, "--idle-reset", "30"] + options)
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline - 19.5 - lectern.clock.now)
        #expect(lectern.status.notice == "Returning to the start in 20 s — touch to stay")
        return lectern
    }

    @Test("the countdown's More time button is drawn in reach, and a press on it waits ten times as long")
    func moreTime() throws {
        let lectern = try Self.counting()
        let button = try #require(lectern.status.noticeButton, "the countdown has its button")
        #expect(button.width >= 200 && button.height >= 56, "a large target")
        #expect(button.maxY <= 720 && button.y >= 600, "along the bottom, within a seated visitor's reach")
        let commit = try #require(lectern.lastCommit)
        let inside = commit.pixel(x: button.x + 6, y: button.y + 6)
        #expect(inside & 0xFF_FFFF == 0xF2_F2F2, "the button is light on the dark banner")
        #expect(!lectern.status.isAccessibilityInUse)

        lectern.tap(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.notice == nil, "the notice goes")
        #expect(lectern.status.isAccessibilityInUse, "accessibility mode")
        let deadline = try #require(lectern.status.idleResetDeadline)
        #expect(abs(deadline - (lectern.clock.now + 300)) < 0.1, "30 s × the default factor 10")
        #expect(lectern.dominantPage == 2, "the press did nothing else")

        lectern.advance(by: deadline - 20.5 - lectern.clock.now)
        #expect(lectern.status.notice == nil, "no notice until 20 s before the longer reset")
        lectern.advance(by: 1)
        #expect(lectern.status.notice == "Returning to the start in 20 s — touch to stay")
        lectern.advance(by: 20)
        #expect(lectern.dominantPage == 1, "untouched, the reset comes")
        #expect(!lectern.status.isAccessibilityInUse, "and puts the operator's default back")
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        let next = try #require(lectern.status.idleResetDeadline)
        #expect(abs(next - (lectern.clock.now + 30)) < 0.1, "the next visitor has the normal wait")
        try lectern.stop()
    }

    @Test("a pointer moving onto More time does not take the countdown away; its click gives more time")
    func pointerClick() throws {
        let lectern = try Self.counting()
        let button = try #require(lectern.status.noticeButton)
        lectern.compositor.pointerEnter(x: 640, y: 300)
        lectern.compositor.pointerFrame()
        lectern.advance(by: 0.1)
        #expect(lectern.status.notice != nil, "the pointer's arrival leaves the countdown")
        lectern.click(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.isAccessibilityInUse, "the click reached the button")
        #expect(lectern.dominantPage == 2, "and did not turn the page under it (the right edge zone)")
        try lectern.stop()
    }

    @Test("a visitor's contrast is accessibility mode too: the longer wait, and the reset puts both back")
    func contrastIsAccessibilityMode() throws {
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "30"])
        #expect(lectern.settle())
        lectern.app.setContrast(Contrast(.yellowOnBlack))
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        #expect(lectern.status.isAccessibilityInUse)
        let deadline = try #require(lectern.status.idleResetDeadline)
        #expect(abs(deadline - (lectern.clock.now + 300)) < 0.1, "30 s × 10")
        lectern.advance(by: deadline + 0.5 - lectern.clock.now)
        #expect(lectern.dominantPage == 1)
        #expect(lectern.app.contrast == .normal, "the operator's contrast again")
        #expect(!lectern.status.isAccessibilityInUse)
        try lectern.stop()
    }

    @Test("a touch elsewhere during the countdown keeps the normal wait")
    func touchElsewhere() throws {
        let lectern = try Self.counting()
        lectern.tap(x: 640, y: 300)
        #expect(lectern.settle())
        #expect(lectern.status.notice == nil)
        #expect(!lectern.status.isAccessibilityInUse)
        let deadline = try #require(lectern.status.idleResetDeadline)
        #expect(abs(deadline - (lectern.clock.now + 30)) < 0.1)
        try lectern.stop()
    }

    @Test("the policy's idle factor sets how much longer accessibility mode waits")
    func policyFactor() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[idle]\nreset = 30\n[accessibility]\nidle-factor = 3\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline - 19.5 - lectern.clock.now)
        let button = try #require(lectern.status.noticeButton)
        lectern.tap(x: Double(button.x + 10), y: Double(button.y + 10))
        #expect(lectern.settle())
        let longer = try #require(lectern.status.idleResetDeadline)
        #expect(abs(longer - (lectern.clock.now + 90)) < 0.1, "30 s × 3")
        try lectern.stop()
    }

    @Test("in Hebrew the countdown's More time button is at the banner's left end, and works there (issue 31)")
    func moreTimeMirrored() throws {
        _ = try ChromeLanguageTests.catalogs.get()
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "30", "--language", "he"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "the page turns as the document is bound, not as the chrome reads")
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline - 19.5 - lectern.clock.now)
        let button = try #require(lectern.status.noticeButton)
        #expect(button.x < 100 && button.width >= 200, "at the left end: \(button)")
        let commit = try #require(lectern.lastCommit)
        #expect(commit.pixel(x: button.x + 6, y: button.y + 6) & 0xFF_FFFF == 0xF2_F2F2, "drawn there")
        lectern.tap(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.notice == nil && lectern.status.isAccessibilityInUse)
        try lectern.stop()
    }
}
