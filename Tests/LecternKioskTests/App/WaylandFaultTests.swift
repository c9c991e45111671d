import LecternCore
import LecternTestSupport
import LecternWayland
import Testing

/// The compositor misbehaves (the test compositor does it on purpose) and Lectern stays up,
/// shows the document, and comes back once the compositor does. Elsewhere: a 0×0 configure
/// (`DocumentOnScreenTests.zeroConfigureUsesOutputSize`), the compositor going away and a
/// protocol error (`LecternSkeletonTests`, through the binary: it must exit non-zero).
@Suite("Wayland faults")
struct WaylandFaultTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")

    @Test("a 16384×16384 configure: a window scaled down to 8K's area, not a 1 GiB buffer; then back")
    func hugeConfigure() throws {
        let lectern = try KioskHarness([colors])
        lectern.compositor.commitHistoryLimit = 2  // each commit is copied: 127 MiB at this size
        #expect(lectern.settle())
        lectern.compositor.configure(width: 16384, height: 16384)
        #expect(lectern.wait(timeout: .seconds(30)) { lectern.lastCommit?.width != 1280 })
        #expect(lectern.settle(timeout: .seconds(60)))
        let commit = try #require(lectern.lastCommit)
        // 7680 × 4320 pixels in a square: 5760 × 5760.
        #expect(commit.width == 5760 && commit.height == 5760)
        #expect(lectern.status.windowSize == Size(width: 5760, height: 5760))
        #expect(lectern.page(atX: 2880, y: 1000) == 1, "the page is drawn in the smaller window")
        #expect(lectern.status.frameBuffers <= 3 + 3, "old-size buffers wait for their release, no more")
        #expect(lectern.status.requestedWindowSize == Size(width: 16384, height: 16384))

        #expect(lectern.resize(to: 1280, 720))
        #expect(lectern.page(atX: 640, y: 360) == 1)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        try lectern.stop()
    }

    @Test("a configure too wide for a buffer: each side at most 8192 pixels, aspect ratio kept")
    func sideClamp() throws {
        #expect(XdgToplevel.fitted(width: 16384, height: 100) == (8192, 50))
        #expect(XdgToplevel.fitted(width: 1280, height: 720) == (1280, 720), "a real screen is untouched")
        #expect(XdgToplevel.fitted(width: 7680, height: 4320) == (7680, 4320), "8K UHD fits")
        #expect(XdgToplevel.fitted(width: Int(Int32.max), height: Int(Int32.max)).width <= 8192)
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        lectern.compositor.configure(width: 16384, height: 300)
        #expect(lectern.wait { lectern.lastCommit?.width == 8192 })
        #expect(lectern.settle())
        #expect(lectern.lastCommit?.height == 150)
        try lectern.stop()
    }

    @Test(
        "the output unplugged and plugged back: a 0×0 configure meanwhile keeps the window's size; then the new output's"
    )
    func outputRemovedAndAdded() throws {
        let lectern = try KioskHarness([colors, "--page", "3"], width: 1024, height: 600)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 3)
        #expect(lectern.status.outputs.count == 1)
        #expect(lectern.compositor.removeOutputGlobal())
        lectern.turn()
        #expect(lectern.status.outputs.isEmpty, "the output's removal is seen")
        lectern.compositor.configure(width: 0, height: 0)
        #expect(lectern.settle())
        #expect(lectern.status.windowSize == Size(width: 1024, height: 600), "not a made-up 1280x720")
        #expect(lectern.page(atX: 512, y: 100) == 3)

        lectern.compositor.setOutput(width: 600, height: 1024)
        lectern.compositor.addOutputGlobal()
        lectern.turn()
        lectern.turn()
        lectern.compositor.configure(width: 0, height: 0)
        #expect(lectern.wait { lectern.lastCommit.map { $0.width == 600 && $0.height == 1024 } == true })
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 3, "the page survives")
        #expect(lectern.page(atX: 300, y: 200) == 3)
        try lectern.stop()
    }

    @Test("the seat removed mid-touch: the touch is cancelled, nothing sticks; a new seat works")
    func seatRemovedMidTouch() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        let offset = lectern.status.contentOffset
        lectern.drag(from: (900, 360), to: (500, 360), release: false)
        #expect(lectern.status.isInteracting)
        #expect(lectern.status.contentOffset != offset, "the page follows the finger")
        #expect(lectern.compositor.removeSeatGlobal())
        lectern.turn()
        #expect(lectern.settle(), "the page moves back on the clock, and stops")
        #expect(!lectern.status.isInteracting, "the finger that was down is forgotten")
        #expect(lectern.dominantPage == 1, "a cancelled pan does not turn the page")
        #expect(lectern.status.contentOffset == offset, "and the page goes back where it was")
        #expect(lectern.wait { lectern.compositor.touchResourceCount == 0 }, "Lectern let go of the old seat")

        lectern.compositor.addSeatGlobal()
        #expect(
            lectern.wait { lectern.compositor.touchResourceCount == 1 }, "the new seat is bound and its touch taken")
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        try lectern.stop()
    }

    @Test("buffer releases withheld: at most 3 buffers (6 across a resize), frames wait, and resume on release")
    func releasesWithheld() throws {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        lectern.compositor.autoRelease = false
        for _ in 0..<6 {
            lectern.tap(x: 1240, y: 360)
            lectern.advanceWithoutSettling(by: 0.5)
        }
        #expect(lectern.status.frameBuffers <= 3)
        #expect(lectern.compositor.busyBufferCount <= 3)
        #expect(lectern.status.frameBuffersBusy == lectern.status.frameBuffers, "all of them held")
        let commits = lectern.compositor.commitCount
        lectern.advanceWithoutSettling(by: 1)
        #expect(lectern.compositor.commitCount == commits, "no frame without a free buffer")
        #expect(lectern.dominantPage == 7, "the pages still turned")

        // Two resizes while nothing is released (a rotation, and back to another size).
        lectern.compositor.configure(width: 720, height: 1280)
        lectern.advanceWithoutSettling(by: 1)
        lectern.compositor.configure(width: 1000, height: 700)
        lectern.advanceWithoutSettling(by: 1)
        #expect(lectern.status.frameBuffers <= 6, "6 buffers at most while the old ones are held")

        lectern.compositor.releaseBuffers()
        lectern.compositor.autoRelease = true
        #expect(lectern.wait { lectern.lastCommit.map { $0.width == 1000 && $0.height == 700 } == true })
        #expect(lectern.settle())
        #expect(lectern.page(atX: 500, y: 150) == 7, "the frame shows where the reader is")
        #expect(lectern.status.frameBuffers <= 3, "the old size's buffers are gone once released")
        try lectern.stop()
    }

    /// A Lectern whose compositor answers no frame callback from now, a tap on the right edge
    /// 0.1 s ago, and the commits before the page turn's.
    private func tappedWithoutCallbacks() throws -> (lectern: KioskHarness, commits: Int) {
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        lectern.compositor.autoFrameCallback = false
        lectern.tap(x: 1240, y: 360)
        lectern.advanceWithoutSettling(by: 0.1)
        return (lectern, lectern.compositor.commitCount)
    }

    @Test("frame callbacks a second late: no frame meanwhile, then one that is up to date")
    func frameCallbacksDelayed() throws {
        let (lectern, commits) = try tappedWithoutCallbacks()
        lectern.advanceWithoutSettling(by: 1)
        #expect(lectern.compositor.commitCount == commits, "nothing is committed before the callback")
        #expect(lectern.compositor.pendingFrameCallbackCount == 1, "one callback asked for, not one per frame")

        lectern.compositor.sendFrameCallbacks()
        lectern.turn()
        lectern.turn()
        let next = try #require(lectern.lastCommit)
        #expect(next.sequence == commits + 1, "one frame after the callback")
        #expect(lectern.page(atX: 640, y: 360) == 2, "it shows the turn finished, not a stale animation frame")
        #expect(!lectern.status.isAnimating)
        #expect(lectern.dominantPage == 2)
        lectern.compositor.autoFrameCallback = true
        #expect(lectern.settle())
        try lectern.stop()
    }

    @Test("a frame callback never answered holds a page turn back 2 s, then the frame is drawn without it")
    func frameCallbackLost() throws {
        let (lectern, commits) = try tappedWithoutCallbacks()
        lectern.advanceWithoutSettling(by: 1.8)
        #expect(lectern.compositor.commitCount == commits, "a compositor that is late still paces the frames")
        lectern.advanceWithoutSettling(by: 0.3)
        #expect(lectern.compositor.commitCount == commits + 1, "one frame without the callback, 2 s after the last")
        #expect(lectern.page(atX: 640, y: 360) == 2, "it shows the turn finished")
        #expect(lectern.compositor.pendingFrameCallbackCount == 2, "the new frame asked for a callback again")
        // The compositor answers again: frames follow its callbacks as before.
        lectern.compositor.autoFrameCallback = true
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 2)
        try lectern.stop()
    }

    @Test("frames are xrgb8888 when the compositor offers it, else argb8888 (an opaque frame either way)")
    func shmFormat() throws {
        let argb: UInt32 = 0  // wl_shm.format values
        let xrgb: UInt32 = 1
        #expect(Display.frameFormat(among: [argb, xrgb]) == xrgb)
        #expect(Display.frameFormat(among: [argb]) == argb, "a wl_shm without xrgb8888")
        #expect(Display.frameFormat(among: [argb, 0x3432_5258]) == argb, "other formats are not used")
        #expect(Display.frameFormat(among: []) == argb, "no format events: the one every wl_shm has")
        // libwayland-server's wl_shm always offers both (the protocol requires them), so the
        // compositor here cannot leave xrgb8888 out: the choice is checked above, and the
        // frames Lectern commits here are checked below.
        let lectern = try KioskHarness([colors])
        #expect(lectern.settle())
        let commit = try #require(lectern.lastCommit)
        #expect(commit.format == .xrgb8888)
        #expect(lectern.page(atX: 640, y: 360) == 1)
        try lectern.stop()
    }
}
