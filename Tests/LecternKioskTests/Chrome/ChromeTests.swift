import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// The chrome a visitor uses to get around: the page scrubber along the bottom (touch and
/// pointer, reversed under right-edge binding). `KioskApp` in process, real `wl_touch` and
/// `wl_pointer` events, the view read through its status and the pixels.
@Suite("The chrome's page scrubber")
struct ChromeTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// The reader with its chrome shown (a single tap in the middle, and the double tap's
    /// window let pass).
    func withChrome(_ arguments: [String] = []) throws -> KioskHarness {
        let lectern = try KioskHarness([Self.colors] + arguments)
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible, "a single tap shows the chrome")
        return lectern
    }

    /// Where along the scrubber's track (1280 × 720) a fraction of the document is.
    static func track(_ fraction: Double) -> (x: Double, y: Double) {
        let track = Scene.Chrome.scrubberTrack(width: 1280, height: 720)
        return (Double(track.x) + fraction * Double(track.width), Double(track.y + track.height / 2))
    }

    @Test(
        "the title bar, the thumbnail bar and the scrubber have one look: the same solid ground over page and background"
    )
    func oneLook() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("colors-8pages.pdf")])
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible)
        let commit = try #require(lectern.lastCommit)
        let ground = Palette.normal.chrome.argb
        let title = Scene.Chrome.titleBar(width: 1280, height: 720)
        let scrubber = Scene.Chrome.scrubberBar(width: 1280, height: 720)
        let bar = Scene.ThumbnailBar.box(width: 1280, height: 720)
        // Over the page (x 640) and over the background (x 1260), away from buttons and labels.
        for x in [640, 1260] {
            #expect(commit.pixel(x: x, y: title.y + 2) == ground, "title bar at x \(x)")
            #expect(commit.pixel(x: x, y: scrubber.maxY - 2) == ground, "scrubber at x \(x)")
        }
        #expect(commit.pixel(x: 4, y: bar.y + 2) == ground, "thumbnail bar")
        try lectern.stop()
    }

    @Test("a finger on the scrubber goes to the page under it and follows the drag; it is not a page gesture")
    func touchDrag() throws {
        let lectern = try withChrome()
        let start = Self.track(0.5)  // 0.5 × 7 = 3.5: page 5 (index 4)
        lectern.compositor.touchDown(id: 0, x: start.x, y: start.y)
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        #expect(lectern.dominantPage == 5, "touching the middle of the track: \(lectern.viewState ?? "none")")
        for (fraction, page) in [(0.0, 1), (2.0 / 7, 3), (1.0, 8), (6.0 / 7, 7)] {
            let point = Self.track(fraction)
            lectern.compositor.touchMotion(id: 0, x: point.x, y: point.y)
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
            #expect(lectern.dominantPage == page, "dragged to \(fraction) of the track: \(lectern.viewState ?? "none")")
        }
        // Dragged off the track, up into the page: the scrubber keeps the finger.
        lectern.compositor.touchMotion(id: 0, x: Self.track(1).x, y: 300)
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        #expect(lectern.dominantPage == 8)
        lectern.compositor.touchUp(id: 0)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 8 && !lectern.status.isAnimating, "no pan or turn followed the finger")
        #expect(lectern.page(atX: 640, y: 200) == 8)
        #expect(lectern.status.isUserInterfaceVisible, "the chrome stays")
        try lectern.stop()
    }

    @Test("the pointer drags the scrubber as a finger does")
    func pointerDrag() throws {
        let lectern = try withChrome()
        let c = lectern.compositor
        let first = Self.track(1.0 / 7)
        c.pointerEnter(x: first.x, y: first.y)
        c.pointerFrame()
        lectern.turn()
        c.pointerButton(LecternHarness.leftButton, pressed: true)
        c.pointerFrame()
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        #expect(lectern.dominantPage == 2, "a press on the track: \(lectern.viewState ?? "none")")
        let last = Self.track(5.0 / 7)
        c.pointerMotion(x: last.x, y: last.y)
        c.pointerFrame()
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        #expect(lectern.dominantPage == 6, "dragged along it: \(lectern.viewState ?? "none")")
        c.pointerButton(LecternHarness.leftButton, pressed: false)
        c.pointerFrame()
        c.pointerMotion(x: Self.track(0).x, y: last.y)
        c.pointerFrame()
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 6, "after the release, moving the pointer moves nothing")
        #expect(lectern.page(atX: 640, y: 200) == 6)
        try lectern.stop()
    }

    @Test("under right-edge binding the scrubber runs right to left")
    func rightToLeft() throws {
        let lectern = try withChrome(["--binding", "right"])
        for (fraction, page) in [(1.0, 1), (0.0, 8), (5.0 / 7, 3)] {
            let point = Self.track(fraction)
            lectern.compositor.touchDown(id: 0, x: point.x, y: point.y)
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
            lectern.compositor.touchUp(id: 0)
            #expect(lectern.settle())
            #expect(lectern.dominantPage == page, "a touch at \(fraction) of the track: \(lectern.viewState ?? "none")")
            #expect(lectern.page(atX: 640, y: 200) == page)
        }
        try lectern.stop()
    }

    @Test("while the chrome is hidden, the bottom of the screen is the page")
    func hiddenScrubberIsPage() throws {
        let lectern = try KioskHarness([Self.colors])
        #expect(lectern.settle())
        let point = Self.track(1)
        lectern.compositor.touchDown(id: 0, x: point.x, y: point.y)
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        lectern.compositor.touchUp(id: 0)
        // A tap in the right edge zone (the track's right end is there): the next page.
        #expect(lectern.waitForPage(2), "an edge tap, not a scrub to the end: \(lectern.viewState ?? "none")")
        try lectern.stop()
    }
}
