import Foundation
import LecternCore
import LecternKiosk
import LecternPDF
import LecternRender
import LecternTestSupport
import Testing

/// What a visitor sees of a document, good or bad: `KioskApp` in this process against the test
/// compositor, read through its status and the committed pixels. (The binary's own behaviour,
/// exit statuses and signals, is in `BinaryTests`.)
@Suite("Documents on screen")
struct DocumentOnScreenTests {
    /// The fraction of pixels in the middle third that are page-white.
    static func whiteFraction(_ commit: Commit) -> Double {
        var white = 0, total = 0
        for y in stride(from: commit.height / 3, to: 2 * commit.height / 3, by: 3) {
            for x in stride(from: commit.width / 3, to: 2 * commit.width / 3, by: 3) {
                total += 1
                if commit.pixel(x: x, y: y) & 0x00FF_FFFF == 0x00FF_FFFF { white += 1 }
            }
        }
        return Double(white) / Double(max(total, 1))
    }

    /// The PNG at `path` holds exactly the pixels of `commit`.
    static func expectDump(
        _ path: String, shows commit: Commit, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let image = try PNGReader.read(path: path)
        #expect(image.width == commit.width && image.height == commit.height, sourceLocation: sourceLocation)
        var mismatches = 0
        for y in 0..<commit.height {
            for x in 0..<commit.width where commit.pixel(x: x, y: y) & 0xFF_FFFF != image.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(
            mismatches == 0, "\(mismatches) pixels differ between the frame dump and the committed frame",
            sourceLocation: sourceLocation)
    }

    @Test("commits a frame of the configured size that shows the page, then one of a new size")
    func showsPageAndFollowsConfigure() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("text-3pages.pdf")])
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 3))
        let first = try #require(lectern.lastCommit)
        #expect(first.width == 1280 && first.height == 720)
        #expect(first.configureAcked, "the configure was acknowledged before the buffer was attached")
        #expect(Self.whiteFraction(first) > 0.5, "the middle of the screen shows the white page")
        #expect(first.darkFraction() > 0.001, "text on the page is drawn")
        #expect(lectern.compositor.toplevel?.wantsFullscreen == true)

        #expect(lectern.resize(to: 600, 900))
        let resized = try #require(lectern.lastCommit)
        #expect(resized.width == 600 && resized.height == 900)
        #expect(Self.whiteFraction(resized) > 0.5)
        try lectern.stop()
    }

    @Test("a 0x0 configure means: use the output size")
    func zeroConfigureUsesOutputSize() throws {
        let lectern = try KioskHarness(
            [LecternHarness.fixture("text-3pages.pdf")], width: 1024, height: 600, autoConfigure: false)
        #expect(lectern.wait { lectern.compositor.toplevel != nil })
        lectern.compositor.configure(width: 0, height: 0)
        #expect(lectern.settle())
        let commit = try #require(lectern.lastCommit)
        #expect(commit.width == 1024 && commit.height == 600)
        try lectern.stop()
    }

    @Test("a tap on the right edge shows the next page moving in a few milliseconds later, not a frame later")
    func pageTurnMovesAtOnce() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("colors-8pages.pdf")])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 360) == 1)
        let commits = lectern.compositor.commitCount
        let before = try #require(lectern.lastCommit)
        lectern.tap(x: 1240, y: 360)
        lectern.clock.advance(by: 0.005)
        lectern.turn()
        let moved = try #require(lectern.lastCommit)
        #expect(lectern.compositor.commitCount > commits, "a frame 5 ms after the tap")
        #expect(moved.pixel(x: 640, y: 360) == before.pixel(x: 640, y: 360), "the same page still fills the middle")
        let hasMoved = moved.pixels != before.pixels  // not in #expect: it would print every pixel
        #expect(hasMoved, "but it has moved")
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 2)
        try lectern.stop()
    }

    @Test("at rest, nothing is drawn or rendered however long the clock runs")
    func idleCostsNothing() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("text-3pages.pdf")])
        #expect(lectern.settle(), "the tiles arrive and the frames stop")
        let commits = lectern.compositor.commitCount
        let renders = lectern.status.tileRendersStarted
        for _ in 0..<30 {
            lectern.advanceWithoutSettling(by: 0.1)
            lectern.turn(wait: .milliseconds(1))
        }
        #expect(lectern.compositor.commitCount == commits, "no frames while nothing changes")
        #expect(lectern.status.tileRendersStarted == renders, "no tile is rendered again")
        #expect(lectern.status.isAtRest)
        try lectern.stop()
    }

    @Test(
        "bad documents keep Lectern up and show a readable message",
        arguments: [
            ("does-not-exist.pdf", "the file is missing", "no such file"),
            ("not-a-pdf.pdf", "it is not a PDF document", "not a PDF"),
            ("zero-pages.pdf", "it has no pages", "no pages"),
            ("encrypted.pdf", "it is protected by a password", "password"),
        ])
    func badDocument(name: String, reason: String, detail: String) throws {
        let lectern = try KioskHarness([LecternHarness.fixture(name)])
        #expect(lectern.settle())
        guard case .failed(let message) = lectern.status.document else {
            Issue.record("\(name) is not shown as failed: \(lectern.status.document)")
            return
        }
        #expect(message == "\(name): \(reason).", "the screen names the file and says why plainly: \(message)")
        #expect(!message.contains("/"), "no path on screen: \(message)")
        let error = try #require(lectern.status.documentError)
        #expect(
            error.contains(LecternHarness.fixture(name)) && error.lowercased().contains(detail.lowercased()),
            "the log keeps the path and the details: \(error)")
        let commit = try #require(lectern.lastCommit)
        #expect(!commit.isUniform, "never a blank screen")
        // The message card: bright text pixels in the middle band.
        var bright = 0
        for y in stride(from: commit.height / 3, to: 2 * commit.height / 3, by: 2) {
            for x in stride(from: 0, to: commit.width, by: 2) where Commit.luminance(commit.pixel(x: x, y: y)) > 200 {
                bright += 1
            }
        }
        #expect(bright > 200, "a message is drawn (\(bright) bright pixels)")
        lectern.advance(by: 1)
        #expect(!lectern.status.isStopping, "Lectern stays up")
        try lectern.stop()
    }

    @Test("a truncated document shows what can be recovered, with a banner saying so")
    func truncatedDocument() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("truncated.pdf")])
        #expect(lectern.settle())
        let pdf = try PDFDocument(path: LecternHarness.fixture("truncated.pdf"))
        #expect(pdf.wasRepaired, "MuPDF repairs the truncated file")
        #expect(lectern.status.document == .open(pageCount: pdf.pageCount))
        let commit = try #require(lectern.lastCommit)
        #expect(!commit.isUniform)
        #expect(Self.whiteFraction(commit) > 0.3, "a page shows")
        let banner = DamageRect(x: 0, y: 680, width: 1280, height: 40)
        #expect(commit.darkFraction(in: banner) > 0.3, "the banner along the bottom says the file is damaged")
        try lectern.stop()
    }

    @Test("--frame-dump writes what was committed as a PNG, atomically")
    func frameDump() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-dump-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("frame.png").path
        let lectern = try KioskHarness([LecternHarness.fixture("text-3pages.pdf"), "--frame-dump", dump])
        #expect(lectern.settle())
        let committed = try #require(lectern.lastCommit)
        try lectern.stop()  // writes the last frame and waits for it
        try Self.expectDump(dump, shows: committed)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["frame.png"], "the write is atomic: no temporary files left behind")
    }

    @Test("the policy file's frame-dump writes the committed frame as --frame-dump does")
    func frameDumpFromThePolicy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-dump-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("frame.png").path
        let policy = directory.appendingPathComponent("lectern.toml").path
        try """
        document = "\(LecternHarness.fixture("text-3pages.pdf"))"
        frame-dump = "\(dump)"
        """.write(toFile: policy, atomically: true, encoding: .utf8)
        let lectern = try KioskHarness(["--config", policy])
        #expect(lectern.settle())
        let committed = try #require(lectern.lastCommit)
        try lectern.stop()
        try Self.expectDump(dump, shows: committed)
    }

    @Test("a frame dump that cannot be written is reported, and the reader carries on")
    func frameDumpUnwritable() throws {
        let lectern = try KioskHarness([
            LecternHarness.fixture("colors-8pages.pdf"), "--frame-dump", "/proc/lectern-cannot-write-here/frame.png",
        ])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "the reader still turns pages")
        #expect(lectern.wait(timeout: .seconds(5)) { lectern.status.frameDumpError != nil }, "the failure is reported")
        #expect(lectern.page(atX: 640, y: 200) == 2)
        #expect(!lectern.status.isStopping)
        try lectern.stop()
    }

    @Test("a page that needs more memory than MuPDF may take shows as an error tile; the others show")
    func pageOverTheMemoryCap() throws {
        // Page 2 asks MuPDF for a 450 MB bitmap (a 1 KB file: Tests/Fixtures/make-huge-image).
        let lectern = try KioskHarness([LecternHarness.fixture("huge-image.pdf"), "--page", "2"])
        #expect(lectern.settle())
        let commit = try #require(lectern.lastCommit)
        let page = try #require(lectern.status.pagesOnScreen.first)
        let inside = commit.pixel(x: page.visible.x + page.visible.width / 2, y: page.visible.y + 40)
        #expect(inside & 0xFF_FFFF == Palette.normal.errorTile.argb & 0xFF_FFFF, "the page is the error colour")
        let banner = DamageRect(x: 0, y: 680, width: 1280, height: 40)
        #expect(commit.darkFraction(in: banner) > 0.3, "a banner says part of the page cannot be shown")
        lectern.tap(x: 60, y: 360)
        #expect(lectern.waitForPage(1), "page 1 still turns to and shows")
        #expect(DocumentOnScreenTests.whiteFraction(try #require(lectern.lastCommit)) > 0.3)
        try lectern.stop()
    }
}
