import Foundation
import LecternCore
import LecternPDF
import LecternRender
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Tile scheduler")
struct TileSchedulerTests {
    /// Whether `fd` is readable within `milliseconds`.
    static func isReadable(_ fd: Int32, within milliseconds: Int32) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&pfd, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n > 0 && pfd.revents & Int16(POLLIN) != 0
        }
    }

    /// Waits on the wake fd as the main loop does and drains until `count` results came (or 20 s passed).
    static func collect(_ scheduler: TileScheduler, count: Int) -> [(TileKey, TileContent)] {
        var results: [(TileKey, TileContent)] = []
        let deadline = Date().addingTimeInterval(20)
        while results.count < count, Date() < deadline {
            guard isReadable(scheduler.wakeDescriptor.rawValue, within: 1000) else { continue }
            results += scheduler.drain()
        }
        return results
    }

    /// Waits until the scheduler has nothing queued or in flight (or 20 s passed).
    static func waitUntilIdle(_ scheduler: TileScheduler) {
        _ = scheduler.waitUntilIdle(timeout: 20)
    }

    @Test("waitUntilIdle is false at its timeout while a render runs, true once nothing is queued or in flight")
    func waitUntilIdleWakesAtTheEnd() throws {
        let gate = ConditionGate()
        let scheduler = try TileScheduler(workerCount: 1) { _, _ in
            gate.wait()
            return nil
        }
        defer { scheduler.stop() }
        #expect(scheduler.waitUntilIdle(timeout: 0), "idle before anything is wanted")
        scheduler.setWanted([Self.key(0)])
        #expect(!scheduler.waitUntilIdle(timeout: 0.05), "a render holds it busy")
        #expect(scheduler.isBusy)
        gate.open()
        #expect(scheduler.waitUntilIdle(timeout: 20), "idle once the render ended")
        #expect(!scheduler.isBusy)
    }

    /// A tile of page 1 of text-3pages.pdf (595 × 842 pt) drawn at 3× (1785 × 2526 px, more
    /// than `TileGrid.singleTileArea`, so a grid of 256-px tiles: 7 columns, 10 rows).
    static func key(_ column: Int, row: Int = 0, page: Int = 0) -> TileKey {
        TileKey(page: page, grid: TileGrid(pageWidth: 1785, pageHeight: 2526), column: column, row: row)
    }

    @Test("results wake the main loop through the eventfd and arrive in drain, rendered by MuPDF")
    func resultsThroughWakeFD() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let scheduler = try TileScheduler(workerCount: 2) { key, cookie in renderTile(key, of: document, cookie: cookie)
        }
        defer { scheduler.stop() }
        #expect(!Self.isReadable(scheduler.wakeDescriptor.rawValue, within: 0), "nothing to drain yet")
        let wanted = [Self.key(0), Self.key(1, row: 1), Self.key(4, row: 6)]
        try #require(wanted.map(\.rect.width) == [256, 256, 256], "three distinct tiles of a 256-px grid")
        scheduler.setWanted(wanted)
        #expect(
            Self.isReadable(scheduler.wakeDescriptor.rawValue, within: 20_000),
            "a finished tile makes the eventfd readable")
        let results = Self.collect(scheduler, count: 3)
        #expect(Set(results.map(\.0)) == Set(wanted))
        for (key, content) in results {
            guard case .image(let image, let isDamaged) = content else {
                Issue.record("\(key) did not render: \(content)")
                continue
            }
            #expect(!isDamaged)
            #expect(image.width == key.rect.width && image.height == key.rect.height, "\(key)")
            // 1785 px is the 595 pt wide page at three times its size.
            let reference = try renderReference(document, page: 0, scale: 3, region: key.rect)
            #expect(
                memcmp(image.pixels, reference.pixels, image.stride * image.height) == 0,
                "\(key) holds MuPDF's pixels of its rectangle")
        }
        Self.waitUntilIdle(scheduler)
        #expect(scheduler.drain().isEmpty)
        #expect(!Self.isReadable(scheduler.wakeDescriptor.rawValue, within: 0), "drained: the eventfd is quiet again")
    }

    @Test("one worker renders the most urgent tile first, following the latest priorities")
    func priorityOrder() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let gate = Gate()
        let log = RenderLog()
        let first = Self.key(0)
        let scheduler = try TileScheduler(workerCount: 1) { key, cookie in
            log.record(key)
            if key == first { gate.wait() }
            return renderTile(key, of: document, cookie: cookie)
        }
        defer { scheduler.stop() }
        let a = Self.key(1), b = Self.key(2), c = Self.key(3), d = Self.key(4)
        scheduler.setWanted([first, a, b, c, d])
        log.waitFor(count: 1)
        // While the worker is busy with `first`, the view changes: d is now most urgent.
        scheduler.setWanted([first, d, c, b, a])
        gate.open()
        let results = Self.collect(scheduler, count: 5)
        #expect(log.keys == [first, d, c, b, a])
        #expect(results.map(\.0) == [first, d, c, b, a], "results are delivered in the order rendered")
        #expect(scheduler.cancelledCount == 0)
    }

    @Test("a render cancelled by setWanted([]) is never delivered, even when it finishes anyway")
    func cancelledNeverDelivered() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let log = RenderLog()
        let finished = Gate()
        let scheduler = try TileScheduler(workerCount: 1) { key, cookie in
            log.record(key)
            // A slow render: it runs until the scheduler cancels its cookie...
            let deadline = Date().addingTimeInterval(20)
            while !cookie.isCancelled, Date() < deadline { usleep(1000) }
            // ...then finishes regardless (MuPDF may complete a page already drawn).
            let content = renderTile(key, of: document)
            finished.open()
            return content
        }
        defer { scheduler.stop() }
        scheduler.setWanted([Self.key(0)])
        log.waitFor(count: 1)
        scheduler.setWanted([])
        #expect(scheduler.cancelledCount == 1)
        finished.wait()
        Self.waitUntilIdle(scheduler)
        #expect(!scheduler.isBusy)
        // Idle: a render's wake-up comes before its worker goes idle, so there is none to wait for.
        #expect(!Self.isReadable(scheduler.wakeDescriptor.rawValue, within: 0), "no wake-up for a cancelled tile")
        #expect(scheduler.drain().isEmpty, "the cancelled tile is not delivered")
        // Cancelling again what is not in flight counts nothing.
        scheduler.setWanted([])
        #expect(scheduler.cancelledCount == 1)
    }

    @Test("MuPDF stops a render whose cookie is cancelled; nothing is delivered")
    func mupdfRenderCancelled() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let log = RenderLog()
        let returned = ResultBox()
        let scheduler = try TileScheduler(workerCount: 1) { key, cookie in
            log.record(key)
            // Hold the render until the scheduler has cancelled it, so MuPDF sees an aborted
            // cookie whatever the machine's speed.
            let deadline = Date().addingTimeInterval(20)
            while !cookie.isCancelled, Date() < deadline { usleep(1000) }
            let content = renderTile(key, of: document, cookie: cookie)
            returned.set(content == nil ? "nil" : "content")
            return content
        }
        defer { scheduler.stop() }
        // A tile of the page at a high zoom (its photo).
        let big = TileKey(page: 0, grid: TileGrid(pageWidth: 6000, pageHeight: 8490), column: 10, row: 10)
        scheduler.setWanted([big])
        log.waitFor(count: 1)
        scheduler.setWanted([])
        Self.waitUntilIdle(scheduler)
        #expect(returned.value == "nil", "MuPDF reported the render cancelled")
        #expect(scheduler.cancelledCount == 1)
        #expect(scheduler.drain().isEmpty)
    }

    @Test("queued tiles that are no longer wanted are never rendered")
    func unwantedQueuedNeverRendered() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let gate = Gate()
        let log = RenderLog()
        let first = Self.key(0)
        let scheduler = try TileScheduler(workerCount: 1) { key, cookie in
            log.record(key)
            if key == first { gate.wait() }
            return renderTile(key, of: document, cookie: cookie)
        }
        defer { scheduler.stop() }
        let a = Self.key(1), b = Self.key(2), c = Self.key(3)
        scheduler.setWanted([first, a, b, c])
        log.waitFor(count: 1)
        scheduler.setWanted([first, c])
        gate.open()
        let results = Self.collect(scheduler, count: 2)
        Self.waitUntilIdle(scheduler)
        #expect(log.keys == [first, c], "a and b left the queue before a worker took them")
        #expect(Set(results.map(\.0)) == [first, c])
        #expect(scheduler.drain().isEmpty)
        #expect(scheduler.cancelledCount == 0, "dropping queued tiles aborts no render")
    }

    @Test("a tile cancelled and wanted again while its render winds down is rendered again")
    func rewantedAfterCancel() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        let gate = Gate()
        let log = RenderLog()
        let tile = Self.key(0)
        let scheduler = try TileScheduler(workerCount: 1) { key, cookie in
            log.record(key)
            // The first render of the tile finishes only when the test says so.
            if log.keys.count == 1 { gate.wait() }
            return renderTile(key, of: document, cookie: cookie)
        }
        defer { scheduler.stop() }
        scheduler.setWanted([tile])
        log.waitFor(count: 1)
        scheduler.setWanted([])  // scrolled away: the render is cancelled...
        scheduler.setWanted([tile])  // ...and back, before the cancelled render returned.
        gate.open()
        let results = Self.collect(scheduler, count: 1)
        #expect(results.map(\.0) == [tile], "the tile still arrives (rendered \(log.keys.count) times)")
        Self.waitUntilIdle(scheduler)
        #expect(!scheduler.isBusy)
    }
}

/// Blocks renders until the test opens it.
final class Gate: @unchecked Sendable {
    // Sendable: `isOpen` is guarded by `condition`.
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until open (at most 20 s, so a broken scheduler fails instead of hanging).
    func wait() {
        condition.lock()
        let deadline = Date().addingTimeInterval(20)
        while !isOpen, condition.wait(until: deadline) {}
        condition.unlock()
    }
}

/// The keys a render closure was called with, in order.
final class RenderLog: @unchecked Sendable {
    // Sendable: `recorded` is guarded by `condition`.
    private let condition = NSCondition()
    private var recorded: [TileKey] = []

    func record(_ key: TileKey) {
        condition.lock()
        recorded.append(key)
        condition.broadcast()
        condition.unlock()
    }

    var keys: [TileKey] {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    /// Waits until `count` renders started (at most 20 s).
    func waitFor(count: Int) {
        condition.lock()
        let deadline = Date().addingTimeInterval(20)
        while recorded.count < count, condition.wait(until: deadline) {}
        condition.unlock()
    }
}

/// A value set on a worker thread and read by the test.
final class ResultBox: @unchecked Sendable {
    // Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: String?
    func set(_ value: String) { lock.withLock { stored = value } }
    var value: String? { lock.withLock { stored } }
}

@Suite("Tile scheduler shutdown")
struct TileSchedulerShutdownTests {
    /// Issue 10: shutting down must not wait for a render stuck where its cookie is not looked at.
    @Test("stopping gives up waiting at the deadline, and the stuck worker ends safely later")
    func stopDoesNotWaitPastItsDeadline() throws {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let freed = DispatchSemaphore(value: 0)
        // Held by the render closure alone: freed when the last one holding the scheduler's
        // queue (the stuck worker, once it has ended) lets go of it.
        final class Token: Sendable {
            let freed: DispatchSemaphore
            init(_ freed: DispatchSemaphore) { self.freed = freed }
            deinit { freed.signal() }
        }
        var scheduler: TileScheduler? = try TileScheduler(workerCount: 1) { [token = Token(freed)] _, _ in
            _ = token
            started.signal()
            release.wait()  // a MuPDF call that does not check its cookie
            finished.signal()
            return nil
        }
        scheduler?.setWanted([TileSchedulerTests.key(0)])
        #expect(started.wait(timeout: .now() + 10) == .success)
        let clock = ContinuousClock()
        let begin = clock.now
        #expect(scheduler?.stop(before: begin + .milliseconds(100)) == false, "the worker is still rendering")
        #expect(clock.now - begin >= .milliseconds(90), "it waited until its deadline")
        #expect(finished.wait(timeout: .now()) == .timedOut, "it gave up while the render was still stuck")
        scheduler = nil  // does not wait either; the stuck worker keeps what it uses alive
        #expect(freed.wait(timeout: .now()) == .timedOut, "the stuck worker still holds the queue")
        release.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        // The worker returns into the scheduler's queue after its render, ends, and lets go of it.
        #expect(freed.wait(timeout: .now() + 10) == .success, "the worker ended and the queue was freed")
    }
}

/// A gate render threads wait at until a test opens it.
final class ConditionGate: @unchecked Sendable {
    // Sendable: `isOpen` is guarded by `condition`.
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
