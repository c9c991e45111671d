import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Rendering real pages: what a user would see on the screen.
@Suite struct RenderTests {
    @Test func firstPageShowsDarkTextOnWhite() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let bitmap = try Bitmap.renderPage(document, page: 0, scale: 1)
        #expect(bitmap.width == 595 && bitmap.height == 842)
        // "Page One", 72 pt, baseline 700 pt from the bottom: rows ~90..142 from the top.
        let textBand = PixelBox(x: 60, y: 85, width: 300, height: 60)
        #expect(bitmap.darkPixels(in: textBand) > 2000)
        // The lower half has no text: white, opaque.
        let empty = PixelBox(x: 0, y: 450, width: 595, height: 392)
        #expect(bitmap.darkPixels(in: empty) == 0)
        let (b, g, r, a) = bitmap.pixel(10, 800)
        #expect([b, g, r, a] == [255, 255, 255, 255])
    }

    @Test func rotatedPageIsDrawnRotated() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let bitmap = try Bitmap.renderPage(document, page: 2, scale: 1)
        #expect(bitmap.width == 842 && bitmap.height == 595)
        // /Rotate 90 turns the text line (near the top of the unrotated page) into a column near the right edge.
        #expect(bitmap.darkPixels(in: PixelBox(x: 640, y: 0, width: 202, height: 595)) > 2000)
        #expect(bitmap.darkPixels(in: PixelBox(x: 0, y: 0, width: 600, height: 595)) == 0)
    }

    @Test func regionEqualsTheSamePixelsOfAFullRender() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let scale = 0.75
        let full = try Bitmap.renderPage(document, page: 0, scale: scale)
        let region = PixelBox(x: 37, y: 51, width: 211, height: 97)
        let tile = try Bitmap.render(document, page: 0, scale: scale, region: region, padding: 12)
        #expect(tile.darkPixels(in: tile.fullRect) > 100)  // the region holds text, so the comparison means something
        let differing = zip(tile.crop(tile.fullRect).chunks4, full.crop(region).chunks4).filter { $0.0 != $0.1 }.count
        #expect(tile.crop(tile.fullRect).count == full.crop(region).count)
        #expect(differing == 0)
    }

    @Test func regionBeyondThePageIsWhite() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let tile = try Bitmap.render(
            document, page: 0, scale: 1, region: PixelBox(x: 700, y: 900, width: 16, height: 16))
        #expect(tile.crop(tile.fullRect).filter { $0 != 255 }.count == 0)
    }

    @Test func damagedPageIsARenderErrorNotACrash() throws {
        let path = Fixture.path("damaged-page.pdf")
        let document = try PDFDocument(path: path)
        #expect(document.pageCount == 3)
        let error = try #require(throws: PDFError.self) { try Bitmap.renderPage(document, page: 1, scale: 0.5) }
        #expect(error.kind == .renderFailed)
        #expect(error.message == "cannot render page 2 of \(path): image width is zero (or less)")
        // The other pages of the same document still render.
        let page1 = try Bitmap.renderPage(document, page: 0, scale: 0.5)
        #expect(page1.darkPixels(in: page1.fullRect) > 500)
    }

    @Test func skippedGarbageIsAnIncompleteRenderWithTheRestDrawn() throws {
        let path = Fixture.path("damaged-page.pdf")
        let document = try PDFDocument(path: path)
        let size = try document.pageInfo(at: 2).pixelSize(scale: 1)
        let (bitmap, failure) = Bitmap.renderKeepingPixels(
            document, page: 2, scale: 1, region: PixelBox(x: 0, y: 0, width: size.width, height: size.height))
        let error = try #require(failure)
        #expect(error.kind == .renderIncomplete)
        #expect(error.message == "page 3 of \(path) is damaged and is drawn incomplete: 2 error(s) in the page content")
        // The text before the garbage is there, rotated like the intact page 3 of text-3pages.pdf.
        #expect(bitmap.darkPixels(in: PixelBox(x: 640, y: 0, width: 202, height: 595)) > 2000)
    }

    @Test func incompleteRenderIsReportedAgainFromTheCachedDisplayList() throws {
        let document = try PDFDocument(path: Fixture.path("damaged-page.pdf"))
        let region = PixelBox(x: 0, y: 0, width: 64, height: 64)
        for _ in 0..<3 {
            let (_, failure) = Bitmap.renderKeepingPixels(document, page: 2, scale: 0.5, region: region)
            #expect(failure?.kind == .renderIncomplete)
            #expect(failure?.message.hasSuffix("2 error(s) in the page content") == true)
        }
    }

    @Test func rendersAreIdenticalAfterTheDisplayListCacheEvicts() throws {
        // truncated.pdf has 6 pages; the cache holds 8, so this checks recording against replaying
        // (ParallelRenderTests checks eviction on the 9-page sample).
        let document = try PDFDocument(path: Fixture.path("truncated.pdf"))
        let first = try Bitmap.renderPage(document, page: 0, scale: 0.5)
        for index in 1..<document.pageCount {
            _ = try Bitmap.renderPage(document, page: index, scale: 0.25)
        }
        let again = try Bitmap.renderPage(document, page: 0, scale: 0.5)
        #expect(first.darkPixels(in: first.fullRect) > 500)
        #expect(again.differingPixels(from: first) == 0)
        // Another scale of the same cached page is a different picture of the same page.
        let smaller = try Bitmap.renderPage(document, page: 0, scale: 0.25)
        #expect(smaller.width == 149 && smaller.height == 211)
    }

    @Test func cancelledCookieGivesCancelled() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let cookie = RenderCookie()
        #expect(!cookie.isCancelled)
        cookie.cancel()
        #expect(cookie.isCancelled)
        let error = try #require(throws: PDFError.self) {
            try Bitmap.render(
                document, page: 0, scale: 1, region: PixelBox(x: 0, y: 0, width: 100, height: 100), cookie: cookie)
        }
        #expect(error.kind == .cancelled)
        // A fresh cookie renders.
        _ = try Bitmap.render(
            document, page: 0, scale: 1, region: PixelBox(x: 0, y: 0, width: 100, height: 100),
            cookie: RenderCookie())
    }

    @Test func cancelFromAnotherThreadStopsTheRenders() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let cookie = RenderCookie()
        // A real thread: the cooperative pool may be busy with other tests on two cores. It
        // cancels once a render with the cookie has succeeded, while the next ones run.
        let rendered = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            rendered.wait()
            cookie.cancel()
            cancelled.signal()
        }
        var renders = 0
        var outcome: PDFError.Kind?
        // Until the cancel arrives (20 s at most, so a cookie that is not looked at fails).
        let deadline = ContinuousClock.now + .seconds(20)
        while outcome == nil, ContinuousClock.now < deadline {
            do throws(PDFError) {
                _ = try Bitmap.renderPage(document, page: 0, scale: 2, cookie: cookie)
                renders += 1
                if renders == 1 { rendered.signal() }
            } catch {
                outcome = error.kind
            }
        }
        #expect(cancelled.wait(timeout: .now() + 20) == .success)
        #expect(renders >= 1, "the cookie rendered until it was cancelled")
        #expect(outcome == .cancelled)
    }

    @Test func invalidArgumentsAreErrors() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        var byte: UInt8 = 0
        let error = try #require(throws: PDFError.self) {
            try document.render(
                page: 0, scale: 1, region: PixelBox(x: 0, y: 0, width: 10, height: 10), into: &byte, stride: 8)
        }
        #expect(error.kind == .renderFailed)
        let outOfRange = try #require(throws: PDFError.self) {
            try document.render(
                page: 3, scale: 1, region: PixelBox(x: 0, y: 0, width: 1, height: 1), into: &byte, stride: 4)
        }
        #expect(outOfRange.kind == .pageOutOfRange)
    }

    @Test func concurrentRendersOfTwoDocumentsMatchSerialRenders() throws {
        let documents = [try PDFDocument(path: Fixture.text3Pages), try PDFDocument(path: Fixture.path("rtl.pdf"))]
        let pages = [[0, 1, 2], [0]]
        var serial: [[Bitmap]] = []
        for (document, indices) in zip(documents, pages) {
            var bitmaps: [Bitmap] = []
            for index in indices {
                bitmaps.append(try Bitmap.renderPage(document, page: index, scale: 0.6))
            }
            serial.append(bitmaps)
        }
        let results = ResultBox(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            var bitmaps: [Bitmap] = []
            for _ in 0..<5 {
                for index in pages[worker] {
                    if let bitmap = try? Bitmap.renderPage(documents[worker], page: index, scale: 0.6) {
                        bitmaps.append(bitmap)
                    }
                }
            }
            results.set(worker, bitmaps)
        }
        for worker in 0..<2 {
            let got = results.get(worker)
            #expect(got.count == 5 * pages[worker].count)
            for (i, bitmap) in got.enumerated() {
                #expect(bitmap.differingPixels(from: serial[worker][i % pages[worker].count]) == 0)
            }
        }
    }

    @Test func oneDocumentFromManyThreadsGivesTheSamePixels() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let reference = try Bitmap.renderPage(document, page: 0, scale: 0.4)
        let results = ResultBox(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            results.set(worker, (0..<3).compactMap { _ in try? Bitmap.renderPage(document, page: 0, scale: 0.4) })
        }
        for worker in 0..<4 {
            let got = results.get(worker)
            #expect(got.count == 3)
            #expect(got.map { $0.differingPixels(from: reference) } == [0, 0, 0])
        }
    }
}

/// Results written by concurrent workers.
private final class ResultBox: @unchecked Sendable {
    // Sendable: `slots` is only touched with `lock` held.
    private let lock = NSLock()
    private var slots: [[Bitmap]]

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ index: Int, _ value: [Bitmap]) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    func get(_ index: Int) -> [Bitmap] {
        lock.lock()
        defer { lock.unlock() }
        return slots[index]
    }
}
