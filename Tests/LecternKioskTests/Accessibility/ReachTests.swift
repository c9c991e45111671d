import Foundation
import LecternCore
import LecternRender
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// Issue 30 item 4 through the test compositor: on a screen mounted high, the essential controls
/// move down into reach (380 to 1220 mm above the floor); on one mounted low they move up; `--check-config` warns of a mounting that leaves no room for them.
@Suite("Controls in reach", .serialized)
struct ReachTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")
    /// A 32-inch 1280 × 720 screen.
    static let screen = (width: 708, height: 398)
    /// Surface units per millimetre, down the screen.
    static let perMillimetre = 720 / Double(screen.height)

    static func policy(bottom: Int) throws -> PolicyTests.PolicyDirectory {
        try PolicyTests.PolicyDirectory(
            "document = \"\(colors)\"\n[screen]\nwidth-mm = \(screen.width)\nheight-mm = \(screen.height)\n"
                + "[mount]\nbottom-mm = \(bottom)\n")
    }

    /// How high above the floor `y` (surface units) is on a screen whose bottom edge is `bottom` mm up.
    static func aboveFloor(_ y: Int, bottom: Int) -> Double {
        Double(bottom) + Double(720 - y) / perMillimetre
    }

    static func expectInReach(_ box: PixelBox, bottom: Int, _ what: String) {
        let high = aboveFloor(box.y, bottom: bottom), low = aboveFloor(box.maxY, bottom: bottom)
        #expect(
            high <= Reach.highest && low >= Reach.lowest - 1,
            "\(what) \(box) is \(Int(low))–\(Int(high)) mm above the floor")
    }

    static func centre(_ box: PixelBox) -> (x: Double, y: Double) {
        (Double(box.x + box.width / 2), Double(box.y + box.height / 2))
    }

    @Test(
        "mounted high, the title bar, its buttons and the accessibility panel are in reach; the page stays where it was"
    )
    func mountedHigh() throws {
        // The bottom edge at 1000 mm: the top 178 mm (323 units) are above 1220 mm.
        let policy = try Self.policy(bottom: 1000)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let metrics = lectern.status.chromeMetrics
        let outOfReach = Int((178 * Self.perMillimetre).rounded(.up))
        #expect(metrics.reachTop == outOfReach && metrics.reachBottom == 0, "\(metrics)")
        let before = try #require(lectern.lastCommit)
        let pageTop = try #require(lectern.status.pagesOnScreen.first?.frame.y)

        lectern.tap(x: 640, y: 500)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible)
        #expect(lectern.settle())
        let after = try #require(lectern.lastCommit)
        let title = Scene.Chrome.titleBar(width: 1280, height: 720, metrics: metrics)
        Self.expectInReach(title, bottom: 1000, "the title bar")
        #expect(after.pixel(x: 640, y: 20) == before.pixel(x: 640, y: 20), "nothing drawn out of reach at the top")
        #expect(after.pixel(x: 640, y: 330) != before.pixel(x: 640, y: 330), "the title bar, 8 units into reach")
        let pages = Scene.Chrome.buttonBox(0, metrics: metrics)
        Self.expectInReach(pages, bottom: 1000, "the Pages button")
        Self.expectInReach(
            Scene.Chrome.scrubberBar(width: 1280, height: 720, metrics: metrics), bottom: 1000, "the scrubber")

        // The panel opens beside the button: above it, it would reach out of reach.
        let button = try #require(lectern.status.accessibilityButton)
        Self.expectInReach(button, bottom: 1000, "the accessibility button")
        lectern.tap(x: Self.centre(button).x, y: Self.centre(button).y)
        #expect(lectern.settle())
        let rows = try #require(lectern.status.accessibilityPanel)
        #expect(rows == ["Read aloud", "Contrast: normal", "Large print", "Lower the page", "More time", "Close"])
        let scene = Scene.Accessibility(rows: rows, bottomInset: 720 - button.maxY - 16, metrics: metrics)
        let boxes = scene.rowBoxes(height: 720)
        #expect(scene.buttonBox(height: 720) == button, "the panel's layout as the app has it")
        for (row, box) in zip(rows, boxes) { Self.expectInReach(box, bottom: 1000, "the row \(row)") }
        #expect(boxes.allSatisfy { $0.x > button.maxX }, "beside the button")
        lectern.tap(x: Self.centre(boxes[4]).x, y: Self.centre(boxes[4]).y)
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel?[4] == "More time: on", "a row acts where it is drawn")
        #expect(lectern.status.pagesOnScreen.first?.frame.y == pageTop, "the page did not move")
        try lectern.stop()
    }

    @Test("mounted low, the scrubber, the accessibility button and the keyboard move up")
    func mountedLow() throws {
        // The bottom edge at 250 mm: the lowest 130 mm (236 units) are below 380 mm.
        let policy = try Self.policy(bottom: 250)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let metrics = lectern.status.chromeMetrics
        #expect(metrics.reachTop == 0 && metrics.reachBottom == 236, "\(metrics)")
        let button = try #require(lectern.status.accessibilityButton)
        Self.expectInReach(button, bottom: 250, "the accessibility button")
        Self.expectInReach(
            Scene.Chrome.scrubberBar(width: 1280, height: 720, metrics: metrics), bottom: 250, "the scrubber")
        lectern.tap(x: Self.centre(button).x, y: Self.centre(button).y)
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel?.count == 6)
        lectern.tap(x: Self.centre(button).x, y: Self.centre(button).y)
        #expect(lectern.settle())

        // Search's keyboard sits above the part out of reach; its Done key hides it.
        lectern.tap(x: 640, y: 300)
        lectern.advance(by: 0.35)
        let search = Scene.Chrome.buttonBox(1, metrics: metrics)
        lectern.tap(x: Self.centre(search).x, y: Self.centre(search).y)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.isKeyboardShown == true)
        let keyboard = OnScreenKeyboardLayout(width: 1280, height: 720 - 236, keyHeight: Double(metrics.keyHeight))
        let done = try #require(keyboard.keys.first { $0.action == .done })
        Self.expectInReach(PixelBox(enclosing: done.frame), bottom: 250, "the keyboard's Done")
        lectern.tap(x: done.frame.midX, y: done.frame.midY)
        #expect(lectern.settle())
        #expect(
            lectern.status.navigation.search?.isKeyboardShown == false, "Done, where it is drawn, hides the keyboard")
        try lectern.stop()
    }

    @Test("lectern --check-config warns when the mounting leaves no room for the controls in reach")
    func checkConfigWarns() throws {
        func check(bottom: Int) throws -> (status: Int32, said: String) {
            let policy = try Self.policy(bottom: bottom)
            defer { withExtendedLifetime(policy) {} }
            return try PhysicalScreenStatusTests.checkConfig(policy.path)
        }
        let high = try check(bottom: 1250)
        #expect(high.status == 0, "a warning, not a problem: \(high.said)")
        #expect(high.said.contains("warning: mount: the screen mounted 1250 mm above the floor"), "\(high.said)")
        #expect(high.said.contains("the whole screen is above 1220 mm"), "\(high.said)")
        let low = try check(bottom: 0)
        #expect(low.said.isEmpty, "no mounting given: nothing to say: \(low.said)")
        let fine = try check(bottom: 800)
        #expect(fine.said.isEmpty, "\(fine.said)")
    }
}
