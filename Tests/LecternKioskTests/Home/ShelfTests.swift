import Foundation
import LecternCore
import LecternTestSupport
import Testing

/// The shelf (issue 14, part 2): several documents in the policy give a home screen of covers;
/// a tap opens one, the chrome's button and the idle reset come back. By pixels.
@Suite("Shelf", .serialized)
struct ShelfTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let presentation = LecternHarness.fixture("presentation-8pages.pdf")
    static let broken = LecternHarness.fixture("not-a-pdf.pdf")
    static let background: UInt32 = 0x2B2F36
    static let brokenCard: UInt32 = 0x3A3F48

    /// The colour at the centre of cover `index`, as the last commit shows it.
    func centre(of index: Int, _ lectern: KioskHarness) -> (x: Int, y: Int) {
        centre(of: lectern.status.shelf[index].box)
    }

    func centre(of box: PixelBox) -> (x: Int, y: Int) {
        (box.x + box.width / 2, box.maxY - box.height / 3)
    }

    func rgb(_ lectern: KioskHarness, _ point: (x: Int, y: Int)) -> UInt32? {
        lectern.lastCommit.map { $0.pixel(x: point.x, y: point.y) & 0xFF_FFFF }
    }

    /// Whether the shelf with covers 1 and 2 drawn and the third a card is what the screen shows.
    func showsShelf(_ lectern: KioskHarness) -> Bool {
        guard lectern.status.isShelfShown, lectern.status.shelf.count == 3 else { return false }
        let (first, second, third) = (centre(of: 0, lectern), centre(of: 1, lectern), centre(of: 2, lectern))
        let gap = (x: lectern.status.shelf[0].box.maxX + 8, y: first.y)
        return lectern.page(atX: first.x, y: first.y) == 1 && lectern.page(atX: second.x, y: second.y) == 1
            && rgb(lectern, third) == Self.brokenCard && rgb(lectern, gap) == Self.background
    }

    /// Also with the render worker: each cover is read by a worker of its own.
    @Test(
        "a shelf of three documents, one broken: covers by pixels; a tap opens one, not the broken one; back by the chrome's button and by the idle reset",
        arguments: [false, true]
    )
    func threeDocumentsOneBroken(worker: Bool) throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            documents = ["\(Self.colors)", "\(Self.presentation)", "\(Self.broken)"]
            [idle]
            reset = 4
            """)
        let lectern = try KioskHarness(["--config", policy.path] + ["--render-process", worker ? "on" : "off"])
        #expect((lectern.status.renderWorker != nil) == worker)
        #expect(
            lectern.wait {
                lectern.status.shelf.count == 3 && !lectern.status.shelf.contains { !$0.hasCover && $0.failure == nil }
            })
        #expect(lectern.settle())
        let shelf = lectern.status.shelf
        #expect(
            shelf.map(\.title) == ["colors-8pages.pdf", "Colours in motion", "not-a-pdf.pdf"],
            "/Info /Title, else the file name")
        #expect(shelf.map(\.hasCover) == [true, true, false])
        #expect(shelf[2].failure != nil && shelf[0].failure == nil && shelf[1].failure == nil)
        #expect(
            showsShelf(lectern) == true,
            "two covers showing page 1, a card for the broken one: \(lectern.saveLastCommit("shelf") ?? "")")
        // The titles and the card's words are drawn: pixels of text in their boxes.
        let commit = try #require(lectern.lastCommit)
        for index in 0..<3 {
            let box = shelf[index].box
            let title = (box.x..<box.maxX).contains { x in
                (box.maxY + 12..<box.maxY + 40).contains { commit.pixel(x: x, y: $0) & 0xFF_FFFF != Self.background }
            }
            #expect(title, "cover \(index + 1) has its title under it")
        }
        let card = shelf[2].box
        #expect(
            (card.x..<card.maxX).contains { x in
                (card.y..<card.maxY).contains { commit.pixel(x: x, y: $0) & 0xFF_FFFF != Self.brokenCard }
            }, "the broken document's card says so")

        // The broken one does not open.
        let third = centre(of: 2, lectern)
        lectern.tap(x: Double(third.x), y: Double(third.y))
        #expect(lectern.settle())
        #expect(showsShelf(lectern) == true, "a tap on the broken cover leaves the shelf")

        // The second one opens, on its first page, and reads as usual.
        let second = centre(of: 1, lectern)
        lectern.tap(x: Double(second.x), y: Double(second.y))
        #expect(lectern.wait { !lectern.status.isShelfShown })
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 8))
        #expect(lectern.pages(alongRow: 360) == [1], "the document fills the screen")
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        #expect(lectern.page(atX: 640, y: 360) == 2)

        // The chrome's button goes back.
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.5)
        #expect(lectern.status.isUserInterfaceVisible)
        lectern.tap(x: 60, y: 30)
        #expect(lectern.settle())
        #expect(showsShelf(lectern) == true, "the chrome's shelf button: \(lectern.saveLastCommit("shelf-back") ?? "")")

        // The first one opens; left alone, the reader goes back to the shelf.
        let first = centre(of: 0, lectern)
        lectern.tap(x: Double(first.x), y: Double(first.y))
        #expect(lectern.wait { !lectern.status.isShelfShown })
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        #expect(lectern.page(atX: 640, y: 360) == 2, "colors-8pages.pdf on its page 2")
        lectern.advance(by: 4.1)
        #expect(showsShelf(lectern) == true, "the idle reset goes back to the shelf")
        try lectern.stop()
    }

    @Test("twenty documents: a grid that scrolls; a drag scrolls it instead of opening a cover")
    func scrolls() throws {
        let paths = (0..<20).map { $0 % 2 == 0 ? Self.colors : Self.presentation }
        let policy = try PolicyTests.PolicyDirectory(
            "documents = [\(paths.map { "\"\($0)\"" }.joined(separator: ", "))]\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.wait { lectern.status.shelf.count == 20 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        let last = try #require(lectern.status.shelf.last).box
        #expect(last.y > 720, "the last cover is below the screen")
        lectern.drag(from: (640, 600), to: (640, 100), steps: 10)
        #expect(lectern.settle())
        #expect(lectern.status.isShelfShown, "a drag does not open a cover")
        #expect(lectern.status.shelfScroll == 500)
        let moved = try #require(lectern.status.shelf.last).box
        #expect(moved.y == last.y - 500)
        if moved.maxY < 720 {
            #expect(
                lectern.page(atX: moved.x + moved.width / 2, y: moved.maxY - 10) == 1, "the scrolled-to cover is drawn")
        }
        try lectern.stop()
    }

    /// Copies of colors-8pages.pdf (no /Title: the shelf shows the file name) named `longName(i)`,
    /// in a directory of their own.
    final class LongNamedDocuments {
        let url: URL
        let paths: [String]

        init(count: Int) throws {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "lectern-shelf-\(UUID().uuidString)")
            self.url = url
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            paths = (0..<count).map { url.appendingPathComponent(ShelfTests.longName($0)).path }
            for path in paths { try FileManager.default.copyItem(atPath: ShelfTests.colors, toPath: path) }
        }

        /// A policy naming them.
        var policy: String { "documents = [\(paths.map { "\"\($0)\"" }.joined(separator: ", "))]\n" }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A file name of 80 characters for document `index`: words, or dashes and underscores, or
    /// one long word, or Hebrew or Arabic words.
    static func longName(_ index: Int) -> String {
        let stems = [
            "Quarterly-report_board-meeting-minutes_final-version_with-all-the-appendices_",
            "Minutes of the annual general meeting of the board of trustees held in spring ",
            "Quarterlyfinancialstatementsandauditorsreportforthemuseumsboardoftrusteesandstaff",
            "דוח שנתי של ועדת הביקורת על פעילות המוזיאון והספרייה בשנה החולפת ",
            "التقرير السنوي لمجلس أمناء المتحف والمكتبة عن أعمال السنة الماضية ",
        ]
        let suffix = "-\(index + 1).pdf"
        return String(String(repeating: stems[index % stems.count], count: 2).prefix(80 - suffix.count)) + suffix
    }

    /// The pixels of the last commit that are not the background although they are in no
    /// cover's column (its box and the room for its title under it): a title drawn over the
    /// gaps and its neighbours, or what an old frame left.
    func inkOutsideColumns(_ lectern: KioskHarness) -> [(x: Int, y: Int)] {
        guard let commit = lectern.lastCommit else { return [] }
        var inColumn = [Bool](repeating: false, count: commit.width * commit.height)
        for cover in lectern.status.shelf {
            let box = cover.box
            let column = PixelBox(
                x: box.x, y: box.y, width: box.width, height: box.height + ShelfLayout.standardTitleHeight
            )
            .intersection(PixelBox(x: 0, y: 0, width: commit.width, height: commit.height))
            guard !column.isEmpty else { continue }
            for y in column.y..<column.maxY {
                for x in column.x..<column.maxX { inColumn[y * commit.width + x] = true }
            }
        }
        var ink: [(x: Int, y: Int)] = []
        for y in 0..<commit.height {
            for x in 0..<commit.width
            where !inColumn[y * commit.width + x] && commit.pixel(x: x, y: y) & 0xFF_FFFF != Self.background {
                ink.append((x, y))
            }
        }
        return ink
    }

    /// The titles on screen that are not two lines: no ink in the room for the first line, or
    /// none in the room for the second (the body font's lines are 26 pixels apart).
    func titlesNotOnTwoLines(_ lectern: KioskHarness) -> [String] {
        guard let commit = lectern.lastCommit else { return [] }
        func hasInk(_ box: PixelBox, rows: Range<Int>) -> Bool {
            rows.clamped(to: 0..<commit.height).contains { y in
                (box.x..<box.maxX).contains { commit.pixel(x: $0, y: y) & 0xFF_FFFF != Self.background }
            }
        }
        return lectern.status.shelf.filter { cover in
            let top = cover.box.maxY + 12
            guard top >= 0, top + 56 <= commit.height else { return false }
            return !hasInk(cover.box, rows: top..<top + 24) || !hasInk(cover.box, rows: top + 30..<top + 56)
        }.map(\.title)
    }

    /// Draws the frame again from scratch (a resize and back repaints every pixel) and tells
    /// whether it equals the one committed before, pixel for pixel (and the scroll is the same).
    func equalsFrameFromScratch(_ lectern: KioskHarness, _ name: String) -> Bool {
        guard let before = lectern.lastCommit else { return false }
        let scroll = lectern.status.shelfScroll
        guard lectern.resize(to: 1280, 700), lectern.resize(to: 1280, 720), let after = lectern.lastCommit,
            lectern.status.shelfScroll == scroll
        else { return false }
        guard before.pixels != after.pixels else { return true }
        let differing = zip(before.pixels, after.pixels).filter { $0 != $1 }.count
        let saved = [lectern.save(before, name), lectern.save(after, "\(name)-from-scratch")].compactMap { $0 }
        Issue.record("\(differing) pixels differ from the frame drawn from scratch at scroll \(scroll): \(saved)")
        return false
    }

    @Test(
        "A shelf of file names of 80 characters stays inside its columns: at rest, after a fling and after the wheel",
        arguments: [8, 22])
    func longFileNamesStayInTheirColumns(count: Int) throws {
        let documents = try LongNamedDocuments(count: count)
        #expect(documents.paths.allSatisfy { ShelfTests.fileName($0).count == 80 })
        let policy = try PolicyTests.PolicyDirectory(documents.policy)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.wait { lectern.status.shelf.count == count && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        #expect(lectern.status.shelf.map(\.title) == documents.paths.map(ShelfTests.fileName))
        var ink = inkOutsideColumns(lectern)
        #expect(
            ink.isEmpty,
            "at rest, \(ink.count) pixels of ink outside the columns, from \(ink.first.map { "\($0)" } ?? ""): \(lectern.saveLastCommit("shelf-\(count)-rest") ?? "")"
        )
        var notTwoLines = titlesNotOnTwoLines(lectern)
        #expect(notTwoLines.isEmpty, "titles not on two lines at rest: \(notTwoLines)")
        guard count > 8 else { return try lectern.stop() }

        // A fling up (the shelf follows the finger), then the wheel back down a little.
        lectern.drag(from: (640, 650), to: (640, 250), steps: 3, interval: .milliseconds(8))
        #expect(lectern.settle())
        #expect(lectern.status.shelfScroll == 400)
        ink = inkOutsideColumns(lectern)
        #expect(
            ink.isEmpty,
            "after a fling, \(ink.count) pixels of ink outside the columns, from \(ink.first.map { "\($0)" } ?? ""): \(lectern.saveLastCommit("shelf-\(count)-fling") ?? "")"
        )
        notTwoLines = titlesNotOnTwoLines(lectern)
        #expect(notTwoLines.isEmpty, "titles not on two lines after a fling: \(notTwoLines)")

        lectern.compositor.pointerEnter(x: 640, y: 360)
        lectern.compositor.pointerFrame()
        lectern.turn()
        for _ in 0..<5 {
            lectern.compositor.pointerAxis(.vertical, value: -15, value120: -120, source: 0)
            lectern.compositor.pointerFrame()
            lectern.advanceWithoutSettling(by: 0.03)
        }
        #expect(lectern.settle())
        #expect(lectern.status.shelfScroll < 400, "the wheel scrolled the shelf back")
        ink = inkOutsideColumns(lectern)
        #expect(
            ink.isEmpty,
            "after the wheel, \(ink.count) pixels of ink outside the columns, from \(ink.first.map { "\($0)" } ?? ""): \(lectern.saveLastCommit("shelf-\(count)-wheel") ?? "")"
        )
        try lectern.stop()
    }

    @Test("after a fling and the wheel on a shelf of long file names, the frame is the one drawn from scratch")
    func scrollingLeavesNothingBehind() throws {
        let documents = try LongNamedDocuments(count: 22)
        let policy = try PolicyTests.PolicyDirectory(documents.policy)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.wait { lectern.status.shelf.count == 22 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        lectern.drag(from: (640, 650), to: (640, 250), steps: 3, interval: .milliseconds(8))
        #expect(lectern.settle())
        #expect(lectern.status.shelfScroll == 400)
        #expect(equalsFrameFromScratch(lectern, "shelf-after-fling"), "after a fling")

        lectern.compositor.pointerEnter(x: 640, y: 360)
        lectern.compositor.pointerFrame()
        lectern.turn()
        for detent in [-1, -1, 1, -1, -1, -1] {
            lectern.compositor.pointerAxis(
                .vertical, value: 15 * Double(detent), value120: 120 * Int32(detent), source: 0)
            lectern.compositor.pointerFrame()
            lectern.advanceWithoutSettling(by: 0.03)
        }
        #expect(lectern.settle())
        #expect(lectern.status.shelfScroll < 400, "the wheel scrolled the shelf back")
        #expect(equalsFrameFromScratch(lectern, "shelf-after-wheel"), "after the wheel")
        try lectern.stop()
    }

    static func fileName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    @Test("one document in the list: no shelf, the document as always")
    func oneDocument() throws {
        let policy = try PolicyTests.PolicyDirectory("documents = [\"\(Self.colors)\"]\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(!lectern.status.isShelfShown && lectern.status.shelf.isEmpty)
        #expect(lectern.pages(alongRow: 360) == [1])
        try lectern.stop()
    }

    @Test("the policy's documents changed live: a second document brings the shelf; back to one, the shelf goes")
    func documentsChangedLive() throws {
        let policy = try PolicyTests.PolicyDirectory("document = \"\(Self.colors)\"\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(!lectern.status.isShelfShown && lectern.pages(alongRow: 200) == [1])
        try policy.replace(with: "documents = [\"\(Self.colors)\", \"\(Self.presentation)\"]\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        #expect(lectern.wait { lectern.status.shelf.count == 2 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        #expect(lectern.status.isShelfShown)
        let covers = lectern.status.shelf.map { centre(of: $0.box) }
        #expect(covers.map { lectern.page(atX: $0.x, y: $0.y) } == [1, 1], "two covers")
        #expect(rgb(lectern, (640, 100)) == Self.background, "between them, no page")
        try policy.replace(with: "document = \"\(Self.presentation)\"\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        #expect(lectern.wait { lectern.status.documentReloads == 1 })
        #expect(lectern.settle())
        #expect(!lectern.status.isShelfShown && lectern.status.shelf.isEmpty)
        #expect(lectern.pages(alongRow: 200) == [1], "the document fills the screen again")
        try lectern.stop()
    }
}

/// Covers of books, comics and images: page 1 drawn as for a PDF, the book's title under it.
@Suite("Shelf of books", .serialized)
struct ShelfOfBooksTests {
    @Test("an EPUB, a comic and a picture on the shelf: each a cover, the EPUB under its title")
    func booksHaveCovers() throws {
        let epub = try BooksOnScreenTests.path("tales.epub")
        try GeneratedEPUB(
            title: "Harbour Tales", chapters: [.init(title: "The Harbour", paragraphs: ["The boats come home."])]
        ).write(to: epub)
        let comic = try BooksOnScreenTests.path("comic.cbz")
        try GeneratedCBZ.zip(pages: 2).write(to: comic)
        let picture = try BooksOnScreenTests.path("picture.png")
        try GeneratedPNG(width: 200, height: 300, colour: (40, 140, 60)).write(to: picture)
        let policy = try PolicyTests.PolicyDirectory("documents = [\"\(epub)\", \"\(comic)\", \"\(picture)\"]\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(
            lectern.wait {
                lectern.status.shelf.count == 3 && !lectern.status.shelf.contains { !$0.hasCover && $0.failure == nil }
            })
        #expect(lectern.settle())
        let shelf = lectern.status.shelf
        #expect(shelf.map(\.hasCover) == [true, true, true], "\(shelf.map(\.failure))")
        #expect(shelf.map(\.title) == ["Harbour Tales", "comic.cbz", "picture.png"])
        let commit = try #require(lectern.lastCommit)
        func top(_ box: PixelBox) -> UInt32 {
            commit.pixel(x: box.x + box.width / 2, y: box.y + box.height / 5) & 0xFF_FFFF
        }
        #expect(top(shelf[1].box) == 0xC83C28, "the comic's first page, red")
        #expect(top(shelf[2].box) == 0x288C3C, "the picture, green")
        let book = shelf[0].box
        let ink = (book.x..<book.maxX).contains { x in
            (book.y..<book.maxY).contains { commit.pixel(x: x, y: $0) & 0xFF_FFFF < 0x80_8080 }
        }
        #expect(ink, "the EPUB's first page, with its text")
        try lectern.stop()
    }
}
