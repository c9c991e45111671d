import Foundation
import LecternCore
import LecternRender
import LecternTestSupport
import Testing

/// The wheel through the real `wl_pointer` (as `axis_discrete` at seat version 7, the way
/// cage 0.1.4 sends it, and as `axis_value120` at 8) in the modes where it did nothing, too
/// little, or stopped at a zoomed page's edge (issue 11). `KioskApp` in process, on the
/// manual clock.
@Suite("The wheel on screen", .serialized)
struct WheelOnScreenTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// The first (or last) column of row `y` of the last commit where page `page` shows.
    func edge(ofPage page: Int, _ lectern: KioskHarness, y: Int = 100, last: Bool = false) -> Int? {
        guard let commit = lectern.lastCommit else { return nil }
        let columns = Array(0..<commit.width)
        let found = { (x: Int) in LecternHarness.page(ofColor: commit.pixel(x: x, y: y)) == page }
        return last ? columns.last(where: found) : columns.first(where: found)
    }

    /// The first row of column `x` of the last commit where page `page` shows.
    func top(ofPage page: Int, _ lectern: KioskHarness, x: Int = 100) -> Int? {
        guard let commit = lectern.lastCommit else { return nil }
        return (0..<commit.height).first { LecternHarness.page(ofColor: commit.pixel(x: x, y: $0)) == page }
    }

    /// `count` wheel detents (negative: up), `interval` seconds apart on the clock, as a
    /// compositor at the client's seat version sends them: 15 px of `axis` with
    /// `axis_discrete` (5–7) or 120 units of `axis_value120` (8); then settles.
    func wheel(_ lectern: KioskHarness, detents count: Int, interval: Double = 0.03) {
        let c = lectern.compositor
        let sign: Int32 = count < 0 ? -1 : 1
        for _ in 0..<abs(count) {
            c.pointerAxis(.vertical, value: 15 * Double(sign), value120: 120 * sign, source: 0)
            c.pointerFrame()
            lectern.advanceWithoutSettling(by: interval)
        }
        lectern.settle()
    }

    func enterPointer(_ lectern: KioskHarness, x: Double = 640, y: Double = 360) {
        lectern.compositor.pointerEnter(x: x, y: y)
        lectern.compositor.pointerFrame()
        lectern.turn()
    }

    @Test(
        "continuous horizontal: a detent down moves the pages a tenth of the width to the left",
        arguments: [7, 8] as [Int32])
    func continuousHorizontal(seatVersion: Int32) throws {
        let lectern = try KioskHarness(
            [Self.colors, "--scroll", "continuous", "--page", "5"], seatVersion: seatVersion)
        #expect(lectern.settle())
        // Pages are 491 px wide, 12 apart: 5 at 0...490, 6 at 503...993, 7 from 1006.
        #expect(lectern.dominantPage == 5)
        let start = edge(ofPage: 6, lectern)
        let before = try #require(start, "page 6 right of page 5: \(lectern.pages(alongRow: 100))")
        enterPointer(lectern)
        // A detent is 128 px: page 6 becomes the one whole page on screen.
        wheel(lectern, detents: 1)
        #expect(lectern.dominantPage == 6, "view state: \(lectern.viewState ?? "none")")
        #expect(edge(ofPage: 6, lectern) == before - 128, "page 6's left edge: \(before) → -128")
        #expect(lectern.page(atX: 640, y: 100) == 6)
        wheel(lectern, detents: 2)
        #expect(edge(ofPage: 6, lectern) == before - 384, "three detents: 384 px")
        #expect(lectern.page(atX: 640, y: 100) == 7)
        wheel(lectern, detents: -1)
        #expect(edge(ofPage: 6, lectern) == before - 256, "a detent up moves back 128 px")
        try lectern.stop()
    }

    @Test(
        "continuous horizontal, right to left: a detent down moves the pages to the right",
        arguments: [7, 8] as [Int32])
    func continuousHorizontalRightToLeft(seatVersion: Int32) throws {
        let lectern = try KioskHarness(
            [Self.colors, "--scroll", "continuous", "--binding", "right", "--page", "5"], seatVersion: seatVersion)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 5)
        let start = edge(ofPage: 6, lectern, last: true)
        let before = try #require(start, "page 6 left of page 5: \(lectern.pages(alongRow: 100))")
        enterPointer(lectern)
        wheel(lectern, detents: 1)
        #expect(lectern.dominantPage == 6, "view state: \(lectern.viewState ?? "none")")
        #expect(edge(ofPage: 6, lectern, last: true) == before + 128, "page 6's right edge: \(before) → +128")
        #expect(lectern.page(atX: 640, y: 100) == 6)
        wheel(lectern, detents: 2)
        #expect(edge(ofPage: 6, lectern, last: true) == before + 384, "three detents: 384 px")
        #expect(lectern.page(atX: 640, y: 100) == 7)
        try lectern.stop()
    }

    @Test("continuous vertical: a detent scrolls a tenth of the screen", arguments: [7, 8] as [Int32])
    func continuousVertical(seatVersion: Int32) throws {
        let lectern = try KioskHarness(
            [Self.colors, "--scroll", "continuous", "--direction", "vertical"], width: 600, height: 1200,
            seatVersion: seatVersion)
        #expect(lectern.settle())
        let start = top(ofPage: 2, lectern)
        let before = try #require(start, "page 2 below page 1: \(lectern.pages(alongColumn: 100))")
        enterPointer(lectern, x: 300, y: 600)
        wheel(lectern, detents: 1)
        #expect(top(ofPage: 2, lectern) == before - 120, "one detent: 120 px of 1200")
        #expect(lectern.dominantPage == 1, "view state: \(lectern.viewState ?? "none")")
        // Pages are 816 px tall: four detents leave 348 px of page 1, page 2 whole.
        wheel(lectern, detents: 3)
        #expect(top(ofPage: 2, lectern) == before - 480)
        #expect(lectern.dominantPage == 2, "view state: \(lectern.viewState ?? "none")")
        try lectern.stop()
    }

    @Test("continuous vertical: 120 units of a high-resolution wheel, in quarters, scroll one detent")
    func highResolutionWheel() throws {
        let lectern = try KioskHarness(
            [Self.colors, "--scroll", "continuous", "--direction", "vertical"], width: 600, height: 1200, seatVersion: 8
        )
        #expect(lectern.settle())
        let start = top(ofPage: 2, lectern)
        let before = try #require(start, "page 2 below page 1: \(lectern.pages(alongColumn: 100))")
        enterPointer(lectern, x: 300, y: 600)
        for _ in 0..<8 {
            lectern.compositor.pointerAxis(.vertical, value: 3.75, value120: 30, source: 0)
            lectern.compositor.pointerFrame()
            lectern.advanceWithoutSettling(by: 0.01)
        }
        #expect(lectern.settle())
        #expect(top(ofPage: 2, lectern) == before - 240, "two detents of 120 px")
        try lectern.stop()
    }

    @Test(
        "zoomed in per spread: the wheel pans to the page's bottom, a flick stops there, the next detent turns",
        arguments: [7, 8] as [Int32])
    func zoomedPansThenTurns(seatVersion: Int32) throws {
        let lectern = try KioskHarness([Self.colors, "--page", "3"], seatVersion: seatVersion)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        // Zoomed 1.5³ times about the centre: the page is 2349 px tall, the view 720.
        for _ in 0..<3 { lectern.press(LecternHarness.Key.equal) }
        #expect(lectern.settle())
        #expect(lectern.viewport != nil, "zoomed in: \(lectern.viewState ?? "none")")
        enterPointer(lectern)
        // A flick of 20 detents, 20 ms apart: 72 px each, the bottom is about 815 px away.
        wheel(lectern, detents: 20, interval: 0.02)
        let viewport = try #require(lectern.viewport, "still zoomed: \(lectern.viewState ?? "none")")
        #expect(lectern.dominantPage == 3, "the flick turned no page: \(lectern.viewState ?? "none")")
        #expect(abs(viewport.y) < 1e-6, "at the page's bottom edge (PDF y 0): \(viewport)")
        #expect(lectern.page(atX: 640, y: 715) == 3, "the page reaches the bottom of the screen")
        // 0.2 s after the flick a detent still belongs to it; after 0.3 s one turns a page.
        lectern.advance(by: 0.2)
        wheel(lectern, detents: 1)
        #expect(lectern.dominantPage == 3 && lectern.viewport != nil, "view state: \(lectern.viewState ?? "none")")
        lectern.advance(by: InteractionConfiguration().wheelEdgePause)
        wheel(lectern, detents: 1)
        #expect(lectern.viewState == "page 4", "one page on, at zoom 1")
        #expect(lectern.page(atX: 640, y: 200) == 4)
        #expect(lectern.page(atX: 300, y: 200) == nil, "page 4 fitted: background beside it")
        try lectern.stop()
    }

    @Test("the wheel over the Pages grid scrolls the grid, not the pages behind it")
    func wheelScrollsGrid() throws {
        let lectern = try ThumbnailGridTests.withGrid([try TextDocument.path(pages: 36)])
        #expect(lectern.dominantPage == 1 && lectern.status.navigation.gridOffset == 0)
        let before = lectern.status.navigation.thumbnailPages
        enterPointer(lectern, x: 640, y: 400)
        wheel(lectern, detents: 3)
        #expect(lectern.status.navigation.isGridOpen)
        #expect(lectern.status.navigation.gridOffset > 0, "the grid scrolled")
        #expect(lectern.status.navigation.thumbnailPages != before, "other thumbnails show")
        #expect(lectern.dominantPage == 1, "the pages behind stayed: \(lectern.viewState ?? "none")")
        wheel(lectern, detents: -3)
        #expect(lectern.status.navigation.gridOffset == 0, "and back")
        try lectern.stop()
    }

    @Test("the wheel over the thumbnail bar scrolls the bar; over the page it still turns the page")
    func wheelScrollsBar() throws {
        let lectern = try KioskHarness([try TextDocument.path(pages: 36)])
        #expect(lectern.settle(timeout: .seconds(30)))
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.navigation.isThumbnailBarShown)
        let offset = lectern.status.navigation.barOffset
        enterPointer(lectern, x: 640, y: Double(ThumbnailBarTests.row))
        wheel(lectern, detents: 4)
        #expect(lectern.status.navigation.barOffset > offset, "the bar scrolled")
        #expect(lectern.dominantPage == 1, "the pages behind stayed: \(lectern.viewState ?? "none")")
        enterPointer(lectern, x: 640, y: 300)
        wheel(lectern, detents: 1)
        #expect(lectern.dominantPage == 2, "over the page, a detent turns it")
        try lectern.stop()
    }

    @Test("the wheel over the Contents panel, or beside it, does not turn the pages behind it")
    func wheelOverOutline() throws {
        let lectern = try OutlineOnScreenTests.withChrome(OutlineOnScreenTests.outline)
        let contents = Scene.Chrome.buttonBox(1)
        OutlineOnScreenTests.tap(lectern, (Double(contents.x + 20), Double(contents.y + 20)))
        #expect(lectern.status.navigation.isOutlineOpen)
        let panel = OutlineOnScreenTests.panel
        enterPointer(lectern, x: Double(panel.x + 100), y: Double(panel.y + 100))
        wheel(lectern, detents: 2)
        #expect(lectern.dominantPage == 1, "over the panel: \(lectern.viewState ?? "none")")
        enterPointer(lectern, x: Double(panel.maxX + 100), y: 400)
        wheel(lectern, detents: 2)
        #expect(lectern.dominantPage == 1, "beside the open panel: \(lectern.viewState ?? "none")")
        #expect(lectern.status.navigation.isOutlineOpen)
        try lectern.stop()
    }
}
