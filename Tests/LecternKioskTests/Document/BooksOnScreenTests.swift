import Foundation
import LecternCore
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
