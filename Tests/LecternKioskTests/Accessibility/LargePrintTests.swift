import Foundation
import LecternCore
import LecternRender
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// Large print through the test compositor on columns.pdf (two columns drawn row by row across
/// both: Tests/Fixtures/make-reading-order-fixtures), on a screen the policy says is 169 × 95 mm
/// read from 600 mm: a capital H must be 7.3 mm, 56 pixels of its 1280. Also scan.pdf (a page with
/// no text: Tests/Fixtures/make-scan-fixture) and links.pdf (Tests/Fixtures/make-nav-fixtures).
@Suite("Large print", .serialized)
struct LargePrintTests {
    static let columns = LecternHarness.fixture("columns.pdf")
    static let pixelsPerMillimetre = 1280.0 / 169

    /// Lectern on columns.pdf with large print on (`largePrint`) or off.
    /// With `options` after the policy (`--render-process off`: the document service in process).
    static func start(
        largePrint: Bool, idleReset: Int = 120, options: [String] = []
    ) throws -> (KioskHarness, PolicyTests.PolicyDirectory) {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.columns)\"\n[accessibility]\nlarge-print = \(largePrint)\n"
                + "[idle]\nreset = \(idleReset)\n[screen]\nwidth-mm = 169\nheight-mm = 95\n")
        let lectern = try KioskHarness(["--config", policy.path] + options)
        #expect(lectern.settle())
        return (lectern, policy)
    }

    /// Every line of the column, top to bottom, read a screen at a time with Page Down.
    static func allLines(_ lectern: KioskHarness) throws -> [String] {
        var lines: [String] = []
        for _ in 0..<40 {
            let shown = try #require(lectern.status.largePrint)
            // The lines already read are those at the top of this screen.
            let overlap = (0...min(lines.count, shown.lines.count)).last {
                Array(lines.suffix($0)) == Array(shown.lines.prefix($0))
            }
            lines += shown.lines.dropFirst(overlap ?? 0)
            if shown.offset >= shown.maximumOffset { break }
            lectern.press(LecternHarness.Key.pageDown)
            #expect(lectern.settle())
        }
        return lines
    }

    @Test(
        "large print of a two-column page shows the left column's text before the right's in one column at the computed size, scrolls, and search finds a word in it"
    )
    func columnsInOrder() throws {
        let (lectern, policy) = try Self.start(largePrint: true)
        _ = policy
        #expect(lectern.enableKeyboard())
        let shown = try #require(lectern.status.largePrint)
        #expect(!shown.lines.isEmpty && !shown.showsPage)
        // The computed size: a capital H of at least 7.3 mm on this screen, as fcft draws it.
        let screen = try #require(lectern.status.physicalScreen)
        #expect(Double(shown.capitalHeight) / Self.pixelsPerMillimetre >= screen.minimumCapitalHeight)
        #expect(Double(shown.capitalHeight) / Self.pixelsPerMillimetre < screen.minimumCapitalHeight * 1.2)
        // Ink on the paper where the first line is: the text is drawn, in black on white.
        let commit = try #require(lectern.lastCommit)
        var ink = 0
        for y in 56..<150 { for x in 104..<750 where commit.pixel(x: x, y: y) & 0xFF_FFFF == 0 { ink += 1 } }
        #expect(ink > 500, "black text at the top left: \(ink) pixels")
        #expect(commit.pixel(x: 1270, y: 700) & 0xFF_FFFF == 0xFF_FFFF, "white paper to the edges")
        // Nothing of the text left of the column, where the accessibility button is (above it).
        let button = try #require(lectern.status.accessibilityButton)
        #expect((0..<button.y).allSatisfy { commit.pixel(x: button.maxX - 4, y: $0) & 0xFF_FFFF == 0xFF_FFFF })

        // It scrolls: Page Down moves the column up, Up moves it back a little.
        #expect(shown.maximumOffset > 0, "the page's text is longer than the screen")
        let text = try Self.allLines(lectern).joined(separator: " ")
        let left = try #require(text.firstRange(of: "Please do not touch the paintings."))
        let right = try #require(text.firstRange(of: "The cafe serves hot soup."))
        let title = try #require(text.firstRange(of: "Visiting the city museum today"))
        #expect(title.upperBound <= text.firstRange(of: "The museum opens at nine.")!.lowerBound)
        #expect(left.upperBound <= right.lowerBound, "the whole left column before the right: \(text)")
        #expect(text.contains("Tickets are sold at the door. Children enter for free."))
        let bottom = try #require(lectern.status.largePrint)
        #expect(bottom.offset == bottom.maximumOffset && bottom.offset > 0)
        lectern.press(LecternHarness.Key.up)
        #expect(lectern.settle())
        #expect(try #require(lectern.status.largePrint).offset < bottom.offset)
        lectern.drag(from: (640, 200), to: (640, 600))
        #expect(lectern.settle())
        #expect(try #require(lectern.status.largePrint).offset < bottom.offset - 300, "a drag down scrolls up")
        lectern.press(LecternHarness.Key.home)
        #expect(lectern.settle())

        // Search: the chrome's Search button, "soup" typed; the word is marked on screen.
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible, "a tap between the page-turn zones shows the chrome")
        let search = Scene.Chrome.buttonBox(1, metrics: lectern.status.chromeMetrics)
        lectern.tap(x: Double(search.x + search.width / 2), y: Double(search.y + search.height / 2))
        #expect(lectern.settle())
        SearchOnScreenTests.type("soup", on: lectern)
        #expect(lectern.settle())
        let found = try #require(lectern.status.largePrint)
        #expect(found.marked.map { $0.lowercased() } == ["soup"], "\(found.lines)")
        #expect(found.lines.contains { $0.contains("soup") })
        try lectern.stop()
    }

    @Test(
        "the column is laid out by the render worker, and in process (--render-process off) the same: every line, at the same size"
    )
    func inProcessAsInWorker() throws {
        var columns: [(lines: [String], capitalHeight: Int)] = []
        for options in [[], ["--render-process", "off"]] {
            let (lectern, policy) = try Self.start(largePrint: true, options: options)
            _ = policy
            #expect((lectern.status.renderWorker != nil) == options.isEmpty, "the worker runs unless off")
            #expect(lectern.enableKeyboard())
            let shown = try #require(lectern.status.largePrint)
            columns.append((try Self.allLines(lectern), shown.capitalHeight))
            try lectern.stop()
        }
        #expect(columns[0].lines.count > 10)
        #expect(columns[0].lines == columns[1].lines && columns[0].capitalHeight == columns[1].capitalHeight)
    }

    @Test("Right turns to the next page's large print, from its top; Left back")
    func pageTurns() throws {
        let (lectern, policy) = try Self.start(largePrint: true)
        _ = policy
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.pageDown)
        lectern.press(LecternHarness.Key.right)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 2)
        let second = try #require(lectern.status.largePrint)
        #expect(second.offset == 0)
        #expect(second.lines.first?.hasPrefix("Opening hours") == true, "\(second.lines)")
        let text = try Self.allLines(lectern).joined(separator: " ")
        let left = try #require(text.firstRange(of: "Children under twelve enter for free."))
        let right = try #require(text.firstRange(of: "The garden cafe closes at five."))
        #expect(left.upperBound <= right.lowerBound, "drawn right column first, read left first: \(text)")
        lectern.press(LecternHarness.Key.left)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 1)
        #expect(lectern.status.largePrint?.lines.first?.hasPrefix("Visiting") == true)
        try lectern.stop()
    }

    @Test("the panel turns large print on, Text size + makes it larger, and the idle reset turns it off")
    func panelAndReset() throws {
        let (lectern, policy) = try Self.start(largePrint: false, idleReset: 30)
        _ = policy
        #expect(lectern.status.largePrint == nil)
        let button = try #require(lectern.status.accessibilityButton)
        lectern.tap(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2))
        #expect(lectern.settle())
        func row(_ label: String) throws -> (Double, Double) {
            let rows = try #require(lectern.status.accessibilityPanel)
            let index = try #require(rows.firstIndex(of: label), "\(rows)")
            // The panel's layout as the app has it on this screen (ReachTests checks it is).
            let scene = Scene.Accessibility(
                rows: rows, bottomInset: 720 - button.maxY - 16, metrics: lectern.status.chromeMetrics)
            let box = scene.rowBoxes(height: 720)[index]
            return (Double(box.x + box.width / 2), Double(box.y + box.height / 2))
        }
        let on = try row("Large print")
        lectern.tap(x: on.0, y: on.1)
        #expect(lectern.settle())
        #expect(lectern.status.accessibilityPanel?.contains("Large print: on") == true)
        #expect(lectern.status.isAccessibilityInUse)
        let normal = try #require(lectern.status.largePrint)
        #expect(!normal.lines.isEmpty)
        let larger = try row("Text size +")
        lectern.tap(x: larger.0, y: larger.1)
        #expect(lectern.settle())
        let enlarged = try #require(lectern.status.largePrint)
        #expect(Double(enlarged.capitalHeight) >= Double(normal.capitalHeight) * 1.2, "\(enlarged.capitalHeight)")
        let smaller = try row("Text size −")
        lectern.tap(x: smaller.0, y: smaller.1)
        lectern.tap(x: smaller.0, y: smaller.1)
        #expect(lectern.settle())
        #expect(lectern.status.largePrint?.capitalHeight == normal.capitalHeight, "never below the readable size")

        lectern.advance(by: try #require(lectern.status.idleResetDeadline) + 0.5 - lectern.clock.now)
        #expect(lectern.settle())
        #expect(lectern.status.largePrint == nil, "the idle reset goes back to the operator's default")
        #expect(!lectern.status.isAccessibilityInUse)
        try lectern.stop()
    }

    @Test(
        "a page with no text (a scan) shows the page itself, zoomed to its width, with a notice; the next page's text is large"
    )
    func scanFallsBack() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("scan.pdf"), "--large-print", "on"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        let scan = try #require(lectern.status.largePrint)
        #expect(scan.showsPage && scan.lines.isEmpty)
        #expect(lectern.status.banner == LargePrint.noTextNotice)
        let page = try #require(lectern.status.pagesOnScreen.first { $0.page == 0 })
        #expect(page.frame.width >= 1270, "zoomed to the screen's width: \(page.frame)")
        // The scan's dark band at the top of the page shows, not the text of large print.
        let commit = try #require(lectern.lastCommit)
        let band = Int(Double(page.frame.y) + Double(page.frame.height) * 2.5 / 64)
        #expect(commit.pixel(x: 640, y: band) & 0xFF < 0x60, "the scan's first dark band")

        lectern.press(LecternHarness.Key.right)
        #expect(lectern.settle())
        let text = try #require(lectern.status.largePrint)
        #expect(!text.showsPage && text.lines == ["This page has text."])
        #expect(lectern.status.banner == nil)
        try lectern.stop()
    }

    @Test("a link's words are underlined in the column, and a tap on them follows it (links.pdf: page 1 to page 3)")
    func linkIsFollowed() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("links.pdf"), "--large-print", "on"])
        #expect(lectern.settle())
        let shown = try #require(lectern.status.largePrint)
        #expect(shown.lines.prefix(3) == ["Links", "Go to page 3", "This page has one link."])
        let link = try #require(shown.links.first)
        #expect(shown.links.count == 1)
        // Under the second line, as wide as its words ("Go to page 3"), and underlined in black.
        #expect(link.width > 200 && link.x == 104, "clear of the accessibility button: \(link)")
        let commit = try #require(lectern.lastCommit)
        let rule = (link.y..<link.maxY).filter { y in
            (link.x..<link.maxX).allSatisfy { commit.pixel(x: $0, y: y) & 0xFF_FFFF == 0 }
        }
        #expect(!rule.isEmpty, "an underline across the link's words")
        lectern.tap(x: Double(link.x + link.width / 2), y: Double(link.y + link.height / 2))
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 3)
        #expect(lectern.status.largePrint?.lines.first == "Page three")
        try lectern.stop()
    }

    @Test("the keypad's 2 and 8 go through the column's paragraphs in reading order, scrolling the column to each")
    func keypadGoesThroughTheColumn() throws {
        let (lectern, policy) = try Self.start(largePrint: true)
        _ = policy
        #expect(lectern.enableKeyboard())
        var seen: [(label: String, offset: Double)] = []
        for _ in 0..<9 {
            lectern.press(KeypadFocusTests.Pad.down)
            #expect(lectern.settle())
            let focus = lectern.status.focus, shown = try #require(lectern.status.largePrint)
            guard focus.kind == "text", let label = focus.label, let ring = focus.ring else { break }
            // The ring is on screen, around the paragraph, wherever the column scrolled.
            #expect(ring.y >= 0 && ring.maxY <= 720, "\(label) at \(ring)")
            seen.append((label, shown.offset))
        }
        let labels = seen.map(\.label)
        #expect(
            labels.prefix(3) == [
                "Visiting the city museum today", "The museum opens at nine. Tickets are sold at the door.",
                "Children enter for free. Guided tours start every hour.",
            ], "\(labels)")
        let left = try #require(labels.firstIndex { $0.hasPrefix("The garden is behind the hall.") })
        let right = try #require(labels.firstIndex { $0.hasPrefix("The cafe serves hot soup.") })
        #expect(left < right, "the left column before the right")
        #expect(seen.first?.offset == 0 && (seen.last?.offset ?? 0) > 0, "the column scrolled down to the later ones")
        // 8 goes back up: the column scrolls back to the paragraph.
        // (From the chrome's first button, where the focus went after the last paragraph.)
        let onButton = lectern.status.focus.kind == "button"
        for _ in 0..<(seen.count - (onButton ? 0 : 1)) { lectern.press(KeypadFocusTests.Pad.up) }
        #expect(lectern.settle())
        #expect(lectern.status.focus.label == labels[0])
        #expect(lectern.status.largePrint?.offset == 0)
        try lectern.stop()
    }

    @Test("in large print, 5 on a link's words follows it (links.pdf: page 1 to page 3)")
    func keypadFollowsALink() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("links.pdf"), "--large-print", "on"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        for _ in 0..<4 where lectern.status.focus.kind != "link" {
            lectern.press(KeypadFocusTests.Pad.down)
            #expect(lectern.settle())
        }
        #expect(lectern.status.focus.label == "Link to page 3: Go to page 3")
        lectern.press(KeypadFocusTests.Pad.select)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 3)
        #expect(lectern.status.largePrint?.lines.first == "Page three")
        try lectern.stop()
    }

    @Test("speech reads the page in reading order while large print shows it")
    func speechReadsIt() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-large-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let lectern = try KioskHarness(
            [
                Self.columns, "--page", "2", "--large-print", "on", "--speech-output", wav, "--speech-language",
                "en-us",
                "--speech-unpaced",
            ])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        #expect(lectern.status.largePrint?.lines.first == "Opening hours")
        lectern.press(NarratorTests.f1)
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.sentence == "End of the document." })
        let page = ["Opening hours"] + NarratorTests.leftColumn + NarratorTests.rightColumn + ["End of the document."]
        #expect(Array(lectern.status.speech.queue.suffix(page.count)) == page)
        #expect(lectern.status.largePrint != nil, "large print stays on while speech reads")
        try lectern.stop()
    }

    @Test("with large print the operator's default, the idle reset keeps it on, back at the first page's top")
    func resetKeepsTheDefault() throws {
        let (lectern, policy) = try Self.start(largePrint: true, idleReset: 30)
        _ = policy
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.pageDown)
        #expect(lectern.settle())
        #expect(try #require(lectern.status.largePrint).offset > 0)
        #expect(!lectern.status.isAccessibilityInUse, "the operator's default is not accessibility mode")
        lectern.advance(by: try #require(lectern.status.idleResetDeadline) + 0.5 - lectern.clock.now)
        #expect(lectern.settle())
        let shown = try #require(lectern.status.largePrint)
        #expect(shown.offset == 0 && shown.lines.first?.hasPrefix("Visiting") == true)
        try lectern.stop()
    }

    @Test("the page's pictures are in the column, as wide as it, drawn by the render worker (contrast.pdf's photo)")
    func picturesInPlace() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("contrast.pdf"), "--large-print", "on"])
        #expect(lectern.settle())
        let shown = try #require(lectern.status.largePrint)
        #expect(shown.lines == ["Contrast", "I"], "\(shown.lines)")
        #expect(shown.maximumOffset > 0, "the picture, as wide as the column, makes it longer than the screen")
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.end)
        #expect(lectern.settle())
        // The photo's quadrants (make-contrast-fixture): its top left dark blue, its bottom right brown.
        let commit = try #require(lectern.lastCommit)
        func count(_ colour: UInt32) -> Int {
            var found = 0
            for y in stride(from: 0, to: commit.height, by: 4) {
                for x in stride(from: 0, to: commit.width, by: 4) {
                    let pixel = commit.pixel(x: x, y: y)
                    let close = [16, 8, 0].allSatisfy { shift in
                        abs(Int(pixel >> UInt32(shift) & 0xFF) - Int(colour >> UInt32(shift) & 0xFF)) <= 8
                    }
                    if close { found += 1 }
                }
            }
            return found
        }
        #expect(count(0x20_3090) > 2000, "a wide dark blue quadrant")
        #expect(count(0x80_4020) > 2000, "a wide brown quadrant")
        try lectern.stop()
    }

    @Test("the operator turning large print on in the running kiosk's policy shows it at once")
    func policyChangeApplies() throws {
        let (lectern, policy) = try Self.start(largePrint: false)
        #expect(lectern.status.largePrint == nil)
        try policy.replace(
            with:
                "document = \"\(Self.columns)\"\n[accessibility]\nlarge-print = true\n[screen]\nwidth-mm = 169\nheight-mm = 95\n"
        )
        #expect(lectern.wait { lectern.status.hasPendingFileChanges })
        lectern.advance(by: 0.3)
        #expect(lectern.settle())
        #expect(lectern.status.largePrint?.lines.first?.hasPrefix("Visiting") == true)
        #expect(!lectern.status.isAccessibilityInUse, "the operator's default")
        try lectern.stop()
    }

    @Test("the sentence read aloud is highlighted in the column")
    func spokenSentenceHighlighted() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-large-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let lectern = try KioskHarness(
            [Self.columns, "--page", "2", "--large-print", "on", "--speech-output", wav, "--speech-language", "en-us"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(NarratorTests.f1)
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.sentence == "Please book a tour in advance." })
        lectern.turn()
        let shown = try #require(lectern.status.largePrint)
        #expect(shown.spoken.joined(separator: " ") == "Please book a tour in advance.", "\(shown.spoken)")
        lectern.press(LecternHarness.Key.escape)
        #expect(NarratorTests.turn(lectern) { lectern.status.largePrint?.spoken.isEmpty == true })
        try lectern.stop()
    }
}
