import Foundation
import LecternCore
import LecternKiosk
import LecternPDF
import LecternTestSupport
import Testing

/// Five-key navigation with real `wl_keyboard` events: the keypad's keys (evdev codes through
/// the default xkb keymap, Num Lock off: KP_Down and friends) and the arrows.
@Suite("Keypad focus through the test compositor")
struct KeypadFocusTests {
    /// evdev codes of the numeric keypad.
    enum Pad {
        static let up: UInt32 = 72  // 8
        static let down: UInt32 = 80  // 2
        static let left: UInt32 = 75  // 4
        static let right: UInt32 = 77  // 6
        static let select: UInt32 = 76  // 5
        static let back: UInt32 = 82  // 0
        static let help: UInt32 = 55  // *
    }
    typealias Key = LecternHarness.Key
    static let columns = LecternHarness.fixture("columns.pdf")
    static let sample = LecternHarness.repository.appendingPathComponent("Sources/lectern/Resources/sample.pdf").path

    /// Presses `code` and lets the app draw.
    private func press(_ lectern: KioskHarness, _ code: UInt32) {
        lectern.press(code)
        lectern.settle()
    }

    /// Opens `arguments` with a keyboard (at rest: the first page's text is read).
    private func open(_ arguments: [String]) throws -> KioskHarness {
        let lectern = try KioskHarness(arguments)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        return lectern
    }

    @Test("2 goes down the left column before the right, then to the buttons, and around")
    func readingOrder() throws {
        let lectern = try open([Self.columns])
        #expect(!lectern.status.focus.isShown, "no ring before a keypad key")
        var labels: [String] = []
        for _ in 0..<13 {
            press(lectern, Pad.down)
            labels.append(lectern.status.focus.label ?? "none")
        }
        let order = [
            "Visiting the city museum today", "The museum opens at nine. Tickets are sold at the door.",
            "Children enter for free. Guided tours start every hour.",
            "The garden is behind the hall. Please do not touch the paintings.",
            "The cafe serves hot soup. Lockers are near the stairs.",
            "Dogs must stay outside. The shop sells old maps.",
            "Photos are allowed without flash. The last entry is at five.", "Printed by the friends of the museum.",
        ]
        #expect(Array(labels.prefix(8)) == order)
        #expect(labels[8] == "Pages" && labels[9] == "Search", "then the chrome's buttons: \(labels)")
        #expect(lectern.status.isUserInterfaceVisible, "a focused button shows the chrome")
        #expect(
            labels[10] == "Accessibility: read aloud, contrast, large print, more time",
            "then the accessibility button: \(labels)")
        #expect(labels[11] == order[0], "and around to the top: \(labels)")
        #expect(lectern.status.focus.kind == "text")
        #expect(lectern.status.focus.lastSpoken == labels.last)
        press(lectern, Pad.up)
        #expect(lectern.status.focus.label == order[0], "8 goes back (the second item)")
        press(lectern, Pad.up)
        #expect(
            lectern.status.focus.label == "Accessibility: read aloud, contrast, large print, more time",
            "and around, back to the last button")
        // The arrows move the focus too once it shows.
        lectern.press(Key.down)
        lectern.settle()
        #expect(lectern.status.focus.label == order[0], "Down arrow: around to the top")
        press(lectern, Pad.help)
        #expect(lectern.status.focus.lastSpoken?.hasPrefix("Page 1 of 2; item 1 of 11: Visiting") == true)
        try lectern.stop()
    }

    @Test("the ring's two bands are on screen around the focused paragraph, and a touch hides it")
    func ringOnScreen() throws {
        let lectern = try open([Self.columns])
        press(lectern, Pad.down)
        press(lectern, Pad.down)
        let ring = try #require(lectern.status.focus.ring, "the frame drew a ring")
        let commit = try #require(lectern.lastCommit)
        let y = ring.y + ring.height / 2
        #expect(commit.pixel(x: ring.x - 2, y: y) & 0xFF_FFFF == 0x101010, "the dark inner band")
        #expect(commit.pixel(x: ring.x - 5, y: y) & 0xFF_FFFF == 0xFFD500, "the bright outer band")
        #expect(commit.pixel(x: ring.maxX + 5, y: y) & 0xFF_FFFF == 0xFFD500, "on the right side too")
        #expect(commit.pixel(x: ring.x + ring.width / 2, y: ring.y - 2) & 0xFF_FFFF == 0x101010, "and above")
        // The paragraph sits inside: the left column, under the title.
        let rect = try #require(lectern.status.focus.rect)
        #expect(rect.minX > 40 && rect.minX < 60, "the left column's paragraph: \(rect)")
        // A touch away from the chrome hides the ring; the page's pixels come back.
        lectern.tap(x: 640, y: 400)
        lectern.advance(by: 0.5)
        #expect(!lectern.status.focus.isShown)
        let after = try #require(lectern.lastCommit)
        #expect(after.pixel(x: ring.x - 5, y: y) & 0xFF_FFFF != 0xFFD500, "the ring is gone")
        try lectern.stop()
    }

    @Test("5 on a link follows it as a tap would: the page changes")
    func followLink() throws {
        // The cover's table of contents links to the pages (TouchTests taps the same link).
        let toc = try #require(try PDFDocument(path: Self.sample).links(page: 0).first { $0.target == .page(1) })
        let lectern = try open([Self.sample])
        var found = false
        for _ in 0..<40 where !found {
            press(lectern, Pad.down)
            found = lectern.status.focus.kind == "link" && lectern.status.focus.rect == toc.rect
        }
        #expect(found, "the link to page 2 on the cover: \(lectern.status.focus)")
        #expect(lectern.status.focus.label?.hasPrefix("Link to page ") == true)
        press(lectern, Pad.select)
        #expect(lectern.waitForPage(2), "the link leads to page 2: \(lectern.viewState ?? "none")")
        try lectern.stop()
    }

    @Test("5 on a link two pages on: the turn plays out to that page, though its first item is focused mid-turn")
    func followLinkTwoPagesOn() throws {
        // links.pdf: "Go to page 3" on page 1; page 3 starts with "Page three" near its top.
        let lectern = try open([LecternHarness.fixture("links.pdf")])
        var found = false
        for _ in 0..<10 where !found {
            press(lectern, Pad.down)
            found = lectern.status.focus.kind == "link"
        }
        #expect(found, "the link on page 1: \(lectern.status.focus)")
        lectern.press(Pad.select)
        // The turn begins; page 3's text arrives before it ends (the clock moves a frame only
        // every 20 turns, as a worker's answer comes mid-turn), which focuses its first item.
        let deadline = ContinuousClock.now + .seconds(10)
        var turns = 0
        while lectern.status.focus.label != "Page three", ContinuousClock.now < deadline {
            turns += 1
            if turns % 20 == 0 { lectern.clock.advance(by: 1.0 / 60) }
            lectern.turn(wait: .milliseconds(1))
        }
        #expect(lectern.status.focus.label == "Page three" && lectern.status.isAnimating, "\(lectern.status.focus)")
        #expect(lectern.waitForPage(3), "\(lectern.viewState ?? "none")")
        #expect(lectern.viewState == "page 3", "at rest on page 3, not between pages")
        try lectern.stop()
    }

    @Test("5 on a paragraph shows its text as a QR code (the keys' long press) and says it; not where selecting is off")
    func paragraphQRCode() throws {
        let lectern = try open([Self.columns])
        press(lectern, Pad.down)
        press(lectern, Pad.down)
        let paragraph = "The museum opens at nine. Tickets are sold at the door."
        #expect(lectern.status.focus.label == paragraph)
        press(lectern, Pad.select)
        let notice = "Its QR code is on the screen: scan it to take the text with a phone."
        #expect(lectern.status.notice == notice)
        #expect(lectern.status.focus.lastSpoken == paragraph + " " + notice)
        press(lectern, Pad.down)
        #expect(lectern.status.notice == nil, "the next key takes the QR code away")
        #expect(lectern.status.focus.label == "Children enter for free. Guided tours start every hour.", "and acts")
        try lectern.stop()

        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.columns)\"\n[components]\nselectText = false\n")
        let off = try open(["--config", policy.path])
        press(off, Pad.down)
        press(off, Pad.down)
        press(off, Pad.select)
        #expect(off.status.notice == nil)
        #expect(off.status.focus.lastSpoken == paragraph, "said again, no QR code")
        try off.stop()
    }

    @Test("6 and 4 turn the page; the focus goes to the new page's first paragraph")
    func turnPages() throws {
        let lectern = try open([Self.columns])
        press(lectern, Pad.right)
        #expect(lectern.waitForPage(2))
        #expect(lectern.wait { lectern.status.focus.label == "Opening hours" }, "\(lectern.status.focus)")
        #expect(lectern.status.focus.page == 1)
        #expect(lectern.status.focus.lastSpoken == "Page 2 of 2. Opening hours", "where the turn went, then the item")
        press(lectern, Pad.down)
        #expect(
            lectern.status.focus.label == "The museum opens at nine in the morning. Please book a tour in advance.",
            "page 2's left column first (drawn right column first)")
        press(lectern, Pad.left)
        #expect(lectern.waitForPage(1))
        try lectern.stop()
    }

    @Test("search opens by keys and is left by keys (no trap); Back leaves it")
    func searchNoTrap() throws {
        let lectern = try open([Self.columns])
        // Up from the first move: the last button, the accessibility button; then Search.
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        #expect(lectern.status.focus.label == "Search")
        press(lectern, Pad.select)
        #expect(lectern.status.navigation.search != nil, "search is open")
        #expect(lectern.status.focus.level == "search")
        #expect(lectern.status.focus.label == "Search field: type what to find")
        // The on-screen keyboard's keys follow the bar's buttons: 1 is the fifth item; 5 types it.
        for _ in 0..<4 { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == "1")
        press(lectern, Pad.select)
        #expect(
            lectern.status.navigation.search?.query == "1", "\(String(describing: lectern.status.navigation.search))")
        for _ in 0..<4 { press(lectern, Pad.up) }
        press(lectern, Pad.down)
        press(lectern, Pad.down)
        press(lectern, Pad.down)
        #expect(lectern.status.focus.label == "Close search")
        // Back hides the keyboard first (as Escape does), then closes the search.
        press(lectern, Pad.back)
        #expect(lectern.status.navigation.search != nil)
        #expect(lectern.status.focus.level == "search")
        press(lectern, Pad.back)
        #expect(lectern.status.navigation.search == nil, "Back closed the search")
        #expect(lectern.status.focus.level == "page")
        #expect(lectern.status.focus.label == "Search", "back on the button that opened it")
        // Open again and leave by its own Close button.
        press(lectern, Pad.select)
        #expect(lectern.status.focus.level == "search")
        for _ in 0..<3 { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == "Close search")
        press(lectern, Pad.select)
        #expect(lectern.status.navigation.search == nil && lectern.status.focus.level == "page")
        try lectern.stop()
    }

    @Test("the contents and all pages open by keys, an entry is followed, and Back leaves them")
    func outlineAndGrid() throws {
        let lectern = try open([LecternHarness.fixture("outline.pdf")])
        #expect(lectern.wait { lectern.status.navigation.hasOutline })
        press(lectern, Pad.up)  // the accessibility button
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        #expect(lectern.status.focus.label == "Contents")
        press(lectern, Pad.select)
        #expect(lectern.status.navigation.isOutlineOpen)
        #expect(lectern.status.focus.level == "outline")
        #expect(lectern.status.focus.label == "Introduction, page 1")
        press(lectern, Pad.back)
        #expect(!lectern.status.navigation.isOutlineOpen, "Back closed the contents")
        #expect(lectern.status.focus.level == "page")
        #expect(lectern.status.focus.label == "Contents", "back on the button that opened it")
        #expect(lectern.status.focus.lastSpoken == "The page. Contents, button")
        // Again, down to Yellow (page 4), and 5 goes there.
        press(lectern, Pad.select)
        press(lectern, Pad.down)
        #expect(
            lectern.status.focus.label?.hasPrefix("Part One") == true
                && lectern.status.focus.label?.hasSuffix(", closed: 6 opens it") == true, "\(lectern.status.focus)")
        press(lectern, Pad.right)
        #expect(
            lectern.status.navigation.outline.prefix(4) == ["Introduction", "Part One", "  Blue", "  Green"],
            "6 opened Part One")
        press(lectern, Pad.left)
        #expect(lectern.status.navigation.outline.count == 7, "4 closed it")
        for _ in 0..<2 { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == "Yellow, page 4", "\(lectern.status.focus)")
        press(lectern, Pad.select)
        #expect(lectern.waitForPage(4))
        #expect(!lectern.status.navigation.isOutlineOpen && lectern.status.focus.level == "page")
        #expect(lectern.wait { lectern.status.focus.page == 3 }, "the new page's first item: \(lectern.status.focus)")
        // All pages: its Close button, and Back.
        for _ in 0..<5 where lectern.status.focus.label != "Pages" { press(lectern, Pad.up) }
        #expect(lectern.status.focus.label == "Pages", "\(lectern.status.focus)")
        press(lectern, Pad.select)
        #expect(lectern.status.navigation.isGridOpen)
        #expect(lectern.status.focus.level == "grid")
        #expect(lectern.status.focus.label == "Page 4", "it opens on the page shown")
        press(lectern, Pad.down)
        press(lectern, Pad.down)
        #expect(lectern.status.focus.label == "Page 6")
        press(lectern, Pad.select)
        #expect(lectern.waitForPage(6), "5 on a thumbnail goes there")
        #expect(!lectern.status.navigation.isGridOpen && lectern.status.focus.level == "page")
        for _ in 0..<5 where lectern.status.focus.label != "Pages" { press(lectern, Pad.up) }
        press(lectern, Pad.select)
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        #expect(lectern.status.focus.label == "Close all pages")
        press(lectern, Pad.back)
        #expect(!lectern.status.navigation.isGridOpen && lectern.status.focus.level == "page")
        try lectern.stop()
    }

    @Test("a long outline scrolls to the entry the focus goes to")
    func longOutline() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("outline.pdf")], width: 800, height: 320)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        #expect(lectern.wait { lectern.status.navigation.hasOutline })
        press(lectern, Pad.up)  // the accessibility button
        press(lectern, Pad.up)
        press(lectern, Pad.up)
        press(lectern, Pad.select)
        #expect(lectern.status.focus.level == "outline")
        for _ in 0..<6 { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == "On the web")
        let ring = try #require(lectern.status.focus.ring)
        #expect(ring.y >= 64 && ring.maxY <= 320, "the last row scrolled into the panel: \(ring)")
        #expect(lectern.status.navigation.outlineOffset > 0)
        press(lectern, Pad.down)
        #expect(lectern.status.focus.label == "Introduction, page 1")
        #expect(lectern.status.navigation.outlineOffset == 0, "and back to the top")
        try lectern.stop()
    }

    @Test("the idle reset clears the focus")
    func idleReset() throws {
        let lectern = try open([Self.columns, "--idle-reset", "2"])
        press(lectern, Pad.down)
        #expect(lectern.status.focus.isShown && lectern.status.focus.label != nil)
        // The item is said: speech is on, the kiosk in accessibility mode (ten times the wait),
        // and the reset waits for the sentence to end.
        #expect(lectern.status.isAccessibilityInUse)
        let deadline = try #require(lectern.status.idleResetDeadline)
        #expect(NarratorTests.turn(lectern) { !lectern.status.speech.isSpeaking })
        lectern.advance(by: deadline + 1.5 - lectern.clock.now)
        #expect(!lectern.status.focus.isShown)
        #expect(lectern.status.focus.label == nil)
        #expect(lectern.status.focus.ring == nil)
        try lectern.stop()
    }
}

/// Keypad focus on a form (annotations.pdf, copied: AnnotationsOnScreenTests.Setup) and its hook.
@Suite("Keypad focus on a form, and what it asks speech to say")
struct KeypadFocusFormTests {
    typealias Pad = KeypadFocusTests.Pad

    private func press(_ lectern: KioskHarness, _ code: UInt32) {
        lectern.press(code)
        lectern.settle()
    }

    @Test("5 on a field starts filling it as a tap would; 0 leaves it unchanged, Enter keeps what was typed")
    func fillField() throws {
        let setup = try AnnotationsOnScreenTests.Setup()
        let lectern = setup.lectern
        #expect(lectern.enableKeyboard())
        for _ in 0..<30 where lectern.status.focus.kind != "field" { press(lectern, Pad.down) }
        #expect(lectern.status.focus.kind == "field", "\(lectern.status.focus)")
        #expect(
            lectern.status.focus.label == "name, text field, filled in (headphones say what)",
            "its name and kind; its value is not said without headphones")
        press(lectern, Pad.select)
        #expect(lectern.status.annotations.editing == .typing("Ada"))
        #expect(lectern.status.focus.level == "editing")
        #expect(lectern.status.focus.label == "Done")
        press(lectern, 17)  // w, on the main block: typed
        #expect(lectern.status.annotations.editing == .typing("Adaw"))
        press(lectern, Pad.back)
        #expect(lectern.status.annotations.editing == nil, "0 leaves the field")
        #expect(lectern.status.focus.level == "page")
        #expect(lectern.status.annotations.fieldValues["name"] == "Ada", "unchanged")
        // Again, and Enter (the focus shows: Select on Done) keeps it.
        for _ in 0..<30 where lectern.status.focus.kind != "field" { press(lectern, Pad.down) }
        press(lectern, Pad.select)
        press(lectern, 18)  // e
        lectern.press(LecternHarness.Key.enter)
        lectern.settle()
        #expect(lectern.status.annotations.editing == nil)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["name"] == "Adae" })
    }

    @Test("the shelf by keys: 2 goes through the covers, 5 opens one with the focus on it, 0 goes back to the shelf")
    func shelf() throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            documents = ["\(ShelfTests.colors)", "\(KeypadFocusTests.columns)"]
            """)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.wait { lectern.status.shelf.count == 2 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        press(lectern, Pad.down)
        #expect(lectern.status.focus.level == "shelf")
        #expect(lectern.status.focus.label == "colors-8pages.pdf")
        #expect(lectern.status.focus.ring != nil, "a ring around the cover")
        press(lectern, Pad.down)
        #expect(lectern.status.focus.label == "Visiting the museum", "its /Title")
        press(lectern, Pad.select)
        #expect(lectern.wait { !lectern.status.isShelfShown })
        #expect(
            lectern.wait { lectern.status.focus.label == "Visiting the city museum today" },
            "the document's first paragraph has the focus: \(lectern.status.focus)")
        #expect(lectern.status.focus.isShown)
        press(lectern, Pad.back)
        #expect(lectern.wait { lectern.status.isShelfShown }, "0 goes up to the shelf")
        press(lectern, Pad.down)
        #expect(lectern.status.focus.level == "shelf")
        try lectern.stop()
    }

    @Test("a shelf taller than the screen scrolls to the cover the focus goes to")
    func longShelf() throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            documents = ["\(ShelfTests.colors)", "\(KeypadFocusTests.columns)", "\(ShelfTests.presentation)"]
            """)
        let lectern = try KioskHarness(["--config", policy.path], width: 360, height: 320)
        #expect(lectern.wait { lectern.status.shelf.count == 3 })
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        let last = try #require(lectern.status.shelf.last?.box)
        #expect(last.maxY > 320, "the last cover starts off screen: \(last)")
        for _ in 0..<3 { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == "Colours in motion")
        #expect(lectern.status.shelfScroll > 0)
        let ring = try #require(lectern.status.focus.ring)
        #expect(ring.y >= 0 && ring.maxY <= 320, "the cover scrolled on screen: \(ring)")
        try lectern.stop()
    }

    @Test("the policy's [keypad] remaps the keys: F2 moves on and starts the focus, 2 no longer does")
    func remapped() throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            document = "\(KeypadFocusTests.columns)"
            [keypad]
            next = ["F2"]
            """)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        press(lectern, Pad.down)
        #expect(!lectern.status.focus.isShown, "KP_2 is not a key of the map")
        press(lectern, 60)  // F2
        #expect(lectern.status.focus.label == "Visiting the city museum today")
        press(lectern, 60)
        #expect(lectern.status.focus.label == "The museum opens at nine. Tickets are sold at the door.")
        press(lectern, Pad.up)
        #expect(lectern.status.focus.label == "Visiting the city museum today", "8 still goes back")
        try lectern.stop()
    }

    @Test("a note by keys, as a drag would: 2 goes to it, 5 selects it, 6 moves it right, + grows it, 5 puts it down")
    func moveNoteByKeys() throws {
        let setup = try AnnotationsOnScreenTests.Setup(policy: "[annotations]\nmove = [\"freetext\"]\n")
        let lectern = setup.lectern
        #expect(lectern.enableKeyboard())
        for _ in 0..<30 where lectern.status.focus.kind != "annotation" { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == "FreeText note: Hello, visitor", "\(lectern.status.focus)")
        press(lectern, Pad.select)
        #expect(lectern.status.annotations.selected?.subtype == "FreeText")
        #expect(lectern.status.focus.lastSpoken?.hasPrefix("Selected. 8, 2, 4 and 6") == true)
        for _ in 0..<5 { press(lectern, Pad.right) }
        var rect = try #require(lectern.status.annotations.selected?.rect)
        #expect(abs(rect.minX - 70) < 0.5 && abs(rect.maxX - 270) < 0.5 && abs(rect.minY - 600) < 0.5, "\(rect)")
        press(lectern, Pad.up)
        rect = try #require(lectern.status.annotations.selected?.rect)
        #expect(abs(rect.minY - 604) < 0.5, "up on screen is up the page: \(rect)")
        press(lectern, LecternHarness.Key.equal)  // + : larger at the right and the bottom
        rect = try #require(lectern.status.annotations.selected?.rect)
        #expect(abs(rect.width - 204) < 0.5 && abs(rect.height - 54) < 0.5 && abs(rect.minY - 600) < 0.5, "\(rect)")
        #expect(lectern.status.annotations.edits == 7, "each step an edit, as a drag's lift")
        press(lectern, Pad.select)
        #expect(lectern.status.annotations.selected == nil, "5 put it down")
    }

    @Test("a choice field's options are items: 2 goes to one, 5 picks it")
    func chooseOption() throws {
        let setup = try AnnotationsOnScreenTests.Setup()
        let lectern = setup.lectern
        #expect(lectern.enableKeyboard())
        let colour = "colour, combo field, filled in (headphones say what)"
        for _ in 0..<30 where lectern.status.focus.label != colour { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == colour, "\(lectern.status.focus)")
        press(lectern, Pad.select)
        #expect(lectern.status.annotations.editing == .choosing(["Red", "Green", "Blue"]))
        #expect(lectern.status.focus.label == "Red")
        press(lectern, Pad.down)
        press(lectern, Pad.down)
        #expect(lectern.status.focus.label == "Blue")
        press(lectern, Pad.select)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["colour"] == "Blue" })
        #expect(lectern.status.focus.level == "page" && lectern.status.focus.label == colour)
    }

    @Test("zoomed in, the focus scrolls the page to show the item it goes to")
    func zoomedIn() throws {
        let lectern = try KioskHarness([KeypadFocusTests.columns])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        for _ in 0..<4 { lectern.press(LecternHarness.Key.equal) }
        #expect(lectern.settle())
        #expect(lectern.status.zoomScale > 2)
        for _ in 0..<8 { press(lectern, Pad.down) }
        #expect(lectern.status.focus.label == "Printed by the friends of the museum.")
        let ring = try #require(lectern.status.focus.ring, "the footer is on screen: \(lectern.status.focus)")
        #expect(ring.y >= 0 && ring.maxY <= 720 && ring.x >= 0 && ring.maxX <= 1280, "\(ring)")
        press(lectern, Pad.up)
        let title = try #require(lectern.status.focus.ring)
        #expect(title.y >= 0 && title.maxY <= 720, "and back up to the right column's last paragraph: \(title)")
        try lectern.stop()
    }

    @Test("where the policy never shows the chrome, the focus goes around the page's items only")
    func noChrome() throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            document = "\(KeypadFocusTests.columns)"
            [chrome]
            show = "never"
            """)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        for _ in 0..<10 { press(lectern, Pad.down) }
        #expect(
            lectern.status.focus.label == "Visiting the city museum today",
            "8 items and the accessibility button (not the title bar's), then around")
        #expect(!lectern.status.isUserInterfaceVisible)
        try lectern.stop()
    }

    @Test("every navigation key interrupts speech first, then says the focused item")
    func speechHook() throws {
        let requests = Requests()
        let lectern = try KioskHarness([KeypadFocusTests.columns]) { app in
            app.onSpeech = { requests.list.append($0) }
        }
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        press(lectern, Pad.down)
        press(lectern, Pad.down)
        press(lectern, Pad.help)
        let says = requests.list.compactMap { if case .say(let text) = $0 { text } else { nil } }
        #expect(requests.list.filter { $0 == .interrupt }.count == 3)
        #expect(requests.list.first == .interrupt)
        #expect(says.count == 3)
        #expect(
            Array(says.prefix(2)) == [
                "Visiting the city museum today", "The museum opens at nine. Tickets are sold at the door.",
            ])
        #expect(says.last?.contains("4 and 6 turn the page") == true)
        #expect(lectern.status.focus.lastSpoken == says.last)
        try lectern.stop()
    }

    final class Requests: @unchecked Sendable {
        var list: [SpeechRequest] = []
    }

    @Test("the accessibility button and its panel's rows are items: 5 opens the panel, and a row acts")
    func accessibilityPanelByKeys() throws {
        let lectern = try KioskHarness([KeypadFocusTests.columns])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        press(lectern, Pad.up)
        #expect(lectern.status.focus.label == "Accessibility: read aloud, contrast, large print, more time")
        press(lectern, Pad.select)
        #expect(lectern.status.accessibilityPanel != nil, "5 opens the panel")
        press(lectern, Pad.down)
        #expect(lectern.status.focus.label == "Stop reading", "keypad use speaks: speech is on")
        press(lectern, Pad.down)
        #expect(lectern.status.focus.label == "Contrast: normal")
        press(lectern, Pad.select)
        #expect(lectern.app.contrast == Contrast(.invert), "5 on a row does what a tap does")
        #expect(lectern.status.accessibilityPanel?[1] == "Contrast: inverted")
        try lectern.stop()
    }
}
