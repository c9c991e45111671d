import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// The outline panel through the test compositor: outline.pdf is colors-8pages.pdf with an
/// outline (Introduction → 1; Part One (closed): Blue → 2, Green → 3; Part Two (open): Yellow → 4,
/// Chapter Five (closed): Purple → 5; Orange and beyond → 6; On the web: no page).
@Suite("The outline panel")
struct OutlineOnScreenTests {
    static let outline = LecternHarness.fixture("outline.pdf")
    static let panel = Scene.OutlinePanel.box(width: 1280, height: 720)

    /// The middle of row `row` of the panel (not scrolled), at `x`.
    static func row(_ row: Int, x: Double = 200) -> (x: Double, y: Double) {
        (x, Double(panel.y + row * Scene.OutlinePanel.rowHeight + Scene.OutlinePanel.rowHeight / 2))
    }

    /// Where the triangle of an entry at `depth` is.
    static func triangle(depth: Int) -> Double {
        Double(panel.x + 8 + depth * Scene.OutlinePanel.indent + 20)
    }

    /// The reader with the chrome shown and the outline read.
    static func withChrome(_ path: String, worker: Bool = true) throws -> KioskHarness {
        let lectern = try KioskHarness([path] + ["--render-process", worker ? "on" : "off"])
        #expect((lectern.status.renderWorker != nil) == worker)
        #expect(lectern.settle())
        #expect(lectern.wait { lectern.status.pageSizesKnown })
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible)
        return lectern
    }

    static func tap(_ lectern: KioskHarness, _ point: (x: Double, y: Double)) {
        lectern.tap(x: point.x, y: point.y)
        lectern.settle()
    }

    /// Also with the render worker, which reads the outline and the page sizes (the reader
    /// never opens the file).
    @Test(
        "Contents opens the outline: nested entries, closed and open as the file says, a tap goes there",
        arguments: [false, true])
    func tapGoesThere(worker: Bool) throws {
        let lectern = try Self.withChrome(Self.outline, worker: worker)
        #expect(lectern.status.navigation.hasOutline)
        let contents = Scene.Chrome.buttonBox(1)
        Self.tap(lectern, (Double(contents.x + 20), Double(contents.y + 20)))
        #expect(lectern.status.navigation.isOutlineOpen)
        #expect(
            lectern.status.navigation.outline == [
                "Introduction", "Part One", "Part Two", "  Yellow", "  Chapter Five", "Orange and beyond", "On the web",
            ])
        #expect(
            lectern.page(atX: 450, y: 300) == nil && lectern.page(atX: 800, y: 300) == 1,
            "the panel is drawn over the page")

        // Part One's triangle opens it; a tap on Green goes to page 3 and closes the panel.
        Self.tap(lectern, Self.row(1, x: Self.triangle(depth: 0)))
        #expect(lectern.status.navigation.outline.prefix(4) == ["Introduction", "Part One", "  Blue", "  Green"])
        #expect(lectern.status.navigation.isOutlineOpen, "opening an entry keeps the panel")
        #expect(lectern.dominantPage == 1)
        Self.tap(lectern, Self.row(3))
        #expect(lectern.waitForPage(3), "Green: \(lectern.viewState ?? "none")")
        #expect(!lectern.status.navigation.isOutlineOpen)
        #expect(lectern.page(atX: 450, y: 300) == 3 && lectern.page(atX: 800, y: 300) == 3, "page 3, no panel over it")

        // Two levels down: Chapter Five's triangle, then Purple.
        Self.tap(lectern, (Double(contents.x + 20), Double(contents.y + 20)))
        let list = lectern.status.navigation.outline
        let chapter = try #require(list.firstIndex(of: "  Chapter Five"))
        Self.tap(lectern, Self.row(chapter, x: Self.triangle(depth: 1)))
        #expect(lectern.status.navigation.outline[chapter + 1] == "    Purple")
        Self.tap(lectern, Self.row(chapter + 1, x: 300))
        #expect(lectern.waitForPage(5), "Purple: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 640, y: 300) == 5)
        try lectern.stop()
    }

    @Test("an entry without a page does nothing; a tap beside the panel closes it; Escape too")
    func closing() throws {
        let lectern = try Self.withChrome(Self.outline)
        let contents = Scene.Chrome.buttonBox(1)
        Self.tap(lectern, (Double(contents.x + 20), Double(contents.y + 20)))
        let web = try #require(lectern.status.navigation.outline.firstIndex(of: "On the web"))
        Self.tap(lectern, Self.row(web))
        #expect(lectern.status.navigation.isOutlineOpen && lectern.dominantPage == 1)
        // Beside the panel, in the page's right edge zone: the panel closes, the page stays.
        Self.tap(lectern, (1200, 400))
        #expect(!lectern.status.navigation.isOutlineOpen)
        #expect(lectern.dominantPage == 1, "the tap only closed the panel")
        Self.tap(lectern, (Double(contents.x + 20), Double(contents.y + 20)))
        #expect(lectern.status.navigation.isOutlineOpen)
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.escape)
        #expect(!lectern.status.navigation.isOutlineOpen)
        try lectern.stop()
    }

    @Test("a document without an outline has no Contents button")
    func noOutline() throws {
        let lectern = try Self.withChrome(LecternHarness.fixture("colors-8pages.pdf"))
        #expect(!lectern.status.navigation.hasOutline)
        // The second button is Search then.
        let second = Scene.Chrome.buttonBox(1)
        Self.tap(lectern, (Double(second.x + 20), Double(second.y + 20)))
        #expect(!lectern.status.navigation.isOutlineOpen)
        #expect(lectern.status.navigation.search != nil, "the second button opened the search")
        try lectern.stop()
    }
}
