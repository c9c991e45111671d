import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// One document rendered from several threads: rasterization runs outside the document lock.
@Suite struct ParallelRenderTests {
    struct Tile: Sendable {
        let page: Int
        let region: PixelBox
    }

    /// 64 tiles of 160x160 over pages 1–4 of the sample at scale 1.25.
    static let tiles: [Tile] = (0..<4).flatMap { page in
        (0..<16).map { i in
            Tile(page: page, region: PixelBox(x: (i % 4) * 160, y: (i / 4) * 160 + 40, width: 160, height: 160))
        }
    }

    @Test func tilesFromFourThreadsEqualSerialTiles() throws {
        let serial = try Self.tiles.map { tile throws(PDFError) in
            try Bitmap.render(PDFDocument(path: Fixture.sample), page: tile.page, scale: 1.25, region: tile.region)
        }
        #expect(serial.filter { $0.darkPixels(in: $0.fullRect) > 0 }.count > 20)  // the tiles are not blank
        // A fresh document: the workers also race to record the display lists.
        let document = try PDFDocument(path: Fixture.sample)
        let results = Locked<[Int: Bitmap]>([:])
        let failures = Locked<[PDFError]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            // Each worker takes every tile, in its own order, so pages are hit concurrently.
            for step in 0..<Self.tiles.count {
                let i = (step * 5 + worker * 16) % Self.tiles.count
                do throws(PDFError) {
                    let bitmap = try Bitmap.render(
                        document, page: Self.tiles[i].page, scale: 1.25, region: Self.tiles[i].region)
                    results.withLock { $0[i * 4 + worker] = bitmap }
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let got = results.withLock { $0 }
        #expect(got.count == Self.tiles.count * 4)
        for (key, bitmap) in got {
            #expect(bitmap.differingPixels(from: serial[key / 4]) == 0, "tile \(key / 4) worker \(key % 4)")
        }
    }

    @Test func cachedPageRastersWhileTheDocumentLockIsHeld() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let region = PixelBox(x: 0, y: 0, width: 300, height: 300)
        let reference = try Bitmap.render(document, page: 1, scale: 1, region: region)  // records page 2
        // The render needs only its own context and the cached list, so it ends while the lock is held.
        let (finished, result) = Self.renderHoldingTheDocumentLock(document, page: 1, region: region, timeout: 60)
        #expect(finished)
        #expect(try result?.get().differingPixels(from: reference) == 0)
    }

    /// Renders `region` of `page` at scale 1 on another thread while this one holds the document
    /// lock, waiting at most `timeout` seconds for it while the lock is held.
    /// - Returns: whether the render ended while the lock was held, and what it rendered.
    static func renderHoldingTheDocumentLock(
        _ document: PDFDocument, page: Int, region: PixelBox, timeout: Double
    ) -> (finished: Bool, result: Result<Bitmap, PDFError>?) {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<Bitmap, PDFError>?>(nil)
        let finished = document.withDocumentLockHeldForTesting {
            Thread.detachNewThread {
                let outcome = Result { () throws(PDFError) in
                    try Bitmap.render(document, page: page, scale: 1, region: region)
                }
                result.withLock { $0 = outcome }
                done.signal()
            }
            return done.wait(timeout: .now() + timeout) == .success
        }
        if !finished { done.wait() }
        return (finished, result.withLock { $0 })
    }

    /// `prepare(page:)` does the interpreting, so the page's first render only rasterizes: it
    /// needs no document lock, as for a page rendered before.
    @Test func aPreparedPageRastersWhileTheDocumentLockIsHeld() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let region = PixelBox(x: 0, y: 0, width: 300, height: 300)
        try document.prepare(page: 1)
        let (finished, result) = Self.renderHoldingTheDocumentLock(document, page: 1, region: region, timeout: 10)
        #expect(finished, "the render waited for the document lock: prepare(page:) kept no display list")
        let reference = try Bitmap.render(PDFDocument(path: Fixture.sample), page: 1, scale: 1, region: region)
        #expect(try result?.get().differingPixels(from: reference) == 0)
        #expect(throws: PDFError.self) { try document.prepare(page: document.pageCount) }
    }

    @Test func cancelWhileWaitingForTheDocumentLockReturnsPromptly() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let cookie = RenderCookie()
        let done = DispatchSemaphore(value: 0)
        let result = Locked<PDFError.Kind?>(nil)
        let clock = ContinuousClock()
        let (finishedWhileHeld, afterCancel) = document.withDocumentLockHeldForTesting {
            Thread.detachNewThread {
                // Page 3 is not recorded yet: the render must wait for the document lock.
                let (_, failure) = Bitmap.renderKeepingPixels(
                    document, page: 2, scale: 1, region: PixelBox(x: 0, y: 0, width: 64, height: 64), cookie: cookie)
                result.withLock { $0 = failure?.kind }
                done.signal()
            }
            // Still waiting: it cannot record without the lock.
            let early = done.wait(timeout: .now() + 0.2) == .success
            #expect(!early)
            let cancelledAt = clock.now
            cookie.cancel()
            let finished = done.wait(timeout: .now() + 30) == .success
            return (finished, clock.now - cancelledAt)
        }
        if !finishedWhileHeld { done.wait() }
        print("cancelled render waiting for the document lock returned \(afterCancel) after cancel()")
        #expect(finishedWhileHeld)
        #expect(result.withLock { $0 } == .cancelled)
        // The document is fine afterwards.
        _ = try Bitmap.render(document, page: 2, scale: 0.5, region: PixelBox(x: 0, y: 0, width: 64, height: 64))
    }

    @Test func cancelDuringABigRenderReturnsPromptly() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let info = try document.pageInfo(at: 3)  // the landscape chart page
        // At scale 8 the page is 6736 × 4760 px: far longer to draw than it takes to cancel it.
        let scale = 8.0
        let (width, height) = info.pixelSize(scale: scale)
        let clock = ContinuousClock()
        let cookie = RenderCookie()
        let cancelledAt = Locked<ContinuousClock.Instant?>(nil)
        // Cancels once the render is drawing (MuPDF counts display-list items as it runs them).
        Thread.detachNewThread {
            let deadline = clock.now + .seconds(30)
            while cookie.progress == 0 && clock.now < deadline { usleep(200) }
            cancelledAt.withLock { $0 = clock.now }
            cookie.cancel()
        }
        let (_, failure) = Bitmap.renderKeepingPixels(
            document, page: 3, scale: scale, region: PixelBox(x: 0, y: 0, width: width, height: height), cookie: cookie
        )
        let returned = clock.now
        let cancelled = try #require(cancelledAt.withLock { $0 }, "the render finished before it was cancelled")
        #expect(
            failure?.kind == .cancelled,
            "a render cancelled while drawing ends as cancelled, not \(String(describing: failure))")
        // MuPDF checks the cookie between display-list items: measured 20–48 ms for this page.
        let lag = returned - cancelled
        #expect(lag < .milliseconds(500), "the render returned \(lag) after cancel()")
    }

    @Test func cachedReplayEqualsTheRecordingRenderAfterEviction() throws {
        // sample.pdf has 9 pages, one more than the 8 cached display lists.
        let document = try PDFDocument(path: Fixture.sample)
        let first = try Bitmap.renderPage(document, page: 0, scale: 0.4)  // records
        let replay = try Bitmap.renderPage(document, page: 0, scale: 0.4)  // from the cache
        for index in 1..<9 { _ = try Bitmap.renderPage(document, page: index, scale: 0.1) }  // evicts page 1
        let again = try Bitmap.renderPage(document, page: 0, scale: 0.4)  // records again
        #expect(first.darkPixels(in: first.fullRect) > 500)
        #expect(replay.differingPixels(from: first) == 0)
        #expect(again.differingPixels(from: first) == 0)
    }
}
