import LecternCore
import LecternRender
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// The accessibility button and its panel through the test compositor: the symbol on screen at
/// the bottom left, a tap opens the panel, its rows act (contrast, more time, read aloud), and
/// nothing under them is touched.
@Suite("Accessibility panel", .serialized)
struct AccessibilityPanelTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    static func centre(_ box: PixelBox) -> (Double, Double) {
        (Double(box.x + box.width / 2), Double(box.y + box.height / 2))
    }

    @Test("the policy's accessibility.panel says which rows the panel offers, in its order; Close comes last")
    func rowsFromThePolicy() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(LecternHarness.fixture("colors-8pages.pdf"))\"\n[accessibility]\npanel = [\"more-time\", \"contrast\"]\n"
        )
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let button = try #require(lectern.status.accessibilityButton)
        lectern.tap(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel == ["More time", "Contrast: normal", "Close"])
        try lectern.stop()
    }

    @Test("the button is drawn at the bottom left, at least 9 mm; a tap opens the panel and taps on its rows act")
    func buttonAndRows() throws {
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "30"])
        #expect(lectern.settle())
        let button = try #require(lectern.status.accessibilityButton)
        #expect(button.x < 40 && button.maxY > 620, "bottom left, above where the scrubber shows: \(button)")
        #expect(Double(button.width) * 25.4 / 96 >= 9, "at least 9 mm wide on a 96 dpi screen")
        let commit = try #require(lectern.lastCommit)
        let (cx, cy) = Self.centre(button)
        let disc = commit.pixel(x: button.x + 10, y: Int(cy))
        #expect(disc & 0xFF_FFFF == 0x1D_5FAF, "the blue disc: \(String(disc, radix: 16))")
        let head = commit.pixel(x: Int(cx), y: button.y + Int(0.24 * Double(button.height)))
        #expect(head & 0xFF_FFFF == 0xFF_FFFF, "the figure's head, white: \(String(head, radix: 16))")
        #expect(lectern.status.accessibilityPanel == nil)

        lectern.tap(x: cx, y: cy)
        #expect(lectern.settle())
        let rows = try #require(lectern.status.accessibilityPanel)
        #expect(rows == ["Read aloud", "Contrast: normal", "Large print", "Lower the page", "More time", "Close"])
        #expect(lectern.dominantPage == 1, "the tap did nothing to the page")

        // The rows stack up from just above the button, the first at the top.
        func row(_ index: Int) -> (Double, Double) {
            let height = Scene.Accessibility.rowHeight + 4
            return (Double(button.x + 100), Double(button.y - 8 - (rows.count - index) * height + height / 2))
        }
        lectern.tap(x: row(1).0, y: row(1).1)
        #expect(lectern.settle())
        #expect(lectern.app.contrast == Contrast(.invert), "the next contrast")
        #expect(lectern.status.accessibilityPanel?[1] == "Contrast: inverted")
        #expect(lectern.status.isAccessibilityInUse)
        let deadline = try #require(lectern.status.idleResetDeadline)
        #expect(abs(deadline - (lectern.clock.now + 300)) < 0.5, "accessibility mode waits ten times as long")

        lectern.tap(x: row(4).0, y: row(4).1)
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel?[4] == "More time: on")
        lectern.tap(x: row(5).0, y: row(5).1)
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel == nil, "Close")

        // The idle reset puts it all back.
        lectern.advance(by: try #require(lectern.status.idleResetDeadline) + 0.5 - lectern.clock.now)
        #expect(lectern.app.contrast == .normal)
        #expect(!lectern.status.isAccessibilityInUse)
        try lectern.stop()
    }

    @Test("a tap outside the open panel closes it and does nothing else: an edge tap does not turn the page")
    func tapOutsideCloses() throws {
        let lectern = try KioskHarness([Self.colors])
        #expect(lectern.settle())
        let button = try #require(lectern.status.accessibilityButton)
        lectern.tap(x: Self.centre(button).0, y: Self.centre(button).1)
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel != nil)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel == nil)
        #expect(lectern.dominantPage == 1)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "then taps act again")
        try lectern.stop()
    }

    @Test("the policy can hide the button")
    func hidden() throws {
        let policy = try PolicyTests.PolicyDirectory("document = \"\(Self.colors)\"\n[accessibility]\nbutton = false\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityButton == nil)
        try lectern.stop()
    }
}
