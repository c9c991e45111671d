import Foundation
import Glibc
import LecternRender
import LecternTestSupport
import Testing

/// MuPDF in the render worker process (`--render-process on`): what the reader shows when the
/// worker dies or a page overruns its deadline.
@Suite("Render worker process")
struct RenderProcessTests {
    /// Turns (real time) until a request is with the worker; its pid then.
    private func workerBusy(_ lectern: KioskHarness) -> Int32? {
        lectern.wait { (lectern.status.renderWorker?.requestsInFlight ?? 0) > 0 }
        return lectern.status.renderWorker?.pid
    }

    @Test("the worker runs under its seccomp filter, without core dumps, in a limited address space")
    func workerIsConfined() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("colors-8pages.pdf"), "--render-process", "on"])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 360) == 1)
        let pid = try #require(lectern.status.renderWorker?.pid)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2"), "a seccomp filter is in force")
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8).split(separator: "\n")
        let core = try #require(limits.first { $0.hasPrefix("Max core file size") })
        #expect(Array(core.split(separator: " ").dropFirst(4).prefix(2)) == ["0", "0"], "soft and hard limit 0")
        let space = try #require(limits.first { $0.hasPrefix("Max address space") })
        #expect(space.contains(String(2048 << 20)), "\(space)")
        try lectern.stop()
    }

    @Test(
        "a worker killed mid-render comes back: the page shows after the restart, the reader stays up",
        arguments: [SIGKILL, SIGSEGV])
    func workerKilledMidRender(signal: Int32) throws {
        // Each render waits 300 ms in the worker first: the signal comes while it draws.
        let lectern = try KioskHarness([
            LecternHarness.fixture("colors-8pages.pdf"), "--render-process", "on", "--render-delay-ms", "300",
        ])
        let pid = try #require(workerBusy(lectern), "a render is under way in a worker")
        #expect(kill(pid, signal) == 0)
        #expect(lectern.settle())
        let worker = try #require(lectern.status.renderWorker)
        #expect(worker.restarts == 1, "one new worker")
        #expect(worker.pid != nil && worker.pid != pid)
        #expect(worker.failedPages.isEmpty, "the page was not the worker's fault")
        #expect(lectern.page(atX: 640, y: 360) == 1, "page 1 shows")
        #expect(lectern.status.pagesOnScreen.first?.isSharp == true)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "the next page turns to and shows")
        #expect(lectern.page(atX: 640, y: 360) == 2)
        #expect(!lectern.status.isStopping)
        try lectern.stop()
    }

    @Test("a page that draws forever hits the deadline: its banner shows, the other pages turn")
    func pageOverTheDeadline() throws {
        // Page 2 of slow-page.pdf takes minutes (Tests/Fixtures/make-slow-page); pages 1 and 3 are
        // red and blue. The deadline runs on the harness's manual clock.
        let lectern = try KioskHarness([
            LecternHarness.fixture("slow-page.pdf"), "--page", "2", "--render-process", "on", "--render-deadline", "3",
        ])
        let pid = try #require(workerBusy(lectern), "page 2 is with the worker")
        lectern.advanceWithoutSettling(by: 2.9)
        #expect(lectern.status.renderWorker?.failedPages == [], "not before the deadline")
        lectern.advanceWithoutSettling(by: 0.2)
        #expect(lectern.settle())
        let worker = try #require(lectern.status.renderWorker)
        #expect(worker.failedPages == [1], "page 2 could not be drawn")
        let commit = try #require(lectern.lastCommit)
        let page = try #require(lectern.status.pagesOnScreen.first)
        #expect(page.page == 1)
        let inside = commit.pixel(x: page.visible.x + page.visible.width / 2, y: page.visible.y + 40)
        #expect(inside & 0xFF_FFFF == Palette.normal.errorTile.argb & 0xFF_FFFF, "the page is the error colour")
        let banner = DamageRect(x: 0, y: 680, width: 1280, height: 40)
        #expect(commit.darkFraction(in: banner) > 0.3, "a banner shows")
        #expect(lectern.status.banner == "This page could not be drawn.")
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.status.viewState?.pageIndex == 2)
        let blue = try #require(lectern.lastCommit).pixel(x: 640, y: 360)
        #expect(blue & 0xFF_FFFF == 0x00_00FF, "page 3 is drawn (blue) by a new worker")
        #expect(lectern.status.banner == nil)
        #expect(lectern.status.renderWorker?.pid != pid)
        lectern.tap(x: 40, y: 360)
        #expect(lectern.settle(), "turning back to page 2 does not ask the worker again")
        #expect(lectern.status.renderWorker?.restarts == 1)
        try lectern.stop()
    }

    @Test("under the worker, a page over the memory cap is an error tile and the worker lives on")
    func pageOverTheMemoryCap() throws {
        let lectern = try KioskHarness([
            LecternHarness.fixture("huge-image.pdf"), "--page", "2", "--render-process", "on",
        ])
        #expect(lectern.settle())
        let commit = try #require(lectern.lastCommit)
        let page = try #require(lectern.status.pagesOnScreen.first)
        let inside = commit.pixel(x: page.visible.x + page.visible.width / 2, y: page.visible.y + 40)
        #expect(inside & 0xFF_FFFF == Palette.normal.errorTile.argb & 0xFF_FFFF, "the page is the error colour")
        let worker = try #require(lectern.status.renderWorker)
        #expect(worker.restarts == 0 && worker.failedPages.isEmpty, "MuPDF refused the page; the worker did not die")
        #expect(lectern.status.banner == "Part of this page cannot be shown: it is damaged.")
        lectern.tap(x: 60, y: 360)
        #expect(lectern.waitForPage(1), "page 1 still turns to and shows")
        #expect(DocumentOnScreenTests.whiteFraction(try #require(lectern.lastCommit)) > 0.3)
        try lectern.stop()
    }

    @Test("a new version the live reload brings in is drawn by a worker of its own; the old version's worker ends")
    func reloadedVersionHasItsOwnWorker() throws {
        let shelf = try DocumentReloadTests.Shelf()
        let lectern = try KioskHarness([shelf.path, "--render-process", "on"])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 360) == 1)
        let first = try #require(lectern.status.renderWorker?.pid)
        try shelf.replace(with: "letter-6pages.pdf")
        #expect(DocumentReloadTests().letReloadHappen(lectern, quiet: 0.06))
        #expect(lectern.status.document == .open(pageCount: 6), "the new version: \(lectern.status.document)")
        let second = try #require(lectern.status.renderWorker?.pid)
        #expect(second != first, "a worker of its own")
        #expect(kill(first, 0) != 0, "the old version's worker ended and was reaped")
        #expect(lectern.page(atX: 640, y: 360) == nil, "the colour page is gone")
        #expect(lectern.status.pagesOnScreen.allSatisfy { $0.isSharp }, "the new version is drawn")
        #expect((lectern.status.renderWorker?.tilesDrawn ?? 0) > 0, "by its worker")
        let seccomp = try String(contentsOfFile: "/proc/\(second)/status", encoding: .utf8)
        #expect(seccomp.contains("Seccomp:\t2"), "confined like the first")
        try lectern.stop()
    }

    @Test("a page that crashes the worker whenever it is drawn shows its banner; the pages drawn beside it do not")
    func onlyTheCrashingPageIsBlamed() throws {
        // Page 2 crashes the worker (SIGSEGV) as soon as it is asked for; every other render
        // takes 100 ms, and the spread 1|2 is drawn on two render threads at once, so the crash
        // comes while page 1 is being drawn.
        let lectern = try KioskHarness([
            LecternHarness.fixture("colors-8pages.pdf"), "--render-process", "on", "--render-crash-page", "2",
            "--render-delay-ms", "100", "--spreads", "double",
        ])
        #expect(lectern.wait { lectern.status.renderWorker?.failedPages == [1] }, "page 2 given up")
        #expect(lectern.settle())
        let worker = try #require(lectern.status.renderWorker)
        #expect(worker.failedPages == [1], "only page 2: \(worker.failedPages)")
        #expect(worker.restarts >= 1, "it crashed a second worker alone")
        #expect(lectern.page(atX: 400, y: 360) == 1, "page 1 is drawn")
        #expect(lectern.status.banner == "This page could not be drawn.", "page 2's banner")
        try lectern.stop()
    }

    @Test("a document whose opening crashes the render worker is an error on screen; the reader never opens it")
    func crashOpeningIsAFailure() throws {
        let lectern = try KioskHarness([
            LecternHarness.fixture("colors-8pages.pdf"), "--render-process", "on", "--render-crash-opening",
        ])
        #expect(lectern.wait { if case .failed = lectern.status.document { true } else { false } })
        guard case .failed(let message) = lectern.status.document else {
            Issue.record("the document opened: \(lectern.status.document)")
            return
        }
        #expect(message == "colors-8pages.pdf: the file is damaged.", "plain words on screen: \(message)")
        let error = try #require(lectern.status.documentError)
        #expect(error.contains("MuPDF crashed opening it"), "the details are in the log: \(error)")
        #expect(lectern.page(atX: 640, y: 360) == nil, "no page is shown")
        #expect(!lectern.status.isStopping)
        try lectern.stop()
    }
}
