import Foundation
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import LecternTestSupport
import Logging
import Testing

@testable import LecternDocuments

/// Tiles asked in batches (`TileBatch`): one request, each tile answered as it is drawn, through
/// the render worker and through the direct transport alike.
@Suite("Document service: tiles in batches")
struct RenderProcessBatchTests {
    static let path = RenderWorkerTests.fixtures.appendingPathComponent("text-3pages.pdf").path

    /// A worker for text-3pages.pdf whose renders each wait `delay` ms first, and for which a
    /// render of page `crashPage` (0-based) crashes it.
    static func worker(delay: Int = 0, crashPage: Int = -1, channels: Int = 2) throws -> RenderProcess {
        var settings = RenderProcess.Settings(
            executable: try LecternProcess.lecternExecutable().path, documentPath: path, password: nil, startPage: 0,
            channels: channels, addressSpace: 2048 << 20)
        settings.renderDelayMilliseconds = delay
        settings.crashPage = crashPage
        return try RenderProcess(settings: settings, logger: Logger(label: "test"))
    }

    static func transport(_ way: String) throws -> any DocumentTransport {
        way == "worker"
            ? try worker()
            : DirectTransport(documentPath: path, password: nil, startPage: 0, logger: Logger(label: "test"))
    }

    /// A tile of a page of text-3pages.pdf drawn 4× (2380 × 3368 px: a grid of 10 × 14 tiles).
    static func tile(_ column: Int, _ row: Int, page: Int = 0) -> TileKey {
        TileKey(page: page, pageWidth: 2380, pageHeight: 3368, kind: .tile(column: column, row: row))
    }

    /// What `deliver` was given, in order: each tile's index and pixels (nil: no image).
    final class Arrivals: @unchecked Sendable {
        // Sendable: used on the test's thread.
        var tiles: [(index: Int, pixels: [UInt8]?)] = []
        func deliver(_ index: Int, _ content: TileContent?) {
            tiles.append((index, DirectTransportTests.pixels(content)))
        }
    }

    /// What arrived of `keys` asked of `client`, every tile cancelled as the first arrived.
    static func cancelledAsTheFirstArrives(_ keys: [TileKey], of client: ShownDocument) -> Arrivals {
        let cookies = keys.map { _ in RenderCookie() }
        let arrivals = Arrivals()
        client.renderTiles(keys, cookies: cookies) { index, content in
            if index == 0 { cookies.forEach { $0.cancel() } }
            arrivals.deliver(index, content)
        }
        return arrivals
    }

    @Test(
        "a batch's tiles each arrive, in order, with the pixels of single requests",
        arguments: ["worker", "in process"])
    func tilesArriveInOrder(way: String) throws {
        let document = try PDFDocument(path: Self.path)
        let transport = try Self.transport(way)
        defer { (transport as? RenderProcess)?.stop() }
        let client = try ShownDocument.open(transport)
        // Four that fit one batch (the third is the page's corner: 76 × 40 px), a whole page too
        // big for one (it goes alone), then two more.
        let keys = [
            Self.tile(1, 1), Self.tile(2, 1), Self.tile(9, 13), Self.tile(3, 2),
            TileKey(page: 1, pageWidth: 1190, pageHeight: 1684, kind: .preview), Self.tile(0, 1, page: 1),
            Self.tile(5, 1, page: 1),
        ]
        #expect(TileBatch(packing: keys[...]).tiles.map(\.key) == Array(keys[0..<4]))
        let arrivals = Arrivals()
        client.renderTiles(keys, cookies: keys.map { _ in RenderCookie() }, deliver: arrivals.deliver)
        #expect(arrivals.tiles.map(\.index) == Array(keys.indices), "each once, in order")
        #expect(Set(arrivals.tiles.compactMap(\.pixels)).count == keys.count, "tiles that differ: an order shows")
        for (index, pixels) in arrivals.tiles {
            let key = keys[index]
            let single = DirectTransportTests.pixels(client.renderTile(key, cookie: RenderCookie()))
            #expect(pixels != nil && pixels == single, "\(key) as a single request draws it")
            #expect(pixels == DirectTransportTests.pixels(TileContent.render(key, of: document)), "\(key)")
        }

        // The first four went in one request, answered one by one.
        let batch = TileBatch(packing: keys[...])
        var read: [Int] = []
        let answered = transport.exchangeBatch(
            ShownDocument.encode(.renderBatch(batch)), batch: batch, cookies: batch.tiles.map { _ in RenderCookie() }
        ) { index, _, _ in read.append(index) }
        #expect(answered == 4 && read == [0, 1, 2, 3])
    }

    @Test("a cancelled batch stops between tiles: the tiles after the cancel are not drawn (worker)")
    func cancelledBatchInTheWorker() throws {
        // Each render waits 300 ms first, and a render of page 3 crashes the worker: the batch
        // is cancelled as its first tile arrives, while the second is under way; the third and
        // fourth (page 3) are skipped, so the worker lives.
        let worker = try Self.worker(delay: 300, crashPage: 2)
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        let pid = try #require(worker.status.pid)
        let keys = [Self.tile(1, 1), Self.tile(2, 1), Self.tile(1, 1, page: 2), Self.tile(2, 1, page: 2)]
        let arrivals = Self.cancelledAsTheFirstArrives(keys, of: client)
        #expect(arrivals.tiles.map(\.index) == [0, 1, 2, 3])
        #expect(arrivals.tiles[0].pixels != nil, "the first tile was drawn before the cancel")
        #expect(arrivals.tiles[2].pixels == nil && arrivals.tiles[3].pixels == nil)
        let status = worker.status
        #expect(status.restarts == 0 && status.pid == pid, "page 3 was never drawn: the worker lives")
        #expect(status.failedPages.isEmpty)
    }

    @Test("in process, the tiles of a batch after its cancel come back without pixels")
    func cancelledBatchInProcess() throws {
        let client = try ShownDocument.open(try Self.transport("in process"))
        let keys = [Self.tile(1, 1), Self.tile(2, 1), Self.tile(3, 1), Self.tile(4, 1)]
        let arrivals = Self.cancelledAsTheFirstArrives(keys, of: client)
        #expect(arrivals.tiles.map(\.index) == [0, 1, 2, 3])
        #expect(arrivals.tiles.map { $0.pixels != nil } == [true, false, false, false])
    }

    @Test(
        "a tile of a batch the worker cannot draw as asked fails and ends the batch; the channel answers the next request"
    )
    func tileThatCannotBeDrawnEndsTheBatch() throws {
        let document = try PDFDocument(path: Self.path)
        // One channel: the next request goes where the batch went.
        let worker = try Self.worker(channels: 1)
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        let keys = [Self.tile(1, 1), Self.tile(2, 1), Self.tile(3, 1)]
        var batch = TileBatch(packing: keys[...])
        batch.tiles[1].stride = 4  // narrower than its rows
        var answers: [DocumentResponse] = []
        let answered = worker.exchangeBatch(
            ShownDocument.encode(.renderBatch(batch)), batch: batch, cookies: keys.map { _ in RenderCookie() }
        ) { _, answer, _ in answers.append(ShownDocument.decode(answer)) }
        #expect(answered == 2, "the tile after the failure is left to be asked alone")
        #expect(answers.first == .drawn(.drawn(isDamaged: false)))
        guard case .failed(let reason)? = answers.last else {
            Issue.record("the tile drawn narrower than its rows was answered \(answers)")
            return
        }
        #expect(reason.contains("does not fit"), "\(reason)")
        // The channel's next answers are those of the next requests (no answer of the batch is
        // left to be read in their place).
        let next = Self.tile(4, 1)
        let pixels = try #require(DirectTransportTests.pixels(TileContent.render(next, of: document)))
        #expect(DirectTransportTests.pixels(client.renderTile(next, cookie: RenderCookie())) == pixels)
        let text = try #require(client.readPageText(pages: [0])[0])
        let blocks = try document.textBlocks(page: 0)
        #expect(!blocks.isEmpty && text.blocks == blocks)
    }

    @Test("a worker killed in the middle of a batch: the tiles after it come from a new worker; the page is not blamed")
    func workerKilledMidBatch() throws {
        let document = try PDFDocument(path: Self.path)
        // Each render waits 300 ms first: the kill comes while the third tile is under way.
        let worker = try Self.worker(delay: 300)
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        let pid = try #require(worker.status.pid)
        let keys = [Self.tile(1, 1), Self.tile(2, 1), Self.tile(3, 1), Self.tile(4, 1)]
        let arrivals = Arrivals()
        client.renderTiles(keys, cookies: keys.map { _ in RenderCookie() }) { index, content in
            if index == 1 { kill(pid, SIGKILL) }
            arrivals.deliver(index, content)
        }
        #expect(arrivals.tiles.map(\.index) == [0, 1, 2, 3])
        for (index, pixels) in arrivals.tiles {
            #expect(
                pixels != nil && pixels == DirectTransportTests.pixels(TileContent.render(keys[index], of: document)))
        }
        let status = worker.status
        #expect(status.restarts == 1, "one new worker")
        #expect(status.pid != nil && status.pid != pid)
        #expect(status.failedPages.isEmpty, "the page was not the worker's fault")
        #expect(status.tilesDrawn == 4)
    }
}
