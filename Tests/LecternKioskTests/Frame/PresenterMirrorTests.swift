import Foundation
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

    @Test(
        "mirror off (the command line's or the policy file's): a second output gets no mirror, and the reader is undisturbed",
        arguments: [false, true])
    func mirrorOff(inThePolicyFile: Bool) throws {
        let policy = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-mirror-\(UUID()).toml").path
        defer { try? FileManager.default.removeItem(atPath: policy) }
        try "document = \"\(Self.colors)\"\nmirror = \"off\"\n".write(toFile: policy, atomically: true, encoding: .utf8)
        let lectern = try KioskHarness(
            inThePolicyFile ? ["--config", policy, "--page", "3"] : [Self.colors, "--page", "3", "--mirror", "off"])
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

    /// Under sway 1.7 the mirror showed sway's background on its output, in every capture of it
    /// (grim), unless that output had the focus: sway scanned the mirror's lone fullscreen
    /// surface out directly, and its one flag for all outputs (whether scan-out just stopped, so
    /// the output must be repainted whole) was reset by the reader's output, which a software
    /// cursor kept from scanning out. The mirror drew, and got its frame callbacks, all along.
    /// A surface with a subsurface is never scanned out: both windows have one, 1×1, transparent,
    /// taking no input (`ScanOutBlocker`). Tests/e2e/sway.sh checks the pixels under sway.
    @Test("both windows have a 1x1 transparent subsurface that takes no input: never scanned out")
    func notScannedOut() throws {
        let lectern = try KioskHarness([Self.colors, "--page", "3"])
        #expect(lectern.settle())
        let second = lectern.compositor.plugOutput(width: 1920, height: 1080)
        #expect(lectern.wait { lectern.status.mirror?.page == 2 }, "plugged in: the mirror shows page 3")
        #expect(lectern.settle())
        let windows = lectern.compositor.toplevels
        #expect(windows.map(\.title) == ["Lectern", Self.title])
        for window in windows {
            let name = window.title ?? "?"
            #expect(window.subsurfaces.count == 1, "\(name): \(window.subsurfaces.count) subsurfaces")
            guard let blocker = window.subsurfaces.first else { continue }
            #expect(blocker.isMapped, "\(name): the subsurface shows")
            #expect(blocker.width == 1 && blocker.height == 1, "\(name): \(blocker.width)x\(blocker.height)")
            #expect(blocker.isTransparent, "\(name): \(blocker.pixels.map { String($0, radix: 16) })")
            #expect(!blocker.takesInput, "\(name): an empty input region")
            #expect(blocker.x == 0 && blocker.y == 0)
        }
        let mirror = try #require(Self.mirrorCommit(lectern))
        #expect(Self.page(in: mirror) == 3, "the mirror's frames are the surface's own, as before")
        lectern.compositor.unplug(second)
        #expect(lectern.wait { lectern.status.mirror == nil })
        #expect(
            lectern.wait { lectern.compositor.surfaceCount == 2 }, "the mirror's surface and subsurface are destroyed")
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
        #expect(
            lectern.wait { lectern.compositor.surfaceCount == 2 && lectern.compositor.toplevels.count == 1 },
            "its surface and subsurface are destroyed; the reader's two remain")
        lectern.press(LecternHarness.Key.minus)
        lectern.press(LecternHarness.Key.minus)
        #expect(lectern.settle())
        #expect(
            lectern.status.zoomScale < 1.01 && lectern.status.framesCommitted > frames,
            "the reader still zooms out: \(lectern.status.zoomScale)")
        #expect(lectern.page(atX: 640, y: 200) == 4)
        try lectern.stop()
    }

    /// Lectern on page 3 with a second output plugged in, the mirror showing page 3, settled.
    private func mirroringPage3() throws -> (KioskHarness, PluggedOutput) {
        let lectern = try KioskHarness([Self.colors, "--page", "3"])
        #expect(lectern.settle())
        let second = lectern.compositor.plugOutput(width: 1920, height: 1080)
        #expect(lectern.wait { lectern.status.mirror?.page == 2 })
        #expect(lectern.settle())
        return (lectern, second)
    }

    @Test("frame callbacks never answered: the mirror, as the reader's window, is drawn without one 2 s on")
    func callbacksLost() throws {
        let (lectern, second) = try mirroringPage3()
        lectern.compositor.autoFrameCallback = false
        lectern.tap(x: 1240, y: 360)
        lectern.advanceWithoutSettling(by: 1.8)
        #expect(lectern.page(atX: 640, y: 200) == 3, "held back while a late compositor may still answer")
        lectern.advanceWithoutSettling(by: 0.4)
        #expect(lectern.page(atX: 640, y: 200) == 4, "the reader's window is drawn without the callback")
        // The mirror follows the reader's page from that frame on, and waits as long for its own.
        lectern.advanceWithoutSettling(by: 1.6)
        #expect(lectern.status.mirror?.page == 2, "the mirror is held back")
        lectern.advanceWithoutSettling(by: 0.6)
        #expect(lectern.status.mirror?.page == 3, "then drawn without the callback")
        // Its tiles of page 4 came meanwhile: the next frame shows them, as late.
        lectern.advanceWithoutSettling(by: 2.1)
        #expect(try Self.page(in: #require(Self.mirrorCommit(lectern))) == 4)
        lectern.compositor.autoFrameCallback = true
        #expect(lectern.settle())
        lectern.compositor.unplug(second)
        try lectern.stop()
    }

    @Test("the mirror moves to the reader's new page over several frames, not in one jump (issue 32)")
    func mirrorAnimates() throws {
        let (lectern, second) = try mirroringPage3()
        let before = lectern.compositor.commits.count
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(4))
        #expect(lectern.wait { lectern.status.mirror?.page == 3 })
        #expect(lectern.settle())
        let frames = lectern.compositor.commits.dropFirst(before).filter { $0.title == Self.title }
        // In between, a frame shows part of page 3 and part of page 4 side by side.
        let between = frames.filter { commit in
            let row = Set(
                (0..<commit.width).compactMap {
                    LecternHarness.page(ofColor: commit.pixel(x: $0, y: commit.height / 2))
                })
            return row.contains(3) && row.contains(4)
        }
        #expect(!between.isEmpty, "\(frames.count) mirror frames, none between the pages")
        #expect(frames.last.map(Self.page(in:)) == 4)
        lectern.compositor.unplug(second)
        try lectern.stop()
    }
}
