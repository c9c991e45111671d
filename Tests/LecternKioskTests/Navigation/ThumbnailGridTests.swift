import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// The thumbnail grid through the test compositor: rows right to left with pairs flipped under
/// right-edge binding (by pixels of colors-8pages.pdf), a tap going there, the chrome's Pages
/// button and a pinch opening it, and a 15,000-page grid that lays out per frame what a
/// 36-page one does.
@Suite("The thumbnail grid")
struct ThumbnailGridTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let colorsRTL = LecternHarness.fixture("colors-rtl-8pages.pdf")
    static let area = Scene.ThumbnailSheet.area(width: 1280, height: 720)
    /// Rows of thumbnails start after the margin; a row is a cell and its label, then the gap.
    static let firstRow = area.y + 24
    static let rowPitch = Int(Scene.ThumbnailSheet.pageCell.height + Scene.ThumbnailSheet.labelHeight + 24)

    /// Opens the grid with the chrome's Pages button.
    static func withGrid(_ arguments: [String]) throws -> KioskHarness {
        let lectern = try KioskHarness(arguments)
        #expect(lectern.settle(timeout: .seconds(30)))
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        let pages = Scene.Chrome.buttonBox(0)
        lectern.tap(x: Double(pages.x + 20), y: Double(pages.y + 20))
        #expect(lectern.settle())
        #expect(lectern.status.navigation.isGridOpen, "Pages opens the grid")
        return lectern
    }

    /// The pages along row `y`, grouped where only the grid's ground lies between them.
    static func groups(_ lectern: KioskHarness, y: Int) -> [(pages: [Int], from: Int)] {
        guard let commit = lectern.lastCommit else { return [] }
        let ground = Palette.normal.chrome.argb & 0xFF_FFFF
        var groups: [(pages: [Int], from: Int)] = []
        var groundRun = 0
        for x in 0..<commit.width {
            let pixel = commit.pixel(x: x, y: y)
            if pixel & 0xFF_FFFF == ground {
                groundRun += 1
                continue
            }
            guard let page = LecternHarness.page(ofColor: pixel) else { continue }
            if groups.isEmpty || groundRun >= 3 {
                groups.append(([page], x))
            } else if groups[groups.count - 1].pages.last != page {
                groups[groups.count - 1].pages.append(page)
            }
            groundRun = 0
        }
        return groups
    }

    @Test("rows run right to left with pairs flipped under right-edge binding; left to right otherwise")
    func order() throws {
        let rtl = try Self.withGrid([Self.colorsRTL, "--spreads", "double"])
        let row0 = Self.groups(rtl, y: Self.firstRow + 10)
        let row1 = Self.groups(rtl, y: Self.firstRow + Self.rowPitch + 10)
        #expect(row0.map(\.pages) == [[6, 5], [4, 3], [2, 1]], "\(row0)")
        #expect(
            row1.map(\.pages) == [[8, 7]] && (row1.first?.from ?? 0) > 640, "the last row starts at the right: \(row1)")
        try rtl.stop()

        let ltr = try Self.withGrid([Self.colors])
        #expect(Self.groups(ltr, y: Self.firstRow + 10).map(\.pages) == [[1], [2], [3], [4], [5], [6], [7]])
        let last = Self.groups(ltr, y: Self.firstRow + Self.rowPitch + 10)
        #expect(last.map(\.pages) == [[8]] && (last.first?.from ?? 1280) < 640, "\(last)")
        try ltr.stop()
    }

    @Test("a tap on a page goes there and closes the grid; Close and Escape close it")
    func tapGoesThere() throws {
        let lectern = try Self.withGrid([Self.colorsRTL, "--spreads", "double"])
        let row0 = Self.groups(lectern, y: Self.firstRow + 10)
        let pair = try #require(row0.first { $0.pages == [4, 3] })
        // The right half of the pair is page 3.
        lectern.tap(x: Double(pair.from + 200), y: Double(Self.firstRow + 100))
        #expect(lectern.waitForPage(3), "tapped page 3: \(lectern.viewState ?? "none")")
        #expect(!lectern.status.navigation.isGridOpen)
        #expect(lectern.page(atX: 960, y: 300) == 3 && lectern.page(atX: 320, y: 300) == 4, "pages 4 | 3")

        #expect(lectern.status.isUserInterfaceVisible, "the chrome stays as it was")
        let button = Scene.Chrome.buttonBox(0)
        lectern.tap(x: Double(button.x + 20), y: Double(button.y + 20))
        #expect(lectern.settle() && lectern.status.navigation.isGridOpen)
        let close = Scene.ThumbnailSheet.closeButton(width: 1280, height: 720)
        lectern.tap(x: Double(close.x + 20), y: Double(close.y + 20))
        #expect(lectern.settle() && !lectern.status.navigation.isGridOpen)
        #expect(lectern.dominantPage == 3, "closing goes nowhere")
        lectern.tap(x: Double(button.x + 20), y: Double(button.y + 20))
        #expect(lectern.settle() && lectern.status.navigation.isGridOpen)
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.escape)
        #expect(!lectern.status.navigation.isGridOpen && lectern.dominantPage == 3, "Escape closes it")
        try lectern.stop()
    }

    @Test("pinching the fitted page smaller opens the grid")
    func pinchOpens() throws {
        let lectern = try KioskHarness([Self.colors])
        #expect(lectern.settle())
        lectern.pinchTogether()
        #expect(lectern.settle())
        #expect(lectern.status.navigation.isGridOpen, "600 px apart to 0: the grid")
        try lectern.stop()
    }

    /// Flings a 15,000-page grid down and counts, frame by frame, the thumbnails laid out: never
    /// more than a screenful, as for 36 pages; and what it renders is what it showed.
    @Test("a 15,000-page grid scrolls with per-frame cost independent of the page count")
    func virtualized() throws {
        var atStart: [Int: Int] = [:]
        for pages in [36, 15_000] {
            let lectern = try Self.withGrid([try TextDocument.path(pages: pages)])
            atStart[pages] = lectern.status.navigation.thumbnailsInFrame
            if pages == 36 {
                try lectern.stop()
                continue
            }
            let rendersBefore = lectern.status.tileRendersStarted
            var most = 0
            var seen = Set<Int>()
            // Three flicks up: the grid scrolls down the document.
            for _ in 0..<3 {
                lectern.drag(from: (640, 650), to: (640, 150), steps: 5, interval: .nanoseconds(16_666_667))
                var frames = 0
                while lectern.status.isAnimating, frames < 600 {
                    lectern.clock.advance(by: KioskHarness.frame)
                    lectern.turn(wait: .milliseconds(1))
                    let status = lectern.status.navigation
                    most = max(most, status.thumbnailsInFrame)
                    seen.formUnion(status.thumbnailPages)
                    frames += 1
                }
            }
            #expect(lectern.settle())
            let pagesShown = lectern.status.navigation.thumbnailPages
            #expect((pagesShown.first ?? 0) > 200, "flung far down the document: \(pagesShown.prefix(3))…")
            #expect(most <= 28, "at most four rows of seven a frame: \(most)")
            let renders = lectern.status.tileRendersStarted - rendersBefore
            #expect(renders <= seen.count + 28, "rendered \(renders) for \(seen.count) thumbnails shown")
            try lectern.stop()
        }
        #expect(atStart[36] == atStart[15_000] && (14...28).contains(atStart[36] ?? 0), "at the start: \(atStart)")
    }

    @Test("a tap on Close while the grid still moves after a flick closes it (it only stopped the flick)")
    func closeWhileFlinging() throws {
        let lectern = try Self.withGrid([try TextDocument.path(pages: 200)])
        lectern.drag(from: (640, 650), to: (640, 150), steps: 5, interval: .nanoseconds(16_666_667))
        for _ in 0..<90 {
            lectern.clock.advance(by: KioskHarness.frame)
            lectern.turn(wait: .milliseconds(1))
        }
        #expect(lectern.status.isAnimating, "1.5 s on, the grid still moves")
        let close = Scene.ThumbnailSheet.closeButton(width: 1280, height: 720)
        lectern.tap(x: Double(close.x + close.width / 2), y: Double(close.y + close.height / 2))
        #expect(lectern.settle())
        #expect(!lectern.status.navigation.isGridOpen, "one tap on Close closes the grid")
        try lectern.stop()
    }

    @Test("with a shelf, the Pages button sits after the back button: each does what it says")
    func besideTheBackButton() throws {
        let colors = LecternHarness.fixture("colors-8pages.pdf")
        let policy = try PolicyTests.PolicyDirectory(
            """
            documents = ["\(colors)", "\(LecternHarness.fixture("presentation-8pages.pdf"))"]
            """)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.wait { lectern.status.shelf.count == 2 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        let cover = try #require(lectern.status.shelf.first).box
        lectern.tap(x: Double(cover.x + cover.width / 2), y: Double(cover.y + cover.height / 2))
        #expect(lectern.wait { !lectern.status.isShelfShown })
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.5)
        #expect(lectern.status.isUserInterfaceVisible)
        let back = Scene.Chrome.backButton(width: 1280, height: 720)
        let pages = Scene.Chrome.buttonBox(0, after: back.maxX)
        #expect(pages.x >= back.maxX, "Pages does not cover the back button")
        lectern.tap(x: Double(pages.x + pages.width / 2), y: Double(pages.y + pages.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.navigation.isGridOpen, "the Pages button, after the back button, opens the grid")
        #expect(lectern.status.navigation.search == nil, "and nothing else")
        let close = Scene.ThumbnailSheet.closeButton(width: 1280, height: 720)
        lectern.tap(x: Double(close.x + close.width / 2), y: Double(close.y + close.height / 2))
        #expect(lectern.settle() && !lectern.status.navigation.isGridOpen)
        lectern.tap(x: Double(back.x + back.width / 2), y: Double(back.y + back.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.isShelfShown, "the back button still goes back to the shelf")
        try lectern.stop()
    }
}
