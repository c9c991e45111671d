import Foundation
import LecternCore
import LecternRender
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// "Lower the page" in the accessibility panel, for a visitor in a wheelchair: the reading area
/// (the page and the chrome) moves down below a band at the top of the window, taps land where
/// things are drawn, and the idle reset raises it again.
@Suite("Lower the page")
struct LowerTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// Opens the panel and taps its "Lower the page" row (or "Raise the page").
    static func tapLower(_ lectern: KioskHarness) throws {
        let button = try #require(lectern.status.accessibilityButton)
        let lowering = Double(lectern.status.lowering)  // (taps are in the window; the status below the band)
        lectern.tap(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2) + lowering)
        #expect(lectern.settle())
        let rows = try #require(lectern.status.accessibilityPanel)
        let index = try #require(rows.firstIndex { $0.hasSuffix("the page") }, "\(rows)")
        // The panel's layout as the app has it (ReachTests checks that it is).
        let height = 720 - lectern.status.lowering
        let scene = Scene.Accessibility(
            rows: rows, bottomInset: height - button.maxY - 16, metrics: lectern.status.chromeMetrics)
        let box = scene.rowBoxes(height: height)[index]
        lectern.tap(
            x: Double(box.x + box.width / 2), y: Double(box.y + box.height / 2 + lectern.status.lowering))
        #expect(lectern.settle())
    }

    @Test(
        "Lower moves the page and the chrome down a third of the window (mounting unknown); taps follow; the reset raises it"
    )
    func lowerAndRaise() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[idle]\nreset = 60\n[accessibility]\nidle-factor = 1\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let before = try #require(lectern.lastCommit)
        let pageTop = try #require(lectern.status.pagesOnScreen.first?.frame.y)
        let background = before.pixel(x: 5, y: 5)
        try Self.tapLower(lectern)
        #expect(lectern.status.lowering == 240, "a third of 720")
        #expect(lectern.status.accessibilityPanel == nil, "the panel closed")
        #expect(lectern.status.isAccessibilityInUse)
        let after = try #require(lectern.lastCommit)
        #expect(after.height == 720, "the window is as tall as before")
        // The band is the background; the page starts 240 pixels lower than it did, in a
        // reading area 480 high (the page fitted to it).
        #expect((0..<240).allSatisfy { after.pixel(x: 640, y: $0) == background }, "the band")
        let lowered = try #require(lectern.status.pagesOnScreen.first?.frame)
        #expect(lowered.y + 240 > pageTop && lowered.maxY + 240 <= 720, "\(lowered)")
        #expect(lectern.dominantPage == 1)
        // A tap in the right edge zone, where it is drawn (below the band), turns the page.
        lectern.tap(x: 1270, y: 600)
        #expect(lectern.waitForPage(2))
        // Raise, from the panel (its button is where it was drawn, below the band).
        try Self.tapLower(lectern)
        #expect(lectern.status.lowering == 0)
        try Self.tapLower(lectern)
        #expect(lectern.status.lowering == 240)
        // The idle reset raises it.
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline + 0.5 - lectern.clock.now)
        #expect(lectern.status.lowering == 0)
        #expect(lectern.status.pagesOnScreen.first?.frame.y == pageTop)
        try lectern.stop()
    }

    @Test("mounted high, Lower takes away the part above 1220 mm")
    func mountedHigh() throws {
        // A 32" screen (398 mm high) whose bottom edge is 1000 mm up: its top 178 mm are out of reach.
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[screen]\nwidth-mm = 708\nheight-mm = 398\n[mount]\nbottom-mm = 1000\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        try Self.tapLower(lectern)
        #expect(lectern.status.lowering == Int((178.0 * 720 / 398).rounded(.up)), "\(lectern.status.lowering)")
        #expect(lectern.status.chromeMetrics.reachTop == 0, "below the band, all of it is in reach")
        try lectern.stop()
    }
}
