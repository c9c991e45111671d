import Foundation
import LecternCore
import LecternTestSupport
import Testing

/// A new version of the shown document replaces it live; a broken one leaves the old on
/// screen (issue 14). `KioskApp` in process, on the manual clock; files written for real.
@Suite("Live document reload", .serialized)
struct DocumentReloadTests {
    /// A fresh directory with a copy of colors-8pages.pdf as `document.pdf`.
    final class Shelf {
        let url: URL
        var path: String { url.appendingPathComponent("document.pdf").path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-reload-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: LecternHarness.fixture("colors-8pages.pdf"), toPath: path)
        }

        /// Copies `fixture` next to the document and renames it over it.
        func replace(with fixture: String) throws {
            let temporary = url.appendingPathComponent(".document.pdf.new").path
            try? FileManager.default.removeItem(atPath: temporary)
            try FileManager.default.copyItem(atPath: LecternHarness.fixture(fixture), toPath: temporary)
            guard rename(temporary, path) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Waits for the app to see the change, lets `quiet` seconds pass (the quiet period after
    /// a write), and waits for the new version to be opened and rendered (or refused).
    func letReloadHappen(_ lectern: KioskHarness, quiet: Double = 0.6) -> Bool {
        let seen = lectern.wait { lectern.status.hasPendingFileChanges }
        lectern.advance(by: quiet)
        return seen && lectern.settle()
    }

    @Test("a document renamed over the shown one is shown, on the same page")
    func atomicReplace() throws {
        let shelf = try Shelf()
        let lectern = try KioskHarness([shelf.path, "--page", "3"])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 500, y: 360) == 3)
        try shelf.replace(with: "letter-6pages.pdf")
        // A file renamed over is complete: it is read after 50 ms, not the writes' half second.
        #expect(letReloadHappen(lectern, quiet: 0.06))
        #expect(lectern.status.documentReloads == 1)
        #expect(lectern.status.document == .open(pageCount: 6), "the new version: \(lectern.status.document)")
        #expect(lectern.dominantPage == 3, "still page 3")
        #expect(lectern.page(atX: 500, y: 360) == nil, "the screen no longer shows the colour page")
        let sharp = lectern.status.pagesOnScreen.allSatisfy { $0.isSharp }
        #expect(sharp, "the new version shows sharp")
        try lectern.stop()
    }

    @Test("a document rewritten in place is shown once the writes stop")
    func rewriteInPlace() throws {
        let shelf = try Shelf()
        let lectern = try KioskHarness([shelf.path, "--page", "7"])
        #expect(lectern.settle())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: LecternHarness.fixture("letter-6pages.pdf")))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: shelf.path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
        #expect(lectern.wait { lectern.status.hasPendingFileChanges })
        lectern.advance(by: 0.3)  // a pause shorter than the quiet period: nothing is read yet
        #expect(lectern.status.documentReloads == 0)
        #expect(lectern.status.documentReloadError == nil, "half a file was not tried")
        try handle.write(contentsOf: bytes.suffix(from: bytes.count / 2))
        try handle.close()
        #expect(letReloadHappen(lectern))
        #expect(lectern.status.documentReloads == 1)
        #expect(lectern.status.document == .open(pageCount: 6))
        #expect(lectern.dominantPage == 6, "the new version has no page 7 (the start page too): its last page")
        try lectern.stop()
    }

    @Test("a replacement that is truncated, encrypted, not a PDF, or deleted leaves the old document on screen")
    func brokenReplacementKeepsTheOld() throws {
        let shelf = try Shelf()
        let lectern = try KioskHarness([shelf.path, "--page", "3"])
        #expect(lectern.settle())
        var page = 3
        for broken in ["truncated.pdf", "encrypted.pdf", "not-a-pdf.pdf"] {
            try shelf.replace(with: broken)
            #expect(letReloadHappen(lectern))
            #expect(lectern.status.documentReloads == 0, "\(broken) is not shown")
            #expect(lectern.status.documentReloadError != nil, "\(broken): why is logged")
            #expect(lectern.status.document == .open(pageCount: 8))
            #expect(lectern.page(atX: 500, y: 360) == page, "\(broken): the old page is on screen")
            // The old document is still open (its file is gone): a page it never drew renders.
            lectern.tap(x: 1240, y: 360)
            page += 1
            #expect(lectern.waitForPage(page))
            #expect(lectern.page(atX: 500, y: 360) == page, "\(broken): the old document renders page \(page)")
        }
        #expect(lectern.status.documentReloadRefusals == 3, "each broken version was refused")
        try FileManager.default.removeItem(atPath: shelf.path)
        #expect(letReloadHappen(lectern))
        #expect(lectern.page(atX: 500, y: 360) == page, "deleted: the last good version stays")
        try shelf.replace(with: "letter-6pages.pdf")
        #expect(letReloadHappen(lectern))
        #expect(lectern.status.documentReloads == 1, "the next good version is shown")
        #expect(lectern.status.document == .open(pageCount: 6))
        try lectern.stop()
    }
}
