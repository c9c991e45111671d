import Foundation
import LecternCore
import LecternRender
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// Books (EPUB, FB2), comics (CBZ) and images are shown like PDFs; a broken EPUB gets the card a
/// broken PDF gets.
@Suite("Books on screen", .serialized)
struct BooksOnScreenTests {
    /// A file of its own in the temporary directory, for `test` (tests run in parallel).
    static func path(_ name: String, test: String = #function) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lectern-books-kiosk-\(getpid())-\(test.prefix { $0 != "(" })")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    @Test("an EPUB opens by its content and its first page is shown")
    func epubIsShown() throws {
        let path = try Self.path("book.bin")
        try GeneratedEPUB.numbered(chapters: 3, paragraphs: 6).write(to: path)
        let lectern = try KioskHarness([path])
        #expect(lectern.settle())
        guard case .open(let pages) = lectern.status.document else {
            Issue.record("the EPUB is not open: \(lectern.status.document)")
            return
        }
        #expect(pages >= 3, "a page or more a chapter")
        let commit = try #require(lectern.lastCommit)
        #expect(DocumentOnScreenTests.whiteFraction(commit) > 0.3, "a white page shows")
        #expect(commit.darkFraction() > 0.001, "its text is drawn")
        try lectern.stop()
    }

    /// The rows of `commit` with dark ink beside the accessibility button (right of it, up to the
    /// page's right third), from its top down to the page's bottom edge (the margin, 12 px, and
    /// the shadow are dark too).
    static func inkedRowsBesideButton(_ commit: Commit, buttonTop: Int) -> Int {
        (buttonTop..<(commit.height - 16)).filter { y in
            stride(from: 120, to: commit.width * 2 / 3, by: 2).contains { x in
                let pixel = commit.pixel(x: x, y: y)
                return (pixel >> 16) & 0xFF < 100 && (pixel >> 8) & 0xFF < 100 && pixel & 0xFF < 100
            }
        }.count
    }

    @Test("a book's pages keep their text clear of the accessibility button, at the bottom left (issue 35)")
    func textClearOfTheButton() throws {
        let path = try Self.path("long.epub")
        try GeneratedEPUB.numbered(chapters: 2, paragraphs: 40).write(to: path)
        let top = Scene.Accessibility(
            bottomInset: ChromeMetrics.standard.reachBottom + ChromeMetrics.standard.barHeight
        )
        .buttonBox(height: 720).y
        for button in [false, true] {
            let lectern = try KioskHarness(button ? [path] : [path, "--no-accessibility-button"])
            #expect(lectern.settle())
            let commit = try #require(lectern.lastCommit)
            let inked = Self.inkedRowsBesideButton(commit, buttonTop: top)
            if button {
                #expect(inked == 0, "\(inked) rows of text beside the button")
            } else {
                #expect(inked > 20, "without the button the text runs down there: \(inked) rows")
            }
            try lectern.stop()
        }
    }

    @Test("a comic book archive shows its first picture")
    func comicIsShown() throws {
        let path = try Self.path("comic.cbz")
        try GeneratedCBZ.zip(pages: 4).write(to: path)
        let lectern = try KioskHarness([path])
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 4))
        let commit = try #require(lectern.lastCommit)
        let middle = commit.pixel(x: commit.width / 2, y: commit.height / 4)
        #expect(middle & 0x00FF_FFFF == 0x00C8_3C28, "page 1's red fills the middle of the screen: \(middle)")
        try lectern.stop()
    }

    @Test("a zip that says it is an EPUB but has no container shows the card a damaged PDF shows")
    func brokenEPUBShowsTheCard() throws {
        let path = try Self.path("broken.epub")
        try GeneratedEPUB.withoutContainer().write(to: path)
        let lectern = try KioskHarness([path])
        #expect(lectern.settle())
        guard case .failed(let message) = lectern.status.document else {
            Issue.record("the broken EPUB is not shown as failed: \(lectern.status.document)")
            return
        }
        #expect(message == "broken.epub: the file is damaged.")
        let error = try #require(lectern.status.documentError)
        #expect(error.contains(path) && error.contains("container"), "the log says why: \(error)")
        let commit = try #require(lectern.lastCommit)
        #expect(!commit.isUniform, "never a blank screen")
        lectern.advance(by: 1)
        #expect(!lectern.status.isStopping, "Lectern stays up")
        try lectern.stop()
    }
}

/// A book is laid out for the screen at the policy's type size; a new type size lays it out again
/// and keeps the page's text on screen.
@Suite("Books laid out for the screen", .serialized)
struct BookLayoutOnScreenTests {
    /// The text of the page on screen, as the reader read it (nil until it has).
    static func textOnScreen(_ lectern: KioskHarness) -> String? {
        guard let reader = lectern.app.parts?.session.reader,
            let text = reader.pageText[reader.view.dominantPage()]
        else { return nil }
        return String(String.UnicodeScalarView(text.characters.characters.compactMap { Unicode.Scalar($0.scalar) }))
    }

    static func pageCount(_ lectern: KioskHarness) -> Int {
        if case .open(let count) = lectern.status.document { count } else { 0 }
    }

    @Test("a new font-size in the policy lays the book out again and keeps the same sentence on screen")
    func fontSizeChangeKeepsTheSentence() throws {
        let book = try BooksOnScreenTests.path("book.epub")
        try GeneratedEPUB.numbered(chapters: 4, paragraphs: 40).write(to: book)
        let policy = try PolicyTests.PolicyDirectory("document = \"\(book)\"\n[text]\nfont-size = 100\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let document = try #require(lectern.app.parts?.session.reader?.document)
        let layout = try #require(document.layout, "laid out for the screen")
        #expect(layout.fontSize == 12 && layout.width == 960 && layout.height == 540, "\(layout)")
        let pages = Self.pageCount(lectern)
        #expect(pages > 8, "\(pages) pages")
        // Go to a page two thirds in, and read its first words.
        let target = pages * 2 / 3
        try lectern.app.parts?.session.reader?.view.goToPage(target)
        lectern.app.parts?.session.frame.request()
        #expect(lectern.settle())
        #expect(lectern.wait { Self.textOnScreen(lectern) != nil })
        let before = try #require(Self.textOnScreen(lectern))
        let words = before.split(separator: " ").prefix(4).joined(separator: " ")

        try policy.replace(with: "document = \"\(book)\"\n[text]\nfont-size = 200\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        #expect(lectern.wait { lectern.app.parts?.session.reader?.document.layout?.fontSize == 24 })
        #expect(lectern.settle())
        #expect(Self.pageCount(lectern) > pages * 3 / 2, "more pages: \(pages), then \(Self.pageCount(lectern))")
        #expect(lectern.wait { Self.textOnScreen(lectern) != nil })
        let after = try #require(Self.textOnScreen(lectern))
        let squeezed = { (text: String) in text.filter { !$0.isWhitespace } }
        #expect(squeezed(after).contains(squeezed(words)), "'\(words)' still on screen: \(after)")
        let commit = try #require(lectern.lastCommit)
        #expect(commit.darkFraction() > 0.001, "the new page's text is drawn")
        try lectern.stop()
    }

    @Test("large print on a book lays it out at large print's size: its pages show, Text size + lays it larger")
    func largePrintLaysTheBookOut() throws {
        let book = try BooksOnScreenTests.path("book.epub")
        try GeneratedEPUB.numbered(chapters: 3, paragraphs: 30).write(to: book)
        let lectern = try KioskHarness([book, "--large-print", "on"])
        #expect(lectern.settle())
        let largePrint = try #require(lectern.app.parts?.focus.panel.accessibility.largePrint)
        func fontSize() -> Double? { lectern.app.parts?.session.reader?.document.layout?.fontSize }
        let large = try #require(fontSize())
        #expect(large > 12, "larger than the book's own 12 points: \(large)")
        #expect(largePrint.isOn && !largePrint.coversPage, "the book's pages show, not a column")
        #expect(DocumentOnScreenTests.whiteFraction(try #require(lectern.lastCommit)) > 0.3, "a page shows")
        largePrint.changeSize(by: 1)
        #expect(lectern.wait { (fontSize() ?? 0) > large }, "Text size + lays it out larger")
        #expect(lectern.settle())
        largePrint.set(on: false)
        #expect(lectern.wait { fontSize() == 12 }, "off: the policy's size again")
        #expect(lectern.settle())
        try lectern.stop()
    }

    @Test("a resize lays the book out again for the new screen")
    func resizeLaysOutAgain() throws {
        let book = try BooksOnScreenTests.path("book.epub")
        try GeneratedEPUB.numbered(chapters: 3, paragraphs: 30).write(to: book)
        let lectern = try KioskHarness([book], width: 1280, height: 720)
        #expect(lectern.settle())
        #expect(lectern.app.parts?.session.reader?.document.layout?.width == 960)
        lectern.compositor.configure(width: 720, height: 1280)
        #expect(lectern.wait { lectern.app.parts?.session.reader?.document.layout?.width == 540 })
        #expect(lectern.settle())
        let page = try #require(lectern.app.parts?.session.reader?.view.pages[0].displaySize)
        #expect(page == Size(width: 540, height: 960), "pages the new screen's shape: \(page)")
        try lectern.stop()
    }
}

/// A book's binding: an EPUB's page-progression-direction="rtl", or the policy's for a comic.
@Suite("Books bound on the right", .serialized)
struct BooksBindingTests {
    @Test("an EPUB whose spine says rtl turns pages right to left: a tap at the left edge goes on")
    func rightToLeftEPUB() throws {
        let path = try BooksOnScreenTests.path("manga.epub")
        var book = GeneratedEPUB.numbered(chapters: 3, paragraphs: 4)
        book.isRightToLeft = true
        try book.write(to: path)
        let lectern = try KioskHarness([path])
        #expect(lectern.settle())
        #expect(lectern.app.parts?.session.reader?.view.configuration.pageBinding == .rightEdge)
        lectern.tap(x: 1200, y: 360)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 1, "a tap at the right edge does not go on")
        lectern.tap(x: 60, y: 360)
        #expect(lectern.waitForPage(2), "a tap at the left edge goes on")
        try lectern.stop()
    }

    @Test("a comic under the policy's right binding turns right to left")
    func rightToLeftComic() throws {
        let path = try BooksOnScreenTests.path("manga.cbz")
        try GeneratedCBZ.zip(pages: 3).write(to: path)
        let lectern = try KioskHarness([path, "--binding", "right"])
        #expect(lectern.settle())
        lectern.tap(x: 60, y: 360)
        #expect(lectern.waitForPage(2), "a tap at the left edge goes on")
        try lectern.stop()
    }
}
