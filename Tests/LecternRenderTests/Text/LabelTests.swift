import LecternCore
import LecternRender
import Logging
import Testing

/// Labels (the shelf's titles): lines wrapped inside their box, at most as many as asked, the
/// last one ellipsized; nothing drawn outside the box, so a label that moves leaves nothing.
@Suite("Labels")
struct LabelTests {
    let logger = Logger(label: "test")
    typealias Buffer = FrameCompositorTests.Buffer

    /// File names of 80 characters (dashes and underscores, words, one long word), and Hebrew and
    /// Arabic titles.
    static let underscored = "Quarterly-report_board-meeting-minutes_final-version_with-all-the-appendices_1.pdf"
    static let words = "Minutes of the annual general meeting of the board of trustees held in spring 2.pdf"
    static let oneWord = "Quarterlyfinancialstatementsandauditorsreportforthemuseumsboardoftrusteesand3.pdf"
    static let hebrew = "דוח שנתי של ועדת הביקורת על פעילות המוזיאון והספרייה בשנה החולפת ודוח הכספים"
    static let arabic = "التقرير السنوي لمجلس أمناء المتحف والمكتبة عن أعمال السنة الماضية والحسابات"

    func font() throws -> TextRenderer { try #require(TextRenderer(pixelSize: 22, logger: logger)) }

    /// Checks `lines` are `text` from its start, on at most two lines as wide as `width`, the second
    /// ellipsized; returns the first line's end in `text`.
    func expectTwoLines(_ lines: [String], of text: String, width: Int, _ font: TextRenderer) -> String.Index? {
        #expect(lines.count == 2, "\(lines)")
        for line in lines { #expect(font.width(of: line) <= width, "\(line) is \(font.width(of: line)) wide") }
        guard lines.count == 2, lines[1].hasSuffix("…"), text.hasPrefix(lines[0]) else {
            Issue.record("not the text's start then an ellipsized line: \(lines)")
            return nil
        }
        let rest = text[text.index(text.startIndex, offsetBy: lines[0].count)...].drop { $0 == " " }
        #expect(rest.hasPrefix(lines[1].dropLast()), "the second line goes on from the first: \(lines)")
        return text.index(text.startIndex, offsetBy: lines[0].count)
    }

    @Test("a file name with dashes and underscores breaks after one of them, on two lines, the second ellipsized")
    func underscoredFileName() throws {
        let font = try font()
        let lines = font.wrap(Self.underscored, maxWidth: 160, maxLines: 2)
        let end = try #require(expectTwoLines(lines, of: Self.underscored, width: 160, font))
        #expect("-_".contains(Self.underscored[Self.underscored.index(before: end)]), "\(lines[0])")
    }

    @Test("words break at spaces; a title that fits is left whole")
    func words() throws {
        let font = try font()
        let lines = font.wrap(Self.words, maxWidth: 160, maxLines: 2)
        let end = try #require(expectTwoLines(lines, of: Self.words, width: 160, font))
        #expect(Self.words[end] == " ", "the first line ends at a word's end: \(lines[0])")
        #expect(font.wrap("Colours in motion", maxWidth: 300, maxLines: 2) == ["Colours in motion"])
        let narrow = font.width(of: "Colours in")
        #expect(font.wrap("Colours in motion", maxWidth: narrow, maxLines: 2) == ["Colours in", "motion"])
        #expect(font.wrap("Colours in motion", maxWidth: narrow - 1, maxLines: 2) == ["Colours", "in motion"])
    }

    @Test("a word too long for a line breaks where the line is full")
    func oneLongWord() throws {
        let font = try font()
        let lines = font.wrap(Self.oneWord, maxWidth: 160, maxLines: 2)
        let end = try #require(expectTwoLines(lines, of: Self.oneWord, width: 160, font))
        #expect(font.width(of: String(Self.oneWord[...end])) > 160, "one more letter would not fit: \(lines[0])")
        #expect(font.wrap(Self.oneWord, maxWidth: 160).count > 2, "without a limit, every letter is on a line")
        #expect(font.wrap(Self.oneWord, maxWidth: 160).joined() == Self.oneWord)
    }

    @Test(
        "a right-to-left title wraps in reading order and is drawn from the right: its first word at the right, its ellipsis at the left",
        arguments: [hebrew, arabic])
    func rightToLeft(title: String) throws {
        let font = try font()
        let lines = font.wrap(title, maxWidth: 200, maxLines: 2)
        _ = try #require(expectTwoLines(lines, of: title, width: 200, font))
        let background = Palette.normal.background.argb
        /// `text` in a label just as wide, from `x`.
        func drawn(_ text: String, x: Int) -> Buffer {
            let compositor = FrameCompositor(logger: logger)
            let buffer = Buffer(width: 300, height: 40)
            var scene = Scene(width: 300, height: 40)
            scene.labels = [Scene.Label(text, in: PixelBox(x: x, y: 4, width: font.width(of: text), height: 32))]
            compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
            return buffer
        }
        func same(_ a: Buffer, _ b: Buffer, columns: Range<Int>) -> Bool {
            columns.allSatisfy { x in (0..<40).allSatisfy { a.pixel(x, $0) == b.pixel(x, $0) } }
        }
        // The first line's first word drawn alone at the line's right end: the same pixels there.
        let first = lines[0], word = String(lines[0].prefix { $0 != " " })
        #expect(word != first, "the first line has several words: \(first)")
        let right = 20 + font.width(of: first)
        let line = drawn(first, x: 20), alone = drawn(word, x: right - font.width(of: word))
        #expect(
            same(line, alone, columns: right - font.width(of: word) + 2..<right), "the first word is at the right end")
        // The second line, and its words without the "…" moved right by the ellipsis' width: the
        // words are at the same pixels, and the "…" left of them.
        let ellipsized = lines[1], words = String(lines[1].dropLast())
        let ellipsis = font.width(of: "…")
        #expect(font.width(of: ellipsized) == font.width(of: words) + ellipsis)
        let whole = drawn(ellipsized, x: 20), moved = drawn(words, x: 20 + ellipsis)
        #expect(
            same(whole, moved, columns: 20 + ellipsis..<300),
            "the words are drawn at the same pixels, right of the ellipsis")
        let dots = (20..<20 + ellipsis).contains { x in (0..<40).contains { whole.pixel(x, $0) != background } }
        #expect(dots, "the ellipsis is drawn at the left end")
    }

    @Test("a label draws nothing outside its box; moved, an age-1 buffer equals one drawn from scratch")
    func labelStaysInItsBox() throws {
        let compositor = FrameCompositor(logger: logger)
        let buffer = Buffer(width: 600, height: 200)
        var scene = Scene(width: 600, height: 200)
        let first = PixelBox(x: 40, y: 20, width: 160, height: 60)
        scene.labels = [Scene.Label(Self.oneWord, in: first, maxLines: 2)]
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        let background = Palette.normal.background.argb
        func inkOutside(_ box: PixelBox, _ buffer: Buffer) -> Int {
            var ink = 0
            for y in 0..<200 {
                for x in 0..<600 where !(box.x..<box.maxX ~= x && box.y..<box.maxY ~= y) {
                    if buffer.pixel(x, y) != background { ink += 1 }
                }
            }
            return ink
        }
        let inside = (first.y..<first.maxY).contains { y in
            (first.x..<first.maxX).contains { buffer.pixel($0, y) != background }
        }
        #expect(inside, "the label is drawn")
        #expect(inkOutside(first, buffer) == 0, "nothing is drawn outside the label's box")

        let second = first.offsetBy(dx: 200, dy: 60)
        scene.labels = [Scene.Label(Self.oneWord, in: second, maxLines: 2)]
        compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: 1)
        let fresh = Buffer(width: 600, height: 200)
        FrameCompositor(logger: logger).draw(scene, into: fresh.pixels, stride: fresh.stride, bufferAge: 0)
        let same = (0..<200).allSatisfy { y in (0..<600).allSatisfy { buffer.pixel($0, y) == fresh.pixel($0, y) } }
        #expect(same, "the moved label left nothing behind")
        #expect(inkOutside(second, buffer) == 0)
    }
}
