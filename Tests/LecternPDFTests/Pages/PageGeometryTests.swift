import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Page info read from page objects (no page loading), against the same values read by loading the page.
@Suite struct PageGeometryTests {
    static let fixtures: [(String, String?)] = [
        (Fixture.text3Pages, nil), (Fixture.path("rtl.pdf"), nil), (Fixture.path("truncated.pdf"), nil),
        (Fixture.path("bad-xref.pdf"), nil), (Fixture.path("damaged-page.pdf"), nil),
        (Fixture.path("encrypted.pdf"), "lectern-user"), (Fixture.path("boxes.pdf"), nil),
        (Fixture.path("labels.pdf"), nil), (Fixture.sample, nil),
    ]

    @Test(arguments: fixtures)
    func sameAsLoadingThePage(path: String, password: String?) throws {
        let document = try PDFDocument(path: path, password: password)
        for index in 0..<document.pageCount {
            let info = try document.pageInfo(at: index)
            let loaded = try document.pageInfoByLoadingForTesting(at: index)
            // fz_bound_page of the loaded page is what rendering covers.
            #expect(info.displaySize == loaded.displaySize, "\(path) page \(index + 1)")
            #expect(info.rotation == loaded.rotation, "\(path) page \(index + 1)")
            if path != Fixture.path("boxes.pdf") {
                // boxes.pdf has the inverted boxes the old reading did not normalise.
                #expect(info == loaded, "\(path) page \(index + 1)")
            }
        }
    }

    @Test func inheritedInvertedCroppedRotatedAndUserUnit() throws {
        let document = try PDFDocument(path: Fixture.path("boxes.pdf"))
        let infos = try (0..<6).map { index throws(PDFError) in try document.pageInfo(at: index) }
        // Inherits /MediaBox [0 0 400 300] and /Rotate 270 from the page tree.
        #expect(infos[0].mediaBox == Rect(corner: Point(x: 0, y: 0), corner: Point(x: 400, y: 300)))
        #expect(infos[0].rotation == 270)
        #expect(infos[0].displaySize == Size(width: 300, height: 400))
        // /MediaBox [500 700 100 100] normalised; /CropBox [50 50 300 900] clipped to it.
        #expect(infos[1].mediaBox == Rect(corner: Point(x: 100, y: 100), corner: Point(x: 500, y: 700)))
        #expect(infos[1].cropBox == Rect(corner: Point(x: 100, y: 100), corner: Point(x: 300, y: 700)))
        #expect(infos[1].displaySize == Size(width: 200, height: 600))
        #expect(infos[2].rotation == 270)  // /Rotate -90
        #expect(infos[2].displaySize == Size(width: 842, height: 595))
        #expect(infos[3].rotation == 90)  // /Rotate 450
        #expect(infos[4].rotation == 180)
        #expect(infos[4].cropBox == Rect(corner: Point(x: 10, y: 20), corner: Point(x: 210, y: 320)))
        #expect(infos[4].displaySize == Size(width: 200, height: 300))
        // /UserUnit 2: the boxes stay in user space, the shown size doubles (as fz_bound_page says).
        #expect(infos[5].mediaBox == Rect(corner: Point(x: 0, y: 0), corner: Point(x: 595, y: 842)))
        #expect(infos[5].displaySize == Size(width: 1190, height: 1684))
        // What is rendered has the size page info promises.
        let bitmap = try Bitmap.renderPage(document, page: 1, scale: 0.5)
        #expect(bitmap.width == 100 && bitmap.height == 300)
    }

    @Test func bulkInfosEqualSingleInfos() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let bulk = try document.pageInfos(in: 0..<document.pageCount).map { try $0.get() }
        let single = try (0..<document.pageCount).map { index throws(PDFError) in try document.pageInfo(at: index) }
        #expect(bulk == single)
        #expect(bulk.count == 9)
        #expect(try document.pageInfos(in: 3..<3).isEmpty)
        #expect(try document.pageInfos(in: 8..<9).map { try $0.get() } == [single[8]])
        for range in [-1..<2, 0..<10, 9..<10] {
            let error = try #require(throws: PDFError.self) { try document.pageInfos(in: range) }
            #expect(error.kind == .pageOutOfRange)
        }
    }

    @Test func pageTreeChangesNoInfoAndNoPixel() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let before = try document.pageInfos(in: 0..<9).map { try $0.get() }
        let pixelsBefore = try Bitmap.renderPage(document, page: 6, scale: 0.3)
        #expect(document.loadPageTree())
        #expect(document.loadPageTree())  // idempotent
        #expect(try document.pageInfos(in: 0..<9).map { try $0.get() } == before)
        // Recording page 8 now finds the page through the page map.
        let fresh = try PDFDocument(path: Fixture.sample)
        #expect(try Bitmap.renderPage(document, page: 8, scale: 0.3) == Bitmap.renderPage(fresh, page: 8, scale: 0.3))
        #expect(try Bitmap.renderPage(document, page: 6, scale: 0.3).differingPixels(from: pixelsBefore) == 0)
    }

    @Test func loadPageTreeFromManyThreadsAtOnce() throws {
        let document = try PDFDocument(path: Fixture.path("labels.pdf"))
        let reference = try document.pageInfos(in: 0..<12).map { try $0.get() }
        let results = Locked<[[PageInfo]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            _ = document.loadPageTree()
            let infos = (0..<12).compactMap { try? document.pageInfo(at: ($0 + worker) % 12) }
            results.withLock { $0.append(infos.sorted { $0.index < $1.index }) }
        }
        #expect(results.withLock { $0 } == Array(repeating: reference, count: 4))
    }

    /// Reads all 15,000 page infos without and with the page tree, and prints the times (not asserted).
    @Test func fifteenThousandPageInfos() throws {
        let path = try Fixture.text15000Pages()
        let clock = ContinuousClock()
        let slow = try PDFDocument(path: path)
        #expect(slow.pageCount == 15_000)
        var infosWithoutTree: [PageInfo] = []
        let withoutTree = try clock.measure {
            infosWithoutTree = try slow.pageInfos(in: 0..<15_000).map { try $0.get() }
        }
        let fast = try PDFDocument(path: path)
        let treeTime = clock.measure { #expect(fast.loadPageTree()) }
        var infosWithTree: [PageInfo] = []
        let withTree = try clock.measure {
            infosWithTree = try fast.pageInfos(in: 0..<15_000).map { try $0.get() }
        }
        var singles: [PageInfo] = []
        let singlesTime = try clock.measure {
            singles = try (0..<15_000).map { index throws(PDFError) in try fast.pageInfo(at: index) }
        }
        print(
            "15000 page infos: without page tree \(withoutTree), pdf_load_page_tree \(treeTime),"
                + " with page tree \(withTree) (bulk), \(singlesTime) (one call per page)")
        #expect(infosWithTree == infosWithoutTree)
        #expect(singles == infosWithTree)
        #expect(infosWithTree.allSatisfy { $0.displaySize == Size(width: 595, height: 842) && $0.label == nil })
        #expect(infosWithTree.map(\.index) == Array(0..<15_000))
        // The last page renders the same through the page map as through the tree walk.
        let footer = PixelBox(x: 0, y: 760, width: 595, height: 82)
        let last = try Bitmap.render(fast, page: 14_999, scale: 1, region: footer)
        #expect(last.darkPixels(in: last.fullRect) > 20)  // the page number "15000"
        #expect(try Bitmap.render(slow, page: 14_999, scale: 1, region: footer) == last)
    }

    @Test func pageInfoOfADamagedPageDoesNotNeedItsContent() throws {
        let document = try PDFDocument(path: Fixture.path("damaged-page.pdf"))
        // Page 2's content makes MuPDF throw, but its geometry is intact.
        let info = try document.pageInfo(at: 1)
        #expect(info.displaySize == Size(width: 842, height: 595))
        #expect(try document.pageInfos(in: 0..<3).allSatisfy { (try? $0.get()) != nil })
    }
}

/// A value shared by concurrent workers.
final class Locked<Value>: @unchecked Sendable {
    // Sendable: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
