import LecternCore
import LecternTestSupport
import Testing

/// Page labels where a visitor sees them: the title bar says "iv (4 of 12)" where the PDF's
/// labels differ from the page numbers, a two-page spread says "12–13 of 320", and a label
/// typed on a keyboard goes to that page. labels.pdf: i ii iii 1 2 3 A-7 A-8 Y Z a Appendix.
@Suite("Page labels in the chrome")
struct LabelsOnScreenTests {
    static let labels = LecternHarness.fixture("labels.pdf")
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// evdev codes of the letter keys (US layout), for typing labels.
    static let keys: [Character: UInt32] = [
        "a": 30, "d": 32, "e": 18, "i": 23, "n": 49, "p": 25, "x": 45, "-": 12,
    ]

    /// Types `text` on the keyboard, then Enter.
    static func type(_ text: String, on lectern: KioskHarness) {
        for character in text {
            lectern.press(character.wholeNumberValue.map(LecternHarness.Key.digit) ?? keys[character]!)
        }
        lectern.press(LecternHarness.Key.enter)
    }

    /// A fingerprint of the title bar's right half (where the position is written).
    static func positionPixels(_ lectern: KioskHarness) -> [UInt32] {
        guard let commit = lectern.lastCommit else { return [] }
        return (8..<56).flatMap { y in (commit.width / 2..<commit.width).map { commit.pixel(x: $0, y: y) } }
    }

    /// Also with the render worker, which reads the labels when it opens the file (the reader
    /// never opens it).
    @Test(
        "the title bar shows the label with the page number where they differ; typed labels go there",
        arguments: [false, true])
    func labelsWithNumbers(worker: Bool) throws {
        let lectern = try KioskHarness([Self.labels] + ["--render-process", worker ? "on" : "off"])
        #expect((lectern.status.renderWorker != nil) == worker)
        #expect(lectern.settle())
        #expect(lectern.status.pagePosition == "i (1 of 12)")
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible)
        let first = Self.positionPixels(lectern)
        #expect(lectern.enableKeyboard())
        let steps: [(typed: String, page: Int, position: String)] = [
            // No page is labelled 4: the number.
            ("4", 4, "1 (4 of 12)"),
            // Page 5 is labelled 2: the label wins over the page number.
            ("2", 5, "2 (5 of 12)"),
            ("iii", 3, "iii (3 of 12)"),
            ("a-8", 8, "A-8 (8 of 12)"),
            ("appendix", 12, "Appendix (12 of 12)"),
            ("10", 10, "Z (10 of 12)"),
        ]
        for step in steps {
            Self.type(step.typed, on: lectern)
            #expect(lectern.waitForPage(step.page), "typed \(step.typed): \(lectern.viewState ?? "none")")
            #expect(lectern.status.pagePosition == step.position, "typed \(step.typed)")
        }
        #expect(Self.positionPixels(lectern) != first, "the title bar's position text changed on screen")
        Self.type("xx", on: lectern)
        #expect(lectern.waitForPage(10), "no page is labelled xx: the reader stays")
        #expect(lectern.status.notice?.contains("xx") == true, "and says so: \(lectern.status.notice ?? "nothing")")
        try lectern.stop()
    }

    @Test("a two-page spread shows its range, labelled or not")
    func spreadRanges() throws {
        let double = try KioskHarness([Self.colors, "--spreads", "double"])
        #expect(double.settle())
        #expect(double.status.pagePosition == "1–2 of 8")
        double.tap(x: 1250, y: 360)
        #expect(double.waitForPage(3))
        #expect(double.status.pagePosition == "3–4 of 8")
        try double.stop()

        let cover = try KioskHarness([Self.colors, "--spreads", "cover"])
        #expect(cover.settle())
        #expect(cover.status.pagePosition == "Page 1 of 8", "the cover alone")
        cover.tap(x: 1250, y: 360)
        #expect(cover.waitForPage(2))
        #expect(cover.status.pagePosition == "2–3 of 8")
        try cover.stop()

        let labelled = try KioskHarness([Self.labels, "--spreads", "double"])
        #expect(labelled.settle())
        #expect(labelled.status.pagePosition == "i–ii (1–2 of 12)")
        #expect(labelled.enableKeyboard())
        Self.type("2", on: labelled)
        #expect(labelled.waitForPage(5))
        #expect(labelled.status.pagePosition == "2–3 (5–6 of 12)")
        try labelled.stop()
    }
}
