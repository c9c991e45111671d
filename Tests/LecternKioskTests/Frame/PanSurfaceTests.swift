import LecternTestSupport
import Testing

/// The pages on a subsurface that pans move (issue 33, item 2), through the test compositor
/// offering `wl_subcompositor` and `wp_viewporter`: a pan within the margin drawn around the
/// window attaches no buffer, and what the screen shows is what a whole frame shows, in every
/// layout and zoom the tiles-at-rest tests cover.
@Suite("Pages on a subsurface", .serialized)
struct PanSurfaceTests {
    /// Whether the newest frame shows the pages' subsurface (a buffer, cropped by its viewport).
    static func showsPagesSurface(_ lectern: KioskHarness) -> Bool {
        lectern.compositor.toplevel?.subsurfaces.contains { $0.isMapped && $0.viewportSource != nil } ?? false
    }

    @Test("render.pans off (the default): a drag is drawn in whole frames though wp_viewporter is offered")
    func wholeFramesByDefault() throws {
        let lectern = try KioskHarness(
            [
                TilesAtRestTests.letter, "--no-accessibility-button", "--scroll", "continuous", "--direction",
                "vertical", "--page", "2",
            ], viewporter: true, pansOnSubsurface: false)
        defer { try? lectern.stop() }
        #expect(lectern.settle())
        lectern.drag(from: (640, 400), to: (640, 300), steps: 5, release: false)
        #expect(lectern.settle())
        #expect(!Self.showsPagesSurface(lectern), "no pages' surface")
        #expect(lectern.compositor.toplevel?.subsurfaces.contains { $0.viewportSource != nil } != true)
    }

    @Test("a drag within the margin moves the pages' viewport and commits no new buffer")
    func panWithoutBuffers() throws {
        let lectern = try KioskHarness(
            [
                TilesAtRestTests.letter, "--no-accessibility-button", "--scroll", "continuous", "--direction",
                "vertical", "--page", "2",
            ], viewporter: true)
        defer { try? lectern.stop() }
        #expect(lectern.settle())
        // A drag of a few pixels leaves the home view (drawn whole) for the pages' surface.
        lectern.drag(from: (640, 400), to: (640, 380), steps: 2, release: false)
        #expect(lectern.settle())
        #expect(Self.showsPagesSurface(lectern))
        let before = try #require(lectern.compositor.composited())
        let buffers = lectern.compositor.bufferCommitCount, frames = lectern.compositor.surfaceCommitCount
        // 100 pixels up, 10 a frame: within the quarter of the window drawn below it.
        for step in 1...10 {
            lectern.compositor.touchMotion(id: 0, x: 640, y: 380 - 10 * Double(step))
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
        }
        #expect(lectern.compositor.surfaceCommitCount > frames, "the pan was committed")
        #expect(lectern.compositor.bufferCommitCount == buffers, "no buffer was attached during the pan")
        let after = try #require(lectern.compositor.composited())
        #expect(after != before, "the pages moved")
        // The row 100 pixels below shows what the old row showed (the pages moved up by 100).
        let moved = (300..<400).filter { after.pixel(x: 640, y: $0) != before.pixel(x: 640, y: $0 + 100) }
        #expect(moved.isEmpty, "rows that did not move with the pan: \(moved.prefix(5))")
        lectern.compositor.touchUp(id: 0)
        #expect(lectern.settle())
    }

    @Test("closing over a panned view brings the black curtain over the pages; opening shows pages again")
    func curtainOverThePagesSurface() throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            document = "\(TilesAtRestTests.letter)"
            [layout]
            scroll = "continuous"
            direction = "vertical"
            [hours]
            mon = ["08:00-18:00"]
            tue = ["08:00-18:00"]
            """)
        // Monday 17:59:50 UTC: ten seconds before closing.
        let lectern = try KioskHarness(
            ["--config", policy.path, "--no-accessibility-button"],
            wallClock: (KioskHarness.mondayMorning + 7 * 3600 + 3590, .init(utcOffset: 0)), viewporter: true)
        defer { try? lectern.stop() }
        #expect(lectern.settle())
        lectern.drag(from: (640, 400), to: (640, 300), steps: 5)
        #expect(lectern.settle())
        #expect(Self.showsPagesSurface(lectern), "panned: the pages are on their surface")
        lectern.jump(by: 20)
        #expect(lectern.status.hours.isCurtainDown)
        let closed = try #require(lectern.compositor.composited())
        #expect(closed.pixels.allSatisfy { $0 & 0xFF_FFFF == 0 }, "black over the whole window")
        lectern.jump(by: 14 * 3600)  // Tuesday 08:00
        #expect(!lectern.status.hours.isCurtainDown)
        let open = try #require(lectern.compositor.composited())
        #expect(open.pixels.contains { $0 & 0xFF_FFFF != 0 }, "the page is on screen again")
        // Panned again: the pages' surface under a window that no longer shows the curtain.
        lectern.drag(from: (640, 400), to: (640, 300), steps: 5)
        #expect(lectern.settle())
        #expect(Self.showsPagesSurface(lectern))
        let panned = try #require(lectern.compositor.composited())
        #expect(panned.pixels.contains { $0 & 0xFF_FFFF != 0 }, "the pages show, not the curtain")
    }

    @Test(
        "at rest, the pages' subsurface under the chrome shows what a whole frame shows",
        arguments: TilesAtRestTests.cases)
    func samePixels(_ c: TilesAtRestTests.Case) throws {
        try comparePictures(c, button: false)
    }

    @Test(
        "with the accessibility button over the pages, the same pixels as a whole frame",
        arguments: TilesAtRestTests.cases.filter { $0.action == .doubleTapMiddle || $0.action == .twoDragsUp })
    func samePixelsUnderTheButton(_ c: TilesAtRestTests.Case) throws {
        try comparePictures(c, button: true)
    }

    @Test(
        "with no chrome over the pages, one transparent pixel on the window: the same pixels as a whole frame",
        arguments: TilesAtRestTests.cases.filter { $0.action == .doubleTapMiddle || $0.action == .keys })
    func samePixelsUnderATransparentPixel(_ c: TilesAtRestTests.Case) throws {
        try comparePictures(c, button: false, singlePixel: true)
    }

    /// Runs `c` without and with `wp_viewporter` (and, with `singlePixel`, single-pixel buffers),
    /// and compares what the screen shows at rest.
    func comparePictures(_ c: TilesAtRestTests.Case, button: Bool, singlePixel: Bool = false) throws {
        var pictures: [Screenshot] = []
        for viewporter in [false, true] {
            let lectern = try KioskHarness(
                [TilesAtRestTests.letter] + (button ? [] : ["--no-accessibility-button"]) + c.options, width: c.width,
                height: c.height, singlePixelBuffers: viewporter && singlePixel, viewporter: viewporter)
            defer { try? lectern.stop() }
            #expect(lectern.settle())
            #expect(lectern.enableKeyboard())
            try TilesAtRestTests().act(c.action, lectern)
            #expect(lectern.settle(), "\(c): the view comes to rest")
            let pages = lectern.status.pagesOnScreen
            #expect(pages.allSatisfy { $0.isSharp }, "\(c), viewporter \(viewporter): sharp: \(pages)")
            // Moved off the home view (drawn whole, to be kept for the next start), the pages
            // are on their surface.
            let panned = viewporter && c.action != .none && c.action != .rotate
            #expect(Self.showsPagesSurface(lectern) == panned, "\(c): the pages' surface shown: \(!panned)")
            if panned && singlePixel {
                #expect(lectern.lastCommit?.isSinglePixel == true, "\(c): the window shows one transparent pixel")
            }
            pictures.append(try #require(lectern.compositor.composited()))
        }
        #expect(pictures[0].width == pictures[1].width && pictures[0].height == pictures[1].height)
        let differing = pictures[0].pixels.indices.filter { pictures[0].pixels[$0] != pictures[1].pixels[$0] }
        #expect(
            differing.isEmpty,
            "\(c): \(differing.count) pixels differ, first at \(differing.first.map { ($0 % pictures[0].width, $0 / pictures[0].width) } as Any)"
        )
    }
}
