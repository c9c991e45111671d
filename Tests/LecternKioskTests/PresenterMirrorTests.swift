import LecternCore
import LecternKiosk
import LecternTestSupport
import Testing

/// Issue 16 item 8 through the test compositor: a second output plugged in at run time gets a
/// second fullscreen surface showing the reader's page aspect-fit, without the chrome,
/// following page turns and zoom; unplugged, the mirror goes and leaves nothing behind.
@Suite("The presenter mirror through the test compositor")
struct PresenterMirrorTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let title = "Lectern mirror"

    /// The mirror's last commit.
    static func mirrorCommit(_ lectern: KioskHarness) -> Commit? {
        lectern.compositor.commits.last { $0.title == title }
    }

    /// The page of colors-8pages.pdf `commit` shows a tenth of its width left of its middle
    /// (off the page number written there).
    static func page(in commit: Commit) -> Int? {
        LecternHarness.page(ofColor: commit.pixel(x: commit.width * 2 / 5, y: commit.height / 2))
    }

    /// How many pixels of the middle row of `commit` show `page` of colors-8pages.pdf.
    static func width(of page: Int, in commit: Commit) -> Int {
        (0..<commit.width).filter { LecternHarness.page(ofColor: commit.pixel(x: $0, y: commit.height / 2)) == page }
            .count
    }

    @Test("--mirror off: a second output gets no mirror, and the reader is undisturbed")
    func mirrorOff() throws {
        let lectern = try KioskHarness([Self.colors, "--page", "3", "--mirror", "off"])
        #expect(lectern.settle())
        let commits = lectern.compositor.commitCount
        let second = lectern.compositor.plugOutput(width: 1920, height: 1080)
        lectern.advance(by: 1)
        #expect(lectern.settle())
        #expect(lectern.status.mirror == nil, "no mirror")
        #expect(!lectern.compositor.toplevels.contains { $0.title == Self.title }, "no second window")
        #expect(lectern.compositor.commitCount == commits, "the reader's window was not redrawn")
        #expect(lectern.page(atX: 640, y: 200) == 3)
        lectern.compositor.unplug(second)
        try lectern.stop()
    }

    @Test("a second output gets the page aspect-fit without the chrome, follows turns and zoom, and goes cleanly")
    func mirror() throws {
        let lectern = try KioskHarness([Self.colors, "--page", "3"])
        #expect(lectern.settle())
        #expect(lectern.status.mirror == nil, "one output: no mirror")
        let second = lectern.compositor.plugOutput(width: 1920, height: 1080)
        #expect(lectern.wait { lectern.status.mirror?.page == 2 }, "plugged in: the mirror shows page 3")
        #expect(lectern.settle())
        #expect(
            lectern.compositor.toplevels.contains { $0.title == Self.title && $0.fullscreenOutput == "TEST-2" },
            "the mirror is fullscreen on the second output: \(lectern.compositor.toplevels)")
        var mirror = try #require(Self.mirrorCommit(lectern))
        #expect(mirror.width == 1920 && mirror.height == 1080, "a frame of the second output's size")
        #expect(Self.page(in: mirror) == 3)
        let fitted = Self.width(of: 3, in: mirror)
        #expect(fitted > 600 && fitted < 1000, "the portrait page fitted to 1080 px of height: \(fitted) px wide")
        #expect(lectern.page(atX: 640, y: 200) == 3, "the reader's window still shows page 3")

        // The chrome shows on the reader, not on the mirror.
        let top = mirror.pixel(x: 960, y: 20)
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible)
        mirror = try #require(Self.mirrorCommit(lectern))
        #expect(mirror.pixel(x: 960, y: 20) == top, "no title bar on the mirror")

        // A page turn on the reader turns the mirror.
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(4))
        #expect(lectern.wait { lectern.status.mirror?.page == 3 })
        #expect(lectern.settle())
        mirror = try #require(Self.mirrorCommit(lectern))
        #expect(Self.page(in: mirror) == 4, "the mirror follows to page 4")

        // Zoomed in on the reader (+ twice), the mirror shows the same region, larger.
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.equal)
        lectern.press(LecternHarness.Key.equal)
        #expect(lectern.settle())
        #expect(lectern.status.zoomScale > 1.2, "zoomed in: \(lectern.status.zoomScale)")
        mirror = try #require(Self.mirrorCommit(lectern))
        let zoomed = Self.width(of: 4, in: mirror)
        #expect(zoomed > fitted * 5 / 4, "the mirror zooms too: \(zoomed) px of page 4 across, fitted \(fitted)")

        // Unplugged: the mirror's surface goes; the reader goes on.
        let frames = lectern.status.framesCommitted
        lectern.compositor.unplug(second)
        #expect(lectern.wait { lectern.status.mirror == nil }, "unplugged: no mirror")
        #expect(lectern.wait { lectern.compositor.surfaceCount == 1 }, "its surface is destroyed")
        lectern.press(LecternHarness.Key.minus)
        lectern.press(LecternHarness.Key.minus)
        #expect(lectern.settle())
        #expect(
            lectern.status.zoomScale < 1.01 && lectern.status.framesCommitted > frames,
            "the reader still zooms out: \(lectern.status.zoomScale)")
        #expect(lectern.page(atX: 640, y: 200) == 4)
        try lectern.stop()
    }
}
