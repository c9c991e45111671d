import Foundation
import LecternTestSupport
import Testing

/// Issue 10: page trees whose /Count lies (Tests/Fixtures/make-count-fixtures). What a visitor
/// sees runs `KioskApp` in process; memory and signals run the real binary. Each fixture holds
/// the 8 pages of colors-8pages.pdf, so pixels tell the page.
@Suite("Page trees that lie about their page count", .serialized)
struct LyingPageCountTests {
    /// The lying fixtures: a root claiming 1,410,065,407 pages (as written, and as MuPDF reads
    /// 9,999,999,999), intermediate nodes that lie, /Kids that loop back to an ancestor.
    static let lyingFiles = [
        "count-root-lie.pdf", "count-root-overflow.pdf", "count-intermediate-lie.pdf", "count-kids-loop.pdf",
    ]

    /// The middle of the top of the screen, above the white page number: a page's colour.
    static let probe = (x: 640, y: 80)

    @Test(
        "the first page shows and the page count becomes the real one, every page where it is",
        arguments: lyingFiles)
    func theRealCountWins(file: String) throws {
        let lectern = try KioskHarness([LecternHarness.fixture(file)])
        #expect(lectern.settle(), "\(file): at rest, the page tree walked")
        #expect(lectern.page(atX: Self.probe.x, y: Self.probe.y) == 1, "\(file): page 1 shows")
        #expect(lectern.dominantPage == 1)
        #expect(lectern.status.document == .open(pageCount: 8), "\(file): \(lectern.status.document)")
        #expect(lectern.enableKeyboard())
        // The last page is page 8 (before, End led to page 1,410,065,407, which does not exist).
        lectern.press(LecternHarness.Key.end)
        #expect(lectern.waitForPage(8), "\(file): End goes to page 8, view state \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: Self.probe.x, y: Self.probe.y) == 8, "\(file): page 8 shows")
        // Every page is found by its index, whatever the intermediate /Count entries say.
        for page in [4, 6, 2, 5, 7, 3] {
            lectern.type(page: page)
            #expect(lectern.waitForPage(page), "\(file): typed \(page)")
            #expect(lectern.page(atX: Self.probe.x, y: Self.probe.y) == page, "\(file): page \(page) shows")
        }
        // A page past the real end goes to the last one.
        lectern.type(page: 12)
        #expect(lectern.waitForPage(8), "\(file): 12 goes to page 8")
        #expect(lectern.page(atX: Self.probe.x, y: Self.probe.y) == 8)
        try lectern.stop()
    }

    /// Runs the binary on `file` until the page tree is read and page 8 shows, checking the
    /// pixels on the way; returns its peak memory (KiB) and its first-frame log line.
    func peakMemory(_ file: String) throws -> (peakKiB: Int, firstFrame: String) {
        let lectern = try LecternHarness([LecternHarness.fixture(file)], width: 1280, height: 720)
        #expect(lectern.settle(quiet: .milliseconds(200), timeout: .seconds(20)), "\(file): a first frame")
        #expect(lectern.page(atX: Self.probe.x, y: Self.probe.y) == 1, "\(file): page 1 shows")
        #expect(lectern.waitForLog("read the sizes of 8 pages", timeout: .seconds(20)), "\(file): 8 pages found")
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.end)
        let shown = lectern.compositor.wait(timeout: .seconds(10)) {
            lectern.page(atX: Self.probe.x, y: Self.probe.y) == 8
        }
        #expect(shown, "\(file): End shows page 8")
        lectern.settle(quiet: .milliseconds(200), timeout: .seconds(10))
        let peak = try Self.peakResidentKiB(lectern.process.processIdentifier)
        let firstFrame =
            lectern.process.errorOutput.split(separator: "\n").first {
                $0.contains("frame committed") && $0.contains("(page")
            }.map(String.init) ?? ""
        #expect(try lectern.stop() == 0)
        return (peak, firstFrame)
    }

    @Test("opening a lying tree costs the memory of opening the honest one (within 5 MB)")
    func memoryOfTheHonestFile() throws {
        // The honest file once, then each lying one (the binary is spawned for each).
        let honest = try peakMemory("count-honest.pdf")
        for file in Self.lyingFiles {
            let lying = try peakMemory(file)
            print("\(file): peak RSS \(lying.peakKiB) KiB, honest \(honest.peakKiB) KiB; \(lying.firstFrame)")
            #expect(
                abs(lying.peakKiB - honest.peakKiB) <= 5 * 1024,
                "\(file) peaked at \(lying.peakKiB) KiB, the honest file at \(honest.peakKiB) KiB")
        }
    }

    @Test(
        "SIGTERM while the page tree is walked ends Lectern within a second",
        arguments: lyingFiles + ["count-honest.pdf"])
    func sigtermDuringTheWalk(file: String) throws {
        // Each step of the walk takes 300 ms: the walk of these small trees then lasts seconds
        // (at open for a count no file of this size could hold, after the first frame otherwise).
        let lectern = try LecternHarness(
            [LecternHarness.fixture(file)], width: 1280, height: 720,
            environment: ["LECTERN_TEST_PAGE_TREE_DELAY_MS": "300"])
        #expect(lectern.waitForLog("reading the page tree", timeout: .seconds(20)))
        lectern.pump(.milliseconds(350))
        let start = ContinuousClock.now
        lectern.process.terminate()
        let status = lectern.process.waitForExit(timeout: .seconds(5), dispatching: lectern.compositor)
        let took = ContinuousClock.now - start
        #expect(status == 0, "\(file): exit status \(status.map(String.init) ?? "none (still running)")")
        #expect(took < .seconds(1), "\(file): took \(took) to exit")
        #expect(!lectern.process.errorOutput.contains("pages read in"), "the signal came during the walk")
        try lectern.compositor.teardown()
    }

    /// VmHWM of process `pid`, in KiB.
    static func peakResidentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
