import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Issue 10: page trees whose /Count entries lie (Tests/Fixtures/make-count-fixtures). Every
/// fixture holds the same 8 pages, page n filled with colour n, so a rendered pixel tells which
/// page a lookup found.
@Suite("Page counts that lie")
struct PageCountTests {
    /// The colours of the 8 pages, page 1 first (Tests/Fixtures/make-fixtures).
    static let colors: [UInt32] = [
        0xE53935, 0x1E88E5, 0x43A047, 0xFDD835, 0x8E24AA, 0xFB8C00, 0x00ACC1, 0x6D4C41,
    ]

    /// Which page (1-based) `index` shows, by the colour of a pixel away from its white number.
    static func shownPage(_ document: PDFDocument, _ index: Int) throws -> Int? {
        let bitmap = try Bitmap.renderPage(document, page: index, scale: 0.1)
        let (b, g, r, _) = bitmap.pixel(3, 3)
        return colors.firstIndex { color in
            abs(Int(color >> 16 & 0xFF) - Int(r)) <= 6 && abs(Int(color >> 8 & 0xFF) - Int(g)) <= 6
                && abs(Int(color & 0xFF) - Int(b)) <= 6
        }.map { $0 + 1 }
    }

    /// Every page shows its own colour, and there is no page past the 8th.
    static func expectEightPagesInOrder(_ document: PDFDocument) throws {
        #expect(document.pageCount == 8)
        for index in 0..<8 { #expect(try shownPage(document, index) == index + 1, "page \(index + 1)") }
        let error = try #require(throws: PDFError.self) { try document.pageInfo(at: 8) }
        #expect(error.kind == .pageOutOfRange)
    }

    @Test func anHonestTreeIsReadAsItIs() throws {
        let document = try PDFDocument(path: Fixture.path("count-honest.pdf"))
        #expect(document.pageCount == 8 && document.claimedPageCount == 8)
        #expect(try document.readPageTree() == PageTree(pageCount: 8, skippedKids: 0))
        try Self.expectEightPagesInOrder(document)
    }

    @Test(
        "a count no file of this size could hold is not believed: the tree is walked at open",
        arguments: [
            ("count-root-lie.pdf", 1_410_065_407),
            // 9,999,999,999 does not fit MuPDF's int (it reads 1,410,065,407): it is read from the file.
            ("count-root-overflow.pdf", 9_999_999_999),
            // 2^32 + 4 would wrap to a believable 4: a count that does not fit is a lie all the same.
            ("count-root-wrapped.pdf", 4_294_967_300),
            // The same, its digits read from a compressed object stream.
            ("count-root-wrapped-objstm.pdf", 4_294_967_300),
        ])
    func unbelievableCountsAreWalkedAtOpen(file: String, claimed: Int) throws {
        let document = try PDFDocument(path: Fixture.path(file))
        #expect(document.claimedPageCount == claimed)
        #expect(document.pageCount == 8, "the real count from the start, before anything is laid out")
        try Self.expectEightPagesInOrder(document)
        #expect(try document.readPageTree() == PageTree(pageCount: 8, skippedKids: 0))
    }

    @Test func lyingIntermediateNodesDoNotMisplacePages() throws {
        let document = try PDFDocument(path: Fixture.path("count-intermediate-lie.pdf"))
        // 20 is believable for the file's size: it stands until the tree is walked.
        #expect(document.pageCount == 20 && document.claimedPageCount == 20)
        // MuPDF's own lookup descends by /Count: the first node claims 60 pages, so page 4 would
        // be looked for there, and missed. Lookups walk the tree instead, even before it is read.
        #expect(try Self.shownPage(document, 3) == 4)
        #expect(try document.readPageTree() == PageTree(pageCount: 8, skippedKids: 0))
        try Self.expectEightPagesInOrder(document)
    }

    @Test func kidsLoopingBackToAnAncestorAreSkipped() throws {
        let document = try PDFDocument(path: Fixture.path("count-kids-loop.pdf"))
        #expect(document.pageCount == 12)
        #expect(try document.readPageTree() == PageTree(pageCount: 8, skippedKids: 2))
        try Self.expectEightPagesInOrder(document)
        // Asking again walks nothing more.
        #expect(try document.readPageTree() == PageTree(pageCount: 8, skippedKids: 2))
    }

    @Test func aCancelledWalkStopsAndResumesLater() throws {
        let document = try PDFDocument(path: Fixture.path("count-intermediate-lie.pdf"))
        let cookie = RenderCookie()
        cookie.cancel()
        let error = try #require(throws: PDFError.self) { try document.readPageTree(cookie: cookie) }
        #expect(error.kind == .cancelled)
        #expect(document.pageCount == 20, "the claim stands until a walk ends")
        #expect(try document.readPageTree(cookie: RenderCookie()).pageCount == 8)
        #expect(document.pageCount == 8)
    }

    @Test func pageSizesAfterTheWalkComeFromTheRightPages() throws {
        let document = try PDFDocument(path: Fixture.path("count-kids-loop.pdf"))
        _ = try document.readPageTree()
        let infos = try document.pageInfos(in: 0..<document.pageCount).map { try $0.get() }
        #expect(infos.map(\.index) == Array(0..<8))
        #expect(infos.allSatisfy { $0.displaySize == Size(width: 420, height: 595) })
        document.releasePageObjects()
        #expect(try Self.shownPage(document, 7) == 8, "the page map outlives the released objects")
    }

    @Test func theBelievableCountRule() {
        #expect(PDFDocument.isBelievable(claimedPages: 8, fileSize: 3000))
        #expect(PDFDocument.isBelievable(claimedPages: 60, fileSize: 3000))
        #expect(!PDFDocument.isBelievable(claimedPages: 61, fileSize: 3000))
        #expect(!PDFDocument.isBelievable(claimedPages: 0, fileSize: 3000))
        #expect(!PDFDocument.isBelievable(claimedPages: -3, fileSize: 3000))
        #expect(!PDFDocument.isBelievable(claimedPages: Int64(Int32.max) + 1, fileSize: Int64.max))
        #expect(PDFDocument.isBelievable(claimedPages: 15_000, fileSize: 30_000_000))
    }
}
