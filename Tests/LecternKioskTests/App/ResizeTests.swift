import Foundation
import LecternTestSupport
import Testing

/// Issue 4: a resize (a kiosk rotated to portrait and back) keeps the dominant page and the
/// centre of the zoomed viewport, and rotating back is a no-op.
@Suite("Resizing a zoomed view", .serialized)
struct ResizeOnScreenTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")

    @Test("a resize keeps the dominant page and the viewport's centre and width; resizing back restores it")
    func resizeKeepsZoomedViewport() throws {
        let lectern = try KioskHarness([colors], width: 1280, height: 720)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.pageDown)
        lectern.press(LecternHarness.Key.pageDown)
        #expect(lectern.waitForPage(3), "view state: \(lectern.viewState ?? "none")")
        // Zoomed in 1.5³ (about 3.4) times: in portrait too the view is zoomed in (two presses,
        // 2.25 times, show 486 points across, wider than the fitted 900-px portrait view, so the
        // resize would clamp the zoom to fit).
        for _ in 0..<3 { lectern.press(LecternHarness.Key.equal) }
        #expect(lectern.wait { lectern.viewport != nil })
        #expect(lectern.settle())
        let viewport = lectern.viewport
        let zoomed = try #require(viewport, "zoomed in: \(lectern.viewState ?? "none")")
        // A short, slow pan (no fling): the finger moves 40 px left and 40 px up, the view right
        // and down the page (PDF y grows upwards).
        lectern.drag(from: (440, 420), to: (400, 380), steps: 5, interval: .milliseconds(30), release: false)
        lectern.pump(.milliseconds(150))
        lectern.compositor.touchUp(id: 0)
        lectern.pump()
        #expect(lectern.settle())
        #expect(lectern.wait { lectern.viewport.map { $0 != zoomed } == true })
        let panned = lectern.viewport
        let v1 = try #require(panned, "still zoomed: \(lectern.viewState ?? "none")")
        #expect(v1.x > zoomed.x + 5 && v1.y < zoomed.y - 5, "the pan moved the viewport: \(zoomed) → \(v1)")
        #expect(lectern.dominantPage == 3)
        #expect(lectern.page(atX: 60, y: 60) == 3)

        #expect(lectern.resize(to: 900, 1200))
        let portrait = lectern.viewport
        let v2 = try #require(portrait, "still zoomed after the resize: \(lectern.viewState ?? "none")")
        #expect(lectern.dominantPage == 3, "view state: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 200, y: 600) == 3)
        #expect(abs((v2.x + v2.width / 2) - (v1.x + v1.width / 2)) <= 2, "same centre: \(v1) → \(v2)")
        #expect(abs((v2.y + v2.height / 2) - (v1.y + v1.height / 2)) <= 2, "same centre: \(v1) → \(v2)")
        #expect(abs(v2.width - v1.width) <= 2, "same width: \(v1) → \(v2)")

        #expect(lectern.resize(to: 1280, 720))
        let landscape = lectern.viewport
        let v3 = try #require(landscape, "still zoomed after resizing back: \(lectern.viewState ?? "none")")
        #expect(lectern.dominantPage == 3)
        #expect(lectern.page(atX: 60, y: 60) == 3)
        #expect(
            abs(v3.x - v1.x) <= 1 && abs(v3.y - v1.y) <= 1 && abs(v3.width - v1.width) <= 1
                && abs(v3.height - v1.height) <= 1,
            "resizing back restores the viewport: \(v1) → \(v2) → \(v3)")
        try lectern.stop()
    }

    @Test("a resize that clamps the zoom to fit still restores the zoomed viewport when resizing back")
    func clampedResizeRestoresViewport() throws {
        let lectern = try KioskHarness([colors, "--page", "3"], width: 1280, height: 720)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        // Zoomed in 2.25 times, 486 points show across: wider than the 900-px portrait view
        // shows when fitted (876 px for 420 points, 455 points across), so portrait is fitted.
        lectern.press(LecternHarness.Key.equal)
        lectern.press(LecternHarness.Key.equal)
        #expect(lectern.wait { lectern.viewport != nil })
        #expect(lectern.settle())
        let zoomed = lectern.viewport
        let v1 = try #require(zoomed, "zoomed in: \(lectern.viewState ?? "none")")
        #expect(v1.width > 455, "wider than the fitted portrait view: \(v1)")

        #expect(lectern.resize(to: 900, 1200))
        #expect(lectern.viewState == "page 3", "fitted on page 3 in portrait: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 200, y: 600) == 3)

        #expect(lectern.resize(to: 1280, 720))
        let landscape = lectern.viewport
        let v3 = try #require(landscape, "zoomed again after resizing back: \(lectern.viewState ?? "none")")
        #expect(lectern.dominantPage == 3)
        #expect(
            abs(v3.x - v1.x) <= 1 && abs(v3.y - v1.y) <= 1 && abs(v3.width - v1.width) <= 1
                && abs(v3.height - v1.height) <= 1,
            "resizing back restores the viewport: \(v1) → \(v3)")
        try lectern.stop()
    }
}

/// Issue 11: a page turn tapped just before the screen changes size is not lost.
@Suite("Resizing during a page turn", .serialized)
struct ResizeDuringTurnTests {
    @Test("a tap in the right edge zone, then at once a mode change to 1920×1080: pages 7–8 show")
    func tapThenResize() throws {
        let lectern = try KioskHarness([
            LecternHarness.fixture("colors-8pages.pdf"), "--spreads", "double", "--page", "5",
        ])
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 5)
        #expect(lectern.pages(alongRow: 200) == [5, 6])
        let c = lectern.compositor
        c.touchDown(id: 0, x: 1240, y: 360)
        lectern.advanceWithoutSettling(by: 0.04)
        c.touchUp(id: 0)
        lectern.turn()
        #expect(lectern.status.isAnimating, "the page turn has begun")
        // One frame into the turn, the output changes mode and the window is configured.
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        #expect(lectern.status.isAnimating)
        c.setOutput(width: 1920, height: 1080)
        #expect(lectern.resize(to: 1920, 1080))
        #expect(lectern.viewState == "page 7", "the turn landed on pages 7–8")
        #expect(lectern.pages(alongRow: 300) == [7, 8], "pages on screen: \(lectern.pages(alongRow: 300))")
        #expect(lectern.page(atX: 700, y: 300) == 7 && lectern.page(atX: 1220, y: 300) == 8)
        try lectern.stop()
    }

    @Test("a tap whose release arrives in the same read as a configure turns the page first, then resizes")
    func releaseAndConfigureInOneRead() throws {
        let lectern = try KioskHarness([
            LecternHarness.fixture("colors-8pages.pdf"), "--spreads", "double", "--page", "5",
        ])
        #expect(lectern.settle())
        let c = lectern.compositor
        c.touchDown(id: 0, x: 1240, y: 360)
        lectern.advanceWithoutSettling(by: 0.04)
        // No wl_touch.frame (cage sends none): the release waits in the seat's batch while the
        // configure that follows it in the same read is handled. 1240 is outside the right
        // edge zone at 1920 px wide (which starts at 1536).
        c.touchUp(id: 0)
        c.setOutput(width: 1920, height: 1080)
        c.configure(width: 1920, height: 1080)
        #expect(lectern.wait { lectern.lastCommit?.width == 1920 })
        #expect(lectern.settle())
        #expect(lectern.viewState == "page 7", "the tap turned the page: \(lectern.viewState ?? "none")")
        #expect(lectern.pages(alongRow: 300) == [7, 8])
        try lectern.stop()
    }
}
