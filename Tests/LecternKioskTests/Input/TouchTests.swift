import Foundation
import LecternPDF
import LecternTestSupport
import Testing

/// Real `wl_touch` events from the test compositor to `KioskApp` in this process, on a manual
/// clock: each test checks the resulting view state (`KioskApp.status`) and the committed
/// pixels. No test sends `wl_touch.frame` unless it says so (cage never does).
@Suite("Touch through the test compositor")
struct TouchTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")

    @Test("a tap in the right edge zone turns the page")
    func tapRightEdgeTurnsPage() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 1)
        #expect(lectern.page(atX: 640, y: 200) == 1)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 2, "page 2 is on screen")
        lectern.tap(x: 40, y: 360)
        #expect(lectern.waitForPage(1), "a tap in the left zone goes back")
        try lectern.stop()
    }

    @Test("under right-edge binding a tap in the left edge zone turns the page")
    func tapLeftEdgeUnderRightBinding() throws {
        let lectern = try KioskHarness([colors, "--binding", "right"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        lectern.pump(.milliseconds(600))
        #expect(lectern.dominantPage == 1, "the right zone goes back, and page 1 has nothing before it")
        lectern.tap(x: 40, y: 360)
        #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 2)
        try lectern.stop()
    }

    @Test("touches with frame events work the same")
    func tapWithFrames() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360, frames: true)
        #expect(lectern.waitForPage(2))
        try lectern.stop()
    }

    @Test("a two-finger pinch zooms about its centre")
    func pinchZoomsAboutCentre() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        // Fitted: the 420 x 595 page is 491 x 696 at x 395...886, y 12...708.
        #expect(lectern.page(atX: 300, y: 360) == nil, "left of the page is background")
        let c = lectern.compositor
        c.touchDown(id: 0, x: 590, y: 360)
        c.touchDown(id: 1, x: 690, y: 360)
        lectern.pump()
        for step in 1...10 {
            let d = 50 + 5 * Double(step)  // half the finger distance: 50 → 100 (scale 2)
            c.touchMotion(id: 0, x: 640 - d, y: 360)
            c.touchMotion(id: 1, x: 640 + d, y: 360)
            lectern.pump()
        }
        c.touchUp(id: 0)
        c.touchUp(id: 1)
        lectern.pump()
        #expect(lectern.settle())
        let viewportValue = lectern.viewport
        let viewport = try #require(viewportValue, "zoomed in: \(lectern.viewState ?? "none")")
        // The page is 420 x 595 points; the centre of the screen showed its centre.
        #expect(abs(viewport.x + viewport.width / 2 - 210) < 6, "viewport \(viewport) centred on the page centre")
        #expect(abs(viewport.y + viewport.height / 2 - 297.5) < 6)
        // Fitted, 720 px show 615 points; the fingers spread from 100 to 200 px apart, and the
        // pinch counts from where it was recognised (a few pixels in): zoom a little under 2.
        let zoom = 720 / (696.0 / 595) / viewport.height
        #expect(zoom > 1.6 && zoom < 2.05, "zoomed about 2x: \(zoom), viewport \(viewport)")
        #expect(lectern.page(atX: 300, y: 360) == 1, "the page now covers what was background")
        try lectern.stop()
    }

    @Test("a pan then release keeps moving and decelerates")
    func panFlingDecelerates() throws {
        let lectern = try KioskHarness(
            [colors, "--scroll", "continuous", "--direction", "vertical"], width: 600, height: 1200)
        #expect(lectern.settle())
        #expect(lectern.pages(alongColumn: 100) == [1, 2])
        /// Where page 2 starts in the last frame.
        func pageTwoTop() -> Int? {
            lectern.lastCommit.flatMap { commit in
                (0..<commit.height).first { LecternHarness.page(ofColor: commit.pixel(x: 100, y: $0)) == 2 }
            }
        }
        let start = try #require(pageTwoTop())
        // A quick upward flick: 300 px in 83 ms (5 moves a frame apart).
        lectern.drag(from: (300, 900), to: (300, 600), steps: 5)
        let released = lectern.status.contentOffset.y
        #expect(pageTwoTop().map { $0 <= start - 300 } == true, "the drag moved the page up with the finger")
        // The scroll offset frame by frame after the release, with the clock's time, while the
        // pixels follow it (page 2's top, while on screen, moves as the offset does).
        var samples: [(time: Double, offset: Double)] = [(lectern.clock.now, released)]
        var top = pageTwoTop()
        for _ in 0..<240 where lectern.status.isAnimating {
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
            let offset = lectern.status.contentOffset.y
            if let before = top, let now = pageTwoTop(), now > 0 {
                #expect(
                    abs(Double(before - now) - (offset - samples.last!.offset)) <= 1.5,
                    "page 2 moves on screen as far as the view scrolls")
            }
            top = pageTwoTop()
            samples.append((lectern.clock.now, offset))
        }
        #expect(!lectern.status.isAnimating, "the fling comes to rest within 4 s")
        // (The frame of the release itself shows where the finger left the page.)
        let steps = Array(zip(samples, samples.dropFirst()).map { $1.offset - $0.offset }.drop { $0 == 0 })
        #expect(steps.count >= 8, "the content keeps moving after the release: \(samples)")
        #expect(steps.dropLast().allSatisfy { $0 > 0 }, "it keeps moving the same way: \(steps)")
        if steps.count >= 8 {
            // Speed over the first and the last three frames of the movement.
            let early = steps.prefix(3).reduce(0, +), late = steps.suffix(4).dropLast().reduce(0, +)
            #expect(early > 3 * late, "and slows down: \(steps)")
        }
        try lectern.stop()
    }

    @Test("a double tap on a text block zooms to it, and again zooms back out")
    func doubleTapSmartZoom() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("text-3pages.pdf")])
        #expect(lectern.settle())
        // Page 1 (595 x 842) fitted in 1280 x 720: scale 696/842, x from 394.
        let scale = 696.0 / 842, left = (1280 - 595 * scale) / 2, top = 12.0
        // "Page One", 72 pt Helvetica at (60, 700) in PDF space: its middle is near (200, 725).
        let x = left + 200 * scale, y = top + (842 - 725) * scale
        lectern.tap(x: x, y: y)
        lectern.pump(.milliseconds(60))
        lectern.tap(x: x, y: y)
        #expect(lectern.wait { lectern.viewport != nil })
        #expect(lectern.settle())
        let viewportValue = lectern.viewport
        let viewport = try #require(viewportValue, "zoomed in: \(lectern.viewState ?? "none")")
        #expect(viewport.width < 595 * 0.7, "zoomed to the block: \(viewport)")
        #expect(viewport.x < 70 && viewport.x + viewport.width > 300, "the block's width fits: \(viewport)")
        #expect(viewport.y < 700 && viewport.y + viewport.height > 760, "and its height: \(viewport)")
        #expect(lectern.lastCommit.map { $0.darkFraction() > 0.03 } == true, "big dark letters fill the screen")
        lectern.tap(x: 640, y: 360)
        lectern.pump(.milliseconds(60))
        lectern.tap(x: 640, y: 360)
        #expect(lectern.wait { lectern.viewport == nil }, "zoomed back out")
        try lectern.stop()
    }

    @Test("a touch cancelled mid-pan leaves no stuck gesture")
    func cancelMidPan() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        let before = lectern.pages(alongRow: 200)
        let leftEdge = try #require(
            lectern.lastCommit.flatMap { commit in
                (0..<commit.width).first { LecternHarness.page(ofColor: commit.pixel(x: $0, y: 200)) == 1 }
            })
        lectern.drag(from: (900, 360), to: (700, 360), steps: 4, release: false)
        #expect(lectern.status.isInteracting, "the pan is under way")
        lectern.compositor.touchCancel()
        lectern.pump(.milliseconds(500))
        #expect(lectern.settle())
        #expect(!lectern.status.isInteracting && !lectern.status.isAnimating, "no gesture is left running")
        #expect(lectern.dominantPage == 1, "the page settles back")
        #expect(lectern.pages(alongRow: 200) == before)
        let edgeAfter = lectern.lastCommit.flatMap { commit in
            (0..<commit.width).first { LecternHarness.page(ofColor: commit.pixel(x: $0, y: 200)) == 1 }
        }
        #expect(edgeAfter == leftEdge, "page 1's left edge is back where it was")
        // The next touches work: a tap in the right zone turns the page.
        lectern.tap(x: 1240, y: 360, id: 3)
        #expect(lectern.waitForPage(2))
        try lectern.stop()
    }

    @Test("a single tap in the middle shows the chrome once the double tap could no longer come")
    func singleTapTogglesChrome() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        let plainValue = lectern.lastCommit
        let plain = try #require(plainValue)
        lectern.tap(x: 640, y: 360)
        lectern.advanceWithoutSettling(by: 0.25)
        #expect(!lectern.status.isUserInterfaceVisible, "a double tap could still come 0.25 s after the tap")
        lectern.advance(by: 0.1)
        #expect(lectern.status.isUserInterfaceVisible, "0.3 s after the tap no double tap can come")
        let shownValue = lectern.lastCommit
        let shown = try #require(shownValue)
        // The title bar darkens the top of the page (it was the page's red).
        #expect(LecternHarness.page(ofColor: plain.pixel(x: 640, y: 30)) == 1)
        #expect(LecternHarness.page(ofColor: shown.pixel(x: 640, y: 30)) == nil, "the title bar covers the top")
        #expect(lectern.dominantPage == 1, "the tap did not turn the page")
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(!lectern.status.isUserInterfaceVisible)
        #expect(lectern.page(atX: 640, y: 30) == 1, "a second tap hides it")
        try lectern.stop()
    }

    /// Where a point of the sample's page (PDF user space, A4 portrait) shows at 1280x720.
    static func onScreen(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let scale = 696.0 / 842
        let left = ((1280 - 595 * scale) / 2).rounded()
        return (left + x * scale, 12 + (842 - y) * scale)
    }

    @Test("a tap on a link goes to its page; a web link is shown, not opened")
    func links() throws {
        let sample = LecternHarness.repository.appendingPathComponent("Sources/lectern/Resources/sample.pdf").path
        let pdf = try PDFDocument(path: sample)
        // The cover's table of contents links to the pages.
        let toc = try #require(try pdf.links(page: 0).first { $0.target == .page(1) })
        var lectern = try KioskHarness([sample])
        #expect(lectern.settle())
        var point = Self.onScreen((toc.rect.minX + toc.rect.maxX) / 2, (toc.rect.minY + toc.rect.maxY) / 2)
        lectern.tap(x: point.x, y: point.y)
        #expect(lectern.waitForPage(2), "the link leads to page 2: \(lectern.viewState ?? "none")")
        try lectern.stop()

        // The Links page (6) has web links: tapping one says where it leads and stays.
        let web = try #require(try pdf.links(page: 5).first { $0.target == .uri("https://mupdf.com") })
        lectern = try KioskHarness([sample, "--page", "6"])
        #expect(lectern.settle())
        let beforeValue = lectern.lastCommit
        let before = try #require(beforeValue)
        point = Self.onScreen((web.rect.minX + web.rect.maxX) / 2, (web.rect.minY + web.rect.maxY) / 2)
        lectern.tap(x: point.x, y: point.y)
        #expect(lectern.settle())
        #expect(
            lectern.status.notice == "This link leads to https://mupdf.com, which cannot be opened here.",
            "the notice says where it leads")
        #expect(lectern.dominantPage == 6, "no page change")
        let afterValue = lectern.lastCommit
        let after = try #require(afterValue)
        let bottom = DamageRect(x: 0, y: 680, width: 1280, height: 40)
        #expect(
            after.darkFraction(in: bottom) != before.darkFraction(in: bottom), "a notice appears along the bottom")
        try lectern.stop()
    }
}
