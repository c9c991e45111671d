import Foundation
import LecternTestSupport
import Testing

/// Real `wl_keyboard` keys (evdev codes through the default xkb keymap) to `KioskApp` in this
/// process, checked by its view state and the colours of colors-8pages.pdf on screen.
@Suite("Keyboard through the test compositor")
struct KeyboardTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")
    typealias Key = LecternHarness.Key

    /// Waits until the view rests on `page` and its colour shows above the screen's centre
    /// (the centre itself is the page's big white number).
    func expectPage(
        _ lectern: KioskHarness, _ page: Int, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            lectern.waitForPage(page), "\(comment): view state \(lectern.viewState ?? "none")",
            sourceLocation: sourceLocation)
        #expect(
            lectern.wait { lectern.page(atX: 640, y: 200) == page },
            "\(comment): page \(page)'s colour on screen, not page \(lectern.page(atX: 640, y: 200).map(String.init) ?? "none")",
            sourceLocation: sourceLocation)
    }

    @Test("Page Down, Page Up, End and Home turn pages in per-spread mode")
    func pageKeys() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        expectPage(lectern, 1, "at the start")
        lectern.press(Key.pageDown)
        expectPage(lectern, 2, "Page Down")
        lectern.press(Key.pageUp)
        expectPage(lectern, 1, "Page Up")
        lectern.press(Key.end)
        expectPage(lectern, 8, "End")
        lectern.press(Key.home)
        expectPage(lectern, 1, "Home")
        lectern.press(Key.right)
        expectPage(lectern, 2, "Right arrow")
        lectern.press(Key.down)
        expectPage(lectern, 3, "Down arrow")
        lectern.press(Key.left)
        expectPage(lectern, 2, "Left arrow")
        try lectern.stop()
    }

    @Test("digits then Enter go to that page; Escape drops a half-typed number")
    func typedPageNumbers() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.type(page: 6)
        expectPage(lectern, 6, "6 Enter")
        // 5 Escape 3 Enter: page 3, not 53 (which would be the last page, 8).
        lectern.press(Key.digit(5))
        lectern.press(Key.escape)
        lectern.type(page: 3)
        expectPage(lectern, 3, "5 Escape 3 Enter")
        // Backspace edits: 4 7 Backspace Enter is page 4.
        lectern.press(Key.digit(4))
        lectern.press(Key.digit(7))
        lectern.press(Key.backspace)
        lectern.press(Key.enter)
        expectPage(lectern, 4, "4 7 Backspace Enter")
        // A number past the end goes to the last page.
        lectern.type(page: 99)
        expectPage(lectern, 8, "99 Enter")
        try lectern.stop()
    }

    @Test("+ zooms in about the centre and - zooms back out")
    func plusMinusZoom() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        #expect(lectern.viewport == nil, "fitted: \(lectern.viewState ?? "none")")
        lectern.press(Key.equal)
        #expect(lectern.wait { lectern.viewport != nil }, "zoomed in")
        #expect(lectern.settle())
        let zoomed = lectern.viewport
        let viewport = try #require(zoomed, "view state \(lectern.viewState ?? "none")")
        // Fitted, the 420 x 595 page fills 696 px of 720: 615 points show in the height.
        #expect(viewport.height < 615 / 1.3, "zoomed in by about 1.5: \(viewport)")
        #expect(abs(viewport.x + viewport.width / 2 - 210) < 3, "about the centre: \(viewport)")
        #expect(abs(viewport.y + viewport.height / 2 - 297.5) < 3, "about the centre: \(viewport)")
        #expect(lectern.page(atX: 300, y: 360) == 1, "the page covers what was background")
        lectern.press(Key.minus)
        #expect(
            lectern.wait { lectern.viewState == "page 1" },
            "zoomed back out: \(lectern.viewState ?? "none")")
        #expect(lectern.settle())
        #expect(lectern.page(atX: 300, y: 360) == nil, "background left of the page again")
        try lectern.stop()
    }

    @Test("no key quits Lectern")
    func noKeyQuits() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        let c = lectern.compositor
        lectern.press(Key.escape)
        lectern.press(Key.q)
        // Control+Q, Control+W (Control is modifier mask 4 in the default keymap).
        c.keyboardKey(Key.leftControl, pressed: true)
        c.keyboardModifiers(depressed: 4)
        lectern.press(Key.q)
        lectern.press(Key.w)
        c.keyboardKey(Key.leftControl, pressed: false)
        c.keyboardModifiers(depressed: 0)
        // Alt+F4 (Alt is Mod1, mask 8).
        c.keyboardKey(Key.leftAlt, pressed: true)
        c.keyboardModifiers(depressed: 8)
        lectern.press(Key.f4)
        c.keyboardKey(Key.leftAlt, pressed: false)
        c.keyboardModifiers(depressed: 0)
        lectern.pump(.milliseconds(300))
        #expect(!lectern.status.isStopping, "Lectern still runs")
        #expect(c.clientCount == 1, "and is still connected")
        #expect(lectern.dominantPage == 1, "none of those keys moved the view: \(lectern.viewState ?? "none")")
        // And it still answers keys.
        lectern.press(Key.pageDown)
        expectPage(lectern, 2, "Page Down after the keys")
        try lectern.stop()
    }
}
