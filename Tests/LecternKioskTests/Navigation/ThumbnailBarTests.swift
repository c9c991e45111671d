import Foundation
import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// The thumbnail bar through the test compositor: its order and pairs under both bindings,
/// read off the pixels of colors-8pages.pdf (one colour a page), the current spread marked, a
/// tap on a thumbnail going there, a finger scrolling it, and what it costs a big document.
@Suite("The thumbnail bar")
struct ThumbnailBarTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let colorsRTL = LecternHarness.fixture("colors-rtl-8pages.pdf")
    static let strip = Scene.ThumbnailBar.stripArea(width: 1280, height: 720)
    /// A row through the top of the thumbnails, above the pages' big white numbers.
    static let row = strip.y + 10

    /// The reader with its chrome (and so the bar) shown, every thumbnail rendered.
    static func withBar(_ arguments: [String]) throws -> KioskHarness {
        let lectern = try KioskHarness(arguments)
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.navigation.isThumbnailBarShown, "a single tap shows the chrome and the bar")
        return lectern
    }

    /// What lies along the bar's row: the pages of colors-8pages.pdf, grouped where nothing but
    /// the bar's ground lies between them, with where each group starts and ends.
    static func groups(_ lectern: KioskHarness) -> [(pages: [Int], from: Int, to: Int)] {
        guard let commit = lectern.lastCommit else { return [] }
        let ground = Palette.normal.chrome.argb & 0xFF_FFFF
        var groups: [(pages: [Int], from: Int, to: Int)] = []
        var groundRun = 0
        for x in strip.x..<strip.maxX {
            let pixel = commit.pixel(x: x, y: row)
            if pixel & 0xFF_FFFF == ground {
                groundRun += 1
                continue
            }
            guard let page = LecternHarness.page(ofColor: pixel) else { continue }
            if groups.isEmpty || groundRun >= 3 {
                groups.append(([page], x, x))
            } else if groups[groups.count - 1].pages.last != page {
                groups[groups.count - 1].pages.append(page)
            }
            groups[groups.count - 1].to = x
            groundRun = 0
        }
        return groups
    }

    @Test(
        "the bar shows the spreads in order, pairs and the cover as the reader groups them, mirrored right to left",
        arguments: [
            ([colors], [[1], [2], [3], [4], [5], [6], [7], [8]]),
            ([colors, "--spreads", "double"], [[1, 2], [3, 4], [5, 6], [7, 8]]),
            ([colors, "--spreads", "cover"], [[1], [2, 3], [4, 5], [6, 7], [8]]),
            ([colors, "--binding", "right"], [[8], [7], [6], [5], [4], [3], [2], [1]]),
            // The binding read from the PDF (/Direction /R2L).
            ([colorsRTL, "--spreads", "double"], [[8, 7], [6, 5], [4, 3], [2, 1]]),
            ([colorsRTL, "--spreads", "cover"], [[8], [7, 6], [5, 4], [3, 2], [1]]),
        ])
    func order(arguments: [String], expected: [[Int]]) throws {
        let lectern = try Self.withBar(arguments)
        let groups = Self.groups(lectern)
        #expect(groups.map(\.pages) == expected, "\(arguments.dropFirst()): \(groups)")
        if groups.map(\.pages) != expected { lectern.saveLastCommit("thumbnail-bar-\(expected.count)") }
        try lectern.stop()
    }

    @Test(
        "no thumbnail lies under the accessibility button: the strip ends beside it (at the screen's edge without it)",
        arguments: [("en", true), ("en", false), ("he", true)])
    func roomForTheButton(language: String, button: Bool) throws {
        // 600 wide, the eight thumbnails are wider than the strip: page 1's is at its left end.
        // In Hebrew the button is at the bottom right.
        let lectern = try KioskHarness(
            [Self.colors, "--language", language] + (button ? [] : ["--no-accessibility-button"]), width: 600,
            height: 720)
        #expect(lectern.settle())
        lectern.tap(x: 300, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.settle())
        let strip = Scene.ThumbnailBar.stripArea(width: 600, height: 720)
        let commit = try #require(lectern.lastCommit)
        func page(at x: Int) -> Int? { LecternHarness.page(ofColor: commit.pixel(x: x, y: Self.row)) }
        var start = strip.x
        if button {
            let box = try #require(lectern.status.accessibilityButton, "the button shows")
            #expect(!box.intersection(strip).isEmpty, "the button is over the bar")
            // The row runs just above the button's box: a thumbnail under the button shows there.
            let covered = (max(strip.x, box.x - 8)..<min(strip.maxX, box.maxX + 8)).first { page(at: $0) != nil }
            #expect(covered == nil, "a thumbnail under the button or in its gap")
            if box.x < strip.x + strip.width / 2 { start = box.maxX + 8 }
        } else {
            #expect(lectern.status.accessibilityButton == nil)
        }
        let first = (strip.x..<strip.maxX).lazy.compactMap { x in page(at: x).map { (page: $0, x: x) } }.first
        // The thumbnail is centred in its cell: a page narrower than the cell starts a little in.
        let shown = first.map { $0.page == 1 && (start..<start + 8).contains($0.x) } ?? false
        #expect(shown, "page 1's thumbnail first, at \(start): \(String(describing: first))")
        if !shown { lectern.saveLastCommit("thumbnail-bar-button-\(language)-\(button)") }
        try lectern.stop()
    }

    @Test("the current spread is marked, a tap on a thumbnail goes to its page, the mark follows")
    func tapGoesThere() throws {
        let lectern = try Self.withBar([Self.colorsRTL, "--spreads", "double"])
        let accent = Palette.normal.accent.argb & 0xFF_FFFF
        func markedGroup() -> [Int]? {
            guard let commit = lectern.lastCommit else { return nil }
            // The mark runs around the spread, 3 px outside it: look just beside each group.
            return Self.groups(lectern).first { group in
                commit.pixel(x: group.from - 2, y: Self.row) & 0xFF_FFFF == accent
                    && commit.pixel(x: group.to + 2, y: Self.row) & 0xFF_FFFF == accent
            }?.pages
        }
        #expect(markedGroup() == [2, 1], "at the start, the first spread (right end) is marked")
        let target = try #require(Self.groups(lectern).first { $0.pages == [6, 5] })
        // The left half of the pair is page 6.
        lectern.tap(x: Double(target.from + 10), y: Double(Self.row + 30))
        #expect(lectern.waitForPage(6), "the tap on page 6's thumbnail: \(lectern.viewState ?? "none")")
        #expect(lectern.status.navigation.isThumbnailBarShown, "the bar stays")
        #expect(lectern.page(atX: 320, y: 300) == 6 && lectern.page(atX: 960, y: 300) == 5, "pages 6 | 5 on screen")
        #expect(markedGroup() == [6, 5], "the mark moved to the spread shown")
        try lectern.stop()
    }

    @Test("a finger scrolls the bar, a flick keeps it going, and a tap there goes to that page")
    func scrolling() throws {
        let path = try TextDocument.path(pages: 15_000)
        let lectern = try Self.withBar([path])
        let first = lectern.status.navigation.thumbnailPages
        #expect(first.first == 0 && first.count >= 15, "the start of the document: \(first)")
        // A slow drag, held still before lifting: the strip moves with the finger and stops.
        let y = Double(Self.row + 30)
        lectern.drag(from: (1100, y), to: (300, y), steps: 20, interval: .milliseconds(30), release: false)
        lectern.advanceWithoutSettling(by: 0.2)
        lectern.compositor.touchUp(id: 0)
        #expect(lectern.settle())
        let dragged = lectern.status.navigation.thumbnailPages
        // 800 px is ten cells of 66 and their gaps (80 px).
        #expect((9...11).contains(dragged.first ?? -1), "dragged 800 px: \(dragged.prefix(3))…")
        #expect(lectern.dominantPage == 1, "scrolling the bar does not turn the page")
        // A flick: 400 px in 100 ms, then lifted at once.
        lectern.drag(from: (900, y), to: (500, y), steps: 6, interval: .nanoseconds(16_666_667))
        #expect(lectern.status.isAnimating, "the strip keeps moving")
        #expect(lectern.settle())
        let flung = lectern.status.navigation.thumbnailPages
        #expect(
            (flung.first ?? 0) > (dragged.first ?? 0) + 10, "flung further than the finger went: \(flung.prefix(3))")
        // A tap on the middle thumbnail goes to its page.
        let page = try #require(flung.dropFirst(flung.count / 2).first)
        let area = Self.strip
        let x = Double(area.x) + Double(area.width) / 2
        lectern.tap(x: x, y: y)
        #expect(lectern.settle())
        let shown = try #require(lectern.dominantPage)
        #expect(abs(shown - 1 - page) <= 1, "tapped near page \(page + 1)'s thumbnail, went to \(shown)")
        try lectern.stop()
    }

    /// A 36-page and a 15,000-page document: the bar lays out and renders the same number of
    /// thumbnails, the ones in view.
    @Test("a 15,000-page document's bar costs what a 36-page one's does")
    func costIndependentOfPageCount() throws {
        var laidOut: [Int: Int] = [:]
        var renders: [Int: Int] = [:]
        for pages in [36, 15_000] {
            let lectern = try KioskHarness([try TextDocument.path(pages: pages)])
            #expect(lectern.settle(timeout: .seconds(30)))
            #expect(lectern.wait(timeout: .seconds(60)) { lectern.status.pageSizesKnown })
            #expect(lectern.settle())
            let before = lectern.status.tileRendersStarted
            lectern.tap(x: 640, y: 360)
            lectern.advance(by: 0.35)
            #expect(lectern.status.navigation.isThumbnailBarShown)
            laidOut[pages] = lectern.status.navigation.thumbnailsInFrame
            renders[pages] = lectern.status.tileRendersStarted - before
            try lectern.stop()
        }
        #expect(laidOut[36] == laidOut[15_000] && (15...20).contains(laidOut[36] ?? 0), "laid out: \(laidOut)")
        #expect(renders[36] == renders[15_000] && renders[36] == laidOut[36], "renders: \(renders)")
    }
}

/// Text PDFs made by kiosk/make-text-pdf, generated once per test run into a cache directory.
enum TextDocument {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [Int: String] = [:]

    static func path(pages: Int) throws -> String {
        if pages == 15_000 { return try LargeDocument.path() }
        return try lock.withLock {
            if let path = made[pages] { return path }
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-kiosk-tests-cache")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let output = cache.appendingPathComponent("text-\(pages)-\(getpid()).pdf")
            let process = Process()
            process.executableURL = LecternHarness.repository.appendingPathComponent("kiosk/make-text-pdf")
            process.arguments = [output.path, String(pages)]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw KioskHarness.HarnessError("kiosk/make-text-pdf failed with status \(process.terminationStatus)")
            }
            made[pages] = output.path
            return output.path
        }
    }
}
