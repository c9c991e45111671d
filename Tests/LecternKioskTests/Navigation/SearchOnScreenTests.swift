import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// Search through the test compositor: typed on the on-screen keyboard (or a hardware one),
/// hits highlighted on the right words (read off the pixels, at the places search.pdf puts
/// them: Tests/Fixtures/make-nav-fixtures), next and previous, the count, and a search of
/// 15,000 pages that neither blocks the reader nor outlives a new query.
@Suite("Search on screen")
struct SearchOnScreenTests {
    static let search = LecternHarness.fixture("search.pdf")
    static let keyboard = OnScreenKeyboardLayout(width: 1280, height: 720)

    /// The reader with the search bar and keyboard open (the chrome's Search button).
    static func withSearch(_ path: String, hasOutline: Bool = false, arguments: [String] = []) throws -> KioskHarness {
        let lectern = try KioskHarness([path] + arguments)
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        let button = Scene.Chrome.buttonBox(hasOutline ? 2 : 1)
        lectern.tap(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.isKeyboardShown == true, "Search opens the bar and the keyboard")
        return lectern
    }

    /// Types `text` on the on-screen keyboard, key by key.
    static func type(_ text: String, on lectern: KioskHarness) {
        // The keys as the app lays them out on this screen (its millimetres size them).
        let metrics = lectern.status.chromeMetrics
        let keyboard = OnScreenKeyboardLayout(
            width: 1280, height: 720 - Double(metrics.reachBottom), keyHeight: Double(metrics.keyHeight))
        for character in text {
            let key = try! #require(keyboard.keys.first { $0.action == .character(character) })
            lectern.tap(x: key.frame.midX, y: key.frame.midY)
        }
    }

    static func tap(_ box: PixelBox, on lectern: KioskHarness) {
        lectern.tap(x: Double(box.x + box.width / 2), y: Double(box.y + box.height / 2))
        lectern.settle()
    }

    /// The share of pixels in `rect` (PDF points, y up, of an A4 page on screen) that a highlight
    /// coloured: paper turned yellow or orange.
    static func highlighted(
        _ lectern: KioskHarness, _ rect: (x0: Double, y0: Double, x1: Double, y1: Double), onPage index: Int? = nil
    ) -> Double {
        let pages = lectern.status.pagesOnScreen
        guard let commit = lectern.lastCommit,
            let page = index.map({ i in pages.first { $0.page == i } }) ?? pages.first
        else { return -1 }
        let scale = Double(page.frame.width) / 595
        let x0 = Int((Double(page.frame.x) + rect.x0 * scale).rounded()) + 2
        let x1 = Int((Double(page.frame.x) + rect.x1 * scale).rounded()) - 2
        let y0 = Int((Double(page.frame.y) + (842 - rect.y1) * scale).rounded()) + 2
        let y1 = Int((Double(page.frame.y) + (842 - rect.y0) * scale).rounded()) - 2
        var marked = 0, total = 0
        // Only what is on screen: a word scrolled off counts as not highlighted.
        for y in max(0, y0)..<max(0, y0, min(y1, commit.height)) {
            for x in max(0, x0)..<max(0, x0, min(x1, commit.width)) {
                let pixel = commit.pixel(x: x, y: y)
                let (r, b) = (pixel >> 16 & 0xFF, pixel & 0xFF)
                if r > 200 && b < 130 { marked += 1 }
                total += 1
            }
        }
        return Double(marked) / Double(max(1, total))
    }

    /// Whether the highlight in `rect` is the current hit's orange (not the others' yellow):
    /// the green of its highlighted pixels, orange 0x9A, yellow 0xE2.
    static func isCurrent(_ lectern: KioskHarness, _ rect: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
        guard let commit = lectern.lastCommit, let page = lectern.status.pagesOnScreen.first else { return false }
        let scale = Double(page.frame.width) / 595
        var greens: [UInt32] = []
        for y in Int(
            (Double(page.frame.y) + (842 - rect.y1) * scale).rounded())..<Int(
                (Double(page.frame.y) + (842 - rect.y0) * scale).rounded())
        {
            for x in Int(
                (Double(page.frame.x) + rect.x0 * scale).rounded())..<Int(
                    (Double(page.frame.x) + rect.x1 * scale).rounded())
            {
                let pixel = commit.pixel(x: x, y: y)
                if pixel >> 16 & 0xFF > 200 && pixel & 0xFF < 130 { greens.append(pixel >> 8 & 0xFF) }
            }
        }
        guard !greens.isEmpty else { return false }
        return greens.sorted()[greens.count / 2] < 190
    }

    // Where search.pdf's words are (PDF points): line boxes of 28-pt Helvetica.
    static let muller1 = (x0: 126.9, y0: 751.6, x1: 203.1, y1: 790.1)
    static let cafe1 = (x0: 60.0, y0: 751.6, x1: 119.1, y1: 790.1)
    static let harbour1 = (x0: 330.0, y0: 751.6, x1: 420.0, y1: 790.1)
    static let cafeCaps = (x0: 60.0, y0: 691.6, x1: 128.0, y1: 730.1)
    static let muller3 = (x0: 60.0, y0: 191.6, x1: 136.2, y1: 230.1)

    @Test("hits are highlighted on the right words; next and previous go through them and wrap")
    func highlightsAndNextPrevious() throws {
        let lectern = try Self.withSearch(Self.search)
        Self.type("muller", on: lectern)
        #expect(lectern.settle())
        let status = try #require(lectern.status.navigation.search)
        #expect(status.query == "muller" && status.hitCount == 2 && !status.isSearching, "\(status)")
        #expect(status.currentHit == 0 && status.currentPage == 0)
        // Done hides the keyboard; the hits stay.
        let done = try #require(Self.keyboard.keys.first { $0.action == .done })
        lectern.tap(x: done.frame.midX, y: done.frame.midY)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.isKeyboardShown == false)
        #expect(Self.highlighted(lectern, Self.muller1) > 0.3, "Müller is highlighted")
        #expect(Self.highlighted(lectern, Self.cafe1) == 0, "Café is not")
        #expect(Self.highlighted(lectern, Self.cafeCaps) == 0, "CAFÉ is not")
        #expect(Self.isCurrent(lectern, Self.muller1), "and it is the current hit")

        let next = Scene.SearchBar.nextButton(width: 1280, height: 720)
        let previous = Scene.SearchBar.previousButton(width: 1280, height: 720)
        Self.tap(next, on: lectern)
        #expect(lectern.dominantPage == 3, "next: page 3's Muller: \(lectern.viewState ?? "none")")
        #expect(lectern.status.navigation.search?.currentHit == 1)
        #expect(Self.highlighted(lectern, Self.muller3) > 0.3, "page 3's Muller is highlighted")
        Self.tap(next, on: lectern)
        #expect(lectern.dominantPage == 1, "next after the last wraps to the first")
        Self.tap(previous, on: lectern)
        #expect(lectern.dominantPage == 3, "previous before the first wraps to the last")
        Self.tap(previous, on: lectern)
        #expect(lectern.dominantPage == 1 && lectern.status.navigation.search?.currentHit == 0)

        // The close button: no bar, no highlights.
        Self.tap(Scene.SearchBar.closeButton(width: 1280, height: 720), on: lectern)
        #expect(lectern.status.navigation.search == nil)
        #expect(Self.highlighted(lectern, Self.muller1) == 0, "the highlight is gone")
        try lectern.stop()
    }

    @Test("case and accents do not count; the current hit is marked apart from the others")
    func caseAccentsAndCurrent() throws {
        let lectern = try Self.withSearch(Self.search)
        Self.type("cafe", on: lectern)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.hitCount == 4, "Café, CAFÉ, cafeteria; cafe on page 2")
        #expect(Self.highlighted(lectern, Self.cafe1) > 0.4 && Self.isCurrent(lectern, Self.cafe1))
        #expect(Self.highlighted(lectern, Self.cafeCaps) > 0.4 && !Self.isCurrent(lectern, Self.cafeCaps))
        #expect(Self.highlighted(lectern, Self.harbour1) == 0, "harbour is not")
        Self.tap(Scene.SearchBar.nextButton(width: 1280, height: 720), on: lectern)
        #expect(lectern.dominantPage == 1, "the second hit is on the same page")
        #expect(Self.isCurrent(lectern, Self.cafeCaps) && !Self.isCurrent(lectern, Self.cafe1), "the mark moved")
        try lectern.stop()
    }

    @Test("continuous, fit to width: next scrolls a hit low on a tall page clear of the bar, and back up")
    func revealsHitsOffScreen() throws {
        let lectern = try KioskHarness([Self.search, "--scroll", "continuous", "--direction", "vertical"])
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        let button = Scene.Chrome.buttonBox(1)
        Self.tap(button, on: lectern)
        Self.type("muller", on: lectern)
        #expect(lectern.settle())
        let done = try #require(Self.keyboard.keys.first { $0.action == .done })
        lectern.tap(x: done.frame.midX, y: done.frame.midY)
        #expect(lectern.settle())
        #expect(Self.highlighted(lectern, Self.muller1, onPage: 0) > 0.3, "page 1's Müller, at its top, is on screen")

        // Page 3's Muller sits 1,300 px below the top of a page 1,810 px tall: going to the page
        // alone leaves it off screen.
        Self.tap(Scene.SearchBar.nextButton(width: 1280, height: 720), on: lectern)
        #expect(lectern.status.navigation.search?.currentHit == 1)
        let page = try #require(lectern.status.pagesOnScreen.first { $0.page == 2 }, "page 3 on screen")
        let scale = Double(page.frame.width) / 595
        let top = Double(page.frame.y) + (842 - Self.muller3.y1) * scale
        let bottom = Double(page.frame.y) + (842 - Self.muller3.y0) * scale
        #expect(
            top >= Double(ChromeMetrics.standard.barHeight) && bottom <= 720,
            "the hit is below the search bar and above the screen's bottom: \(top)...\(bottom)")
        #expect(Self.highlighted(lectern, Self.muller3, onPage: 2) > 0.3, "and highlighted there")

        // Next wraps to page 1's Müller, at the top of its page: the view scrolls back to it.
        Self.tap(Scene.SearchBar.nextButton(width: 1280, height: 720), on: lectern)
        #expect(Self.highlighted(lectern, Self.muller1, onPage: 0) > 0.3, "back at page 1's Müller")
        try lectern.stop()
    }

    @Test("with the chrome shown, the next hit is brought above the thumbnail bar, not left under it")
    func revealsHitsAboveTheBar() throws {
        // 600 px wide: page 3's Muller lands at 604...642 px once its page is at the top,
        // on screen but under the thumbnail bar (544...656).
        let lectern = try KioskHarness(
            [Self.search, "--scroll", "continuous", "--direction", "vertical"], width: 600, height: 720)
        #expect(lectern.settle())
        lectern.tap(x: 300, y: 360)
        lectern.advance(by: 0.35)
        Self.tap(Scene.Chrome.buttonBox(1), on: lectern)
        #expect(lectern.enableKeyboard())
        for code: UInt32 in [50, 22, 38, 38, 18, 19] { lectern.press(code) }  // m u l l e r
        lectern.press(LecternHarness.Key.escape)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.hitCount == 2)
        #expect(lectern.status.isUserInterfaceVisible, "the chrome and its thumbnail bar show")
        lectern.press(LecternHarness.Key.enter)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.currentHit == 1)
        let page = try #require(lectern.status.pagesOnScreen.first { $0.page == 2 }, "page 3 on screen")
        let scale = Double(page.frame.width) / 595
        let top = Double(page.frame.y) + (842 - Self.muller3.y1) * scale
        let bottom = Double(page.frame.y) + (842 - Self.muller3.y0) * scale
        let bar = Scene.ThumbnailBar.box(width: 600, height: 720)
        #expect(
            top >= Double(ChromeMetrics.standard.barHeight) && bottom <= Double(bar.y),
            "the hit is between the search bar and the thumbnail bar: \(top)...\(bottom), bar at \(bar.y)")
        try lectern.stop()
    }

    /// Where `rect` (PDF points of an A4 page) of page `index` is on screen, in pixels.
    static func onScreen(
        _ lectern: KioskHarness, _ rect: (x0: Double, y0: Double, x1: Double, y1: Double), page index: Int
    ) -> Rect? {
        guard let page = lectern.status.pagesOnScreen.first(where: { $0.page == index }) else { return nil }
        let scale = Double(page.frame.width) / 595
        return Rect(
            x: Double(page.frame.x) + rect.x0 * scale, y: Double(page.frame.y) + (842 - rect.y1) * scale,
            width: (rect.x1 - rect.x0) * scale, height: (rect.y1 - rect.y0) * scale)
    }

    @Test(
        "a hit under the keyboard is brought above it, and above the thumbnail bar after Done, in every layout",
        arguments: [
            [], ["--spreads", "double"], ["--scroll", "continuous"],
            ["--scroll", "continuous", "--direction", "vertical"], ["--binding", "right"],
        ])
    func revealsHitsUnderTheKeyboard(layout: [String]) throws {
        // Fitted at 1280×720, page 3's Muller sits 520–555 px down: under the keyboard.
        let lectern = try Self.withSearch(Self.search, arguments: layout)
        Self.type("muller", on: lectern)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.hitCount == 2)
        Self.tap(Scene.SearchBar.nextButton(width: 1280, height: 720), on: lectern)
        #expect(lectern.status.navigation.search?.currentHit == 1)
        let bar = Scene.SearchBar.box(width: 1280, height: 720)
        let hit = try #require(Self.onScreen(lectern, Self.muller3, page: 2), "page 3 on screen")
        #expect(
            hit.minY >= Double(bar.maxY) && hit.maxY <= Self.keyboard.frame.minY && hit.minX >= 0 && hit.maxX <= 1280,
            "\(layout): the hit \(hit) is between the search bar (\(bar.maxY)) and the keyboard (\(Self.keyboard.frame.minY))"
        )
        #expect(Self.highlighted(lectern, Self.muller3, onPage: 2) > 0.3, "\(layout): and highlighted there")

        // Done: the keyboard goes, the chrome's thumbnail bar stays; the hit is above the bar.
        let done = try #require(Self.keyboard.keys.first { $0.action == .done })
        lectern.tap(x: done.frame.midX, y: done.frame.midY)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.isThumbnailBarShown)
        let thumbnails = Scene.ThumbnailBar.box(width: 1280, height: 720)
        let after = try #require(Self.onScreen(lectern, Self.muller3, page: 2), "page 3 on screen")
        #expect(
            after.minY >= Double(bar.maxY) && after.maxY <= Double(thumbnails.y),
            "\(layout): after Done the hit \(after) is between the search bar and the thumbnail bar (\(thumbnails.y))")

        // Closing the search puts the page back where it rests.
        Self.tap(Scene.SearchBar.closeButton(width: 1280, height: 720), on: lectern)
        #expect(lectern.status.navigation.search == nil)
        if layout.isEmpty {
            #expect(lectern.status.pagesOnScreen.first?.frame.y == 12, "fitted again: \(lectern.status.pagesOnScreen)")
        }
        try lectern.stop()
    }

    @Test("a query that stops matching takes the view back to where the search began, not where a prefix took it")
    func noMatchGoesBack() throws {
        let lectern = try Self.withSearch(Self.search, arguments: ["--page", "2"])
        Self.type("muller", on: lectern)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 3, "the first hit from page 2 on is page 3's")
        Self.type("x", on: lectern)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.hitCount == 0)
        #expect(lectern.dominantPage == 2, "no match: back on page 2, where the visitor was")
        // A match again: the view follows it again.
        let backspace = try #require(Self.keyboard.keys.first { $0.action == .backspace })
        lectern.tap(x: backspace.frame.midX, y: backspace.frame.midY)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 3)
        try lectern.stop()
    }

    @Test("a hardware keyboard types the query; Escape hides the keyboard, then closes the search")
    func hardwareKeyboard() throws {
        let lectern = try Self.withSearch(Self.search)
        #expect(lectern.enableKeyboard())
        // h a r b o u r, then Enter: the next hit.
        for code: UInt32 in [35, 30, 19, 48, 24, 22, 19] { lectern.press(code) }
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.query == "harbour")
        #expect(lectern.status.navigation.search?.hitCount == 2)
        lectern.press(LecternHarness.Key.enter)
        #expect(lectern.waitForPage(2), "Enter: the next hit, on page 2")
        lectern.press(LecternHarness.Key.escape)
        #expect(lectern.status.navigation.search?.isKeyboardShown == false)
        lectern.press(LecternHarness.Key.escape)
        #expect(lectern.status.navigation.search == nil)
        try lectern.stop()
    }

    @Test("15,000 pages: the reader turns pages while the search runs; a new query cancels the old one")
    func bigDocument() throws {
        let path = try TextDocument.path(pages: 15_000)
        let lectern = try Self.withSearch(path)
        #expect(lectern.enableKeyboard())
        // z q x: found nowhere, so the search runs through every page.
        for code: UInt32 in [44, 16] { lectern.press(code) }
        #expect(
            lectern.wait(timeout: .seconds(20)) { (lectern.status.navigation.search?.pagesSearched ?? 0) > 64 },
            "the search makes progress")
        let running = try #require(lectern.status.navigation.search)
        #expect(running.isSearching && running.pagesSearched < running.pageCount, "\(running)")
        // The page turns and shows sharp while the search goes on.
        lectern.press(LecternHarness.Key.pageDown)
        #expect(
            lectern.wait(timeout: .seconds(20)) {
                lectern.dominantPage == 2 && lectern.status.pagesOnScreen.contains { $0.page == 1 && $0.isSharp }
            }, "page 2 on screen during the search")
        let during = try #require(lectern.status.navigation.search)
        #expect(during.isSearching, "still searching: \(during.pagesSearched) of \(during.pageCount)")
        // A new query starts over: the old one's pages no longer count.
        lectern.press(45)
        let restarted = try #require(lectern.status.navigation.search)
        #expect(restarted.query == "zqx" && restarted.pagesSearched < during.pagesSearched, "\(restarted)")
        // Closing cancels: the worker is idle long before 15,000 pages could be searched.
        lectern.press(LecternHarness.Key.escape)
        lectern.press(LecternHarness.Key.escape)
        #expect(lectern.status.navigation.search == nil)
        #expect(lectern.wait(timeout: .seconds(5)) { lectern.status.isAtRest }, "nothing left searching")
        try lectern.stop()
    }
}
