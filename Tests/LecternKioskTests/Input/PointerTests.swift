import Foundation
import LecternTestSupport
import Testing

/// Real `wl_pointer` events to `KioskApp` in this process: the left button acts as one finger, the
/// wheel turns spreads (per-spread) or scrolls (continuous).
@Suite("Pointer through the test compositor")
struct PointerTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")
    let continuous = ["--scroll", "continuous", "--direction", "vertical"]

    /// The first row where page `page` shows in column `x` of the last commit.
    func top(ofPage page: Int, _ lectern: KioskHarness, x: Int = 100) -> Int? {
        guard let commit = lectern.lastCommit else { return nil }
        return (0..<commit.height).first { LecternHarness.page(ofColor: commit.pixel(x: x, y: $0)) == page }
    }

    @Test(
        "a click in the right edge zone turns the page, in the left zone turns back",
        arguments: LecternHarness.seatVersions)
    func clickEdgeTurnsPage(seatVersion: Int32) throws {
        let lectern = try KioskHarness([colors], seatVersion: seatVersion)
        #expect(lectern.settle())
        lectern.compositor.pointerEnter(x: 640, y: 360)
        lectern.click(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 2)
        lectern.click(x: 40, y: 360)
        #expect(lectern.waitForPage(1), "view state: \(lectern.viewState ?? "none")")
        try lectern.stop()
    }

    @Test(
        "a click-drag in continuous vertical mode scrolls by the drag distance", arguments: LecternHarness.seatVersions)
    func clickDragScrolls(seatVersion: Int32) throws {
        let lectern = try KioskHarness([colors] + continuous, width: 600, height: 1200, seatVersion: seatVersion)
        #expect(lectern.settle())
        let top2 = top(ofPage: 2, lectern)
        let before = try #require(top2, "page 2 below page 1: \(lectern.pages(alongColumn: 100))")
        let c = lectern.compositor
        c.pointerEnter(x: 300, y: 900)
        c.pointerFrame()
        lectern.pump()
        c.pointerButton(LecternHarness.leftButton, pressed: true)
        c.pointerFrame()
        lectern.pump()
        // 200 px up, slowly, and a pause before the release so that nothing flings.
        for step in 1...10 {
            c.pointerMotion(x: 300, y: 900 - 20 * Double(step))
            c.pointerFrame()
            lectern.pump(.milliseconds(30))
        }
        lectern.pump(.milliseconds(200))
        c.pointerButton(LecternHarness.leftButton, pressed: false)
        c.pointerFrame()
        lectern.pump()
        #expect(lectern.settle())
        let newTop2 = top(ofPage: 2, lectern)
        let after = try #require(newTop2, "page 2 still on screen: \(lectern.pages(alongColumn: 100))")
        #expect(abs((before - after) - 200) <= 12, "page 2's top moved up about 200 px: \(before) → \(after)")
        #expect(lectern.dominantPage == 1 || lectern.dominantPage == 2, "view state: \(lectern.viewState ?? "none")")
        try lectern.stop()
    }

    @Test("in per-spread mode one wheel detent turns one page", arguments: LecternHarness.seatVersions)
    func wheelTurnsPage(seatVersion: Int32) throws {
        let lectern = try KioskHarness([colors], seatVersion: seatVersion)
        #expect(lectern.settle())
        let c = lectern.compositor
        c.pointerEnter(x: 640, y: 360)
        c.pointerFrame()
        c.pointerAxis(.vertical, value: 10, value120: 120)
        c.pointerFrame()
        #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 2, "one detent, one page: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 640, y: 360) == 2)
        c.pointerAxis(.vertical, value: -10, value120: -120)
        c.pointerFrame()
        #expect(lectern.waitForPage(1), "a detent up turns back: \(lectern.viewState ?? "none")")
        try lectern.stop()
    }

    @Test("in continuous mode a wheel detent scrolls a tenth of the screen", arguments: LecternHarness.seatVersions)
    func wheelScrollsContinuous(seatVersion: Int32) throws {
        let lectern = try KioskHarness([colors] + continuous, width: 600, height: 1200, seatVersion: seatVersion)
        #expect(lectern.settle())
        let top2 = top(ofPage: 2, lectern)
        let before = try #require(top2)
        let c = lectern.compositor
        c.pointerEnter(x: 300, y: 600)
        c.pointerFrame()
        for _ in 0..<3 {
            c.pointerAxis(.vertical, value: 15, value120: 120)
            c.pointerFrame()
            lectern.pump(.milliseconds(30))
        }
        #expect(lectern.settle())
        let newTop2 = top(ofPage: 2, lectern)
        let after = try #require(newTop2, "page 2 still on screen: \(lectern.pages(alongColumn: 100))")
        #expect(abs((before - after) - 360) <= 1, "three detents of 120 px: page 2's top \(before) → \(after)")
        #expect(lectern.page(atX: 100, y: after + 20) == 2, "no page turn: page 2 is where it scrolled to")
        try lectern.stop()
    }

    /// A left click where the pointer is, without moving it.
    func clickWhereItIs(_ lectern: KioskHarness) {
        lectern.compositor.pointerButton(LecternHarness.leftButton, pressed: true)
        lectern.compositor.pointerFrame()
        lectern.advanceWithoutSettling(by: 0.04)
        lectern.compositor.pointerButton(LecternHarness.leftButton, pressed: false)
        lectern.compositor.pointerFrame()
    }

    /// A compositor sends no motion for a pointer that stays where it is: every part must know
    /// where it is, also when the motion went to another (the shelf takes every event while it
    /// shows, the reader's parts take them while it is gone).
    @Test("a click lands where the pointer is, though the shelf or the reader took the motion that put it there")
    func clickWhereThePointerIs() throws {
        let text = LecternHarness.fixture("text-3pages.pdf")
        let policy = try PolicyTests.PolicyDirectory("documents = [\"\(colors)\", \"\(text)\"]\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.wait { lectern.status.shelf.count == 2 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        let second = lectern.status.shelf[1].box
        let c = lectern.compositor

        // On the shelf, the pointer comes to rest where the chrome's back button will be.
        c.pointerEnter(x: 60, y: 30)
        c.pointerFrame()
        lectern.pump()
        lectern.tap(x: Double(second.x + second.width / 2), y: Double(second.y + second.height / 2))
        #expect(lectern.wait { !lectern.status.isShelfShown })
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 3))
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.5)
        #expect(lectern.status.isUserInterfaceVisible)
        clickWhereItIs(lectern)
        #expect(lectern.settle())
        #expect(lectern.status.isShelfShown, "a click on the back button, where the pointer rests, goes to the shelf")

        // The first document opens; the pointer moves over the reader to where the second cover
        // is, and stays there while the shelf comes back: a click there opens the second.
        let first = lectern.status.shelf[0].box
        lectern.tap(x: Double(first.x + first.width / 2), y: Double(first.y + first.height / 2))
        #expect(lectern.wait { !lectern.status.isShelfShown })
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 8))
        c.pointerMotion(x: Double(second.x + second.width / 2), y: Double(second.y + second.height / 2))
        c.pointerFrame()
        lectern.pump()
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.5)
        lectern.tap(x: 60, y: 30)
        #expect(lectern.settle())
        #expect(lectern.status.isShelfShown)
        clickWhereItIs(lectern)
        #expect(lectern.wait { !lectern.status.isShelfShown })
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 3), "the cover under the pointer opened")
        try lectern.stop()
    }
}
