import Foundation
import LecternCore
import LecternPDF
import LecternRender
import Testing

@Suite("Tile scheduler: batches")
struct TileSchedulerBatchTests {
    /// The batches a render closure was given, in order.
    final class BatchLog: @unchecked Sendable {
        // Sendable: `recorded` is guarded by `lock`.
        private let lock = NSLock()
        private var recorded: [[TileKey]] = []
        func record(_ keys: [TileKey]) { lock.withLock { recorded.append(keys) } }
        var batches: [[TileKey]] { lock.withLock { recorded } }
    }

    @Test(
        "one thread takes the most urgent tiles as one batch, each delivered as soon as it is drawn; a tile of it no longer wanted is not"
    )
    func batchDeliveredTileByTile() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let log = BatchLog()
        let firstDrawn = Gate()
        let keys = (0..<6).map { TileSchedulerTests.key($0) }
        let scheduler = try TileScheduler(workerCount: 1, batchSize: 4) { batch, cookies, deliver in
            log.record(batch)
            for index in batch.indices {
                // The second tile waits until the test has seen the first arrive.
                if batch == Array(keys[0..<4]) && index == 1 { firstDrawn.wait() }
                deliver(index, renderTile(batch[index], of: document, cookie: cookies[index]))
            }
        }
        defer { scheduler.stop() }
        scheduler.setWanted(keys)
        let first = TileSchedulerTests.collect(scheduler, count: 1)
        #expect(first.map(\.0) == [keys[0]], "the first tile arrived while the batch is still drawing")
        #expect(scheduler.isBusy)
        // The view moves on: keys[2], in the batch, is no longer wanted.
        scheduler.setWanted([keys[1], keys[3], keys[4], keys[5]])
        #expect(scheduler.cancelledCount == 1)
        firstDrawn.open()
        let rest = TileSchedulerTests.collect(scheduler, count: 4)
        TileSchedulerTests.waitUntilIdle(scheduler)
        #expect(rest.map(\.0) == [keys[1], keys[3], keys[4], keys[5]], "in order, without keys[2]")
        #expect(log.batches == [Array(keys[0..<4]), [keys[4], keys[5]]], "four at once, then what was left")
        for (key, content) in first + rest {
            guard case .image(let image, false) = content else {
                Issue.record("\(key) did not render: \(content)")
                continue
            }
            let reference = try renderReference(document, page: 0, scale: 3, region: key.rect)
            #expect(memcmp(image.pixels, reference.pixels, image.stride * image.height) == 0, "\(key)")
        }
        #expect(scheduler.drain().isEmpty)
    }

    @Test("two threads share a short queue: each takes part of it, most urgent first")
    func threadsShareTheQueue() throws {
        let log = BatchLog()
        let keys = (0..<5).map { TileSchedulerTests.key($0) }
        let bothStarted = DispatchGroup()
        bothStarted.enter()
        bothStarted.enter()
        let scheduler = try TileScheduler(workerCount: 2, batchSize: 4) { batch, _, deliver in
            log.record(batch)
            if log.batches.count <= 2 {
                // Neither takes another batch before both have theirs.
                bothStarted.leave()
                _ = bothStarted.wait(timeout: .now() + 20)
            }
            for index in batch.indices { deliver(index, .failed("not drawn")) }
        }
        defer { scheduler.stop() }
        scheduler.setWanted(keys)
        let results = TileSchedulerTests.collect(scheduler, count: keys.count)
        TileSchedulerTests.waitUntilIdle(scheduler)
        #expect(Set(results.map(\.0)) == Set(keys))
        let batches = log.batches
        // The threads record their batches in either order.
        #expect(
            Set(batches.prefix(2)) == [Array(keys[0..<3]), [keys[3]]],
            "half the queue rounded up, then half of what was left: \(batches)")
        #expect(batches.dropFirst(2) == [[keys[4]]], "\(batches)")
    }
}
