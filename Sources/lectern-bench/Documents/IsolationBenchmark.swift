import Foundation
import LecternCore
import LecternDocuments
import LecternPDF
import LecternRender
import LecternTestSupport
import Logging

/// The cost of the render worker process (`--render-process on`) against MuPDF in process, in
/// the same run, interleaved:
/// - `first_frame`: spawn to the first sharp commit of page 1 (as `first-frame` measures it),
///   for each PDF given;
/// - `typed_jump`: in the long PDF, settled at page 1, digits then Enter to an uncached page
///   (as `latency`'s typed jump), a fresh Lectern each run;
/// - `tiles`: the 256-px tiles of page 1 (text, photo) at 2.5× / 3×, drawn by `RenderProcess`
///   in batches as the reader asks (one request for up to four tiles, each answered as the
///   worker draws it into shared memory, copied out) and one request per tile
///   (`worker_single`), vs `TileContent.render` in process and vs the direct transport
///   (`--render-process off`: the same client and server in process), on one thread and on two
///   at once.
func runIsolationBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 5
    let (width, height) = options.size
    let documents = options.documents
    guard documents.count == 3 else {
        throw BenchmarkError(description: "isolation needs three PDFs: a short text one, the 15,000-page one, a photo")
    }
    let modes: [(name: String, options: [String])] = [
        ("in_process", ["--render-process", "off"]), ("worker", ["--render-process", "on"]),
    ]
    var results: [String: Any] = [:]

    var firstFrames: [[String: Any]] = []
    for document in [documents[0], documents[2]] {
        var times: [[Double]] = [[], []]
        for run in 0..<runs {
            for mode in run % 2 == 0 ? [0, 1] : [1, 0] {
                let frame = try lecternFirstSharpFrame(
                    document: document, width: width, height: height, options: modes[mode].options)
                times[mode].append(frame.milliseconds)
            }
        }
        firstFrames.append([
            "document": fileName(document), "in_process_ms_median": round1(median(times[0])),
            "worker_ms_median": round1(median(times[1])), "ratio": round2(median(times[1]) / median(times[0])),
        ])
    }
    results["first_frame"] = firstFrames

    var jumps: [[Double]] = [[], []]
    for run in 0..<runs {
        for mode in run % 2 == 0 ? [0, 1] : [1, 0] {
            let session = try LecternSession(
                document: documents[1], options: modes[mode].options, width: width, height: height, keyboard: true)
            defer { session.close() }
            try settleOpened(session)
            session.compositor.keyboardEnter()
            session.settle(quiet: .milliseconds(200))
            jumps[mode].append(try typeJump(session, to: 9000 + run).shown)
        }
    }
    results["typed_jump"] = [
        "document": fileName(documents[1]), "in_process_ms_median": round1(median(jumps[0])),
        "worker_ms_median": round1(median(jumps[1])), "ratio": round2(median(jumps[1]) / median(jumps[0])),
    ]

    var tiles: [[String: Any]] = []
    for (kind, path, scale) in [("text", documents[0], 2.5), ("photo", documents[2], 3.0)] {
        tiles.append(try tileThroughput(kind: kind, path: path, scale: scale))
    }
    results["tiles"] = tiles
    try printJSON([
        "benchmark": "the render worker process against MuPDF in process",
        "method":
            "interleaved runs, medians; first frame and typed jump through the real binary under the test compositor, tiles through RenderProcess (in batches, and one request per tile) vs TileContent.render in this process, seven interleaved rounds",
        "runs": runs, "load_average": loadAverages(), "results": results,
    ])
}

/// Page 1's 256-px tiles, twice on one thread and once on each of two threads, in process and
/// through a worker (the tiles drawn once first in each: display lists recorded); the ways
/// interleaved, seven rounds.
private func tileThroughput(kind: String, path: String, scale: Double) throws -> [String: Any] {
    let document = try PDFDocument(path: path)
    let info = try document.pageInfo(at: 0)
    let size = info.pixelSize(scale: scale)
    // The page's tiles as the reader cuts them (a page of at most `TileGrid.singleTileArea`
    // pixels would be one tile: the scales below make both pages bigger than that).
    let grid = TileGrid(pageWidth: size.width, pageHeight: size.height)
    let keys = grid.tiles(covering: PixelBox(x: 0, y: 0, width: size.width, height: size.height)).map {
        TileKey(page: 0, grid: grid, column: $0.column, row: $0.row)
    }
    guard keys.count > 1 else {
        throw BenchmarkError(description: "page 1 of \(path) is one tile at \(scale)×: no tile throughput to measure")
    }
    let executable = try LecternProcess.lecternExecutable().path
    let worker = try RenderProcess(
        settings: RenderProcess.Settings(
            executable: executable, documentPath: path, password: nil, startPage: 0, channels: 2,
            addressSpace: 2048 << 20),
        logger: Logger(label: "bench"))
    defer { worker.stop() }
    let shown = try ShownDocument.open(worker)
    // `--render-process off`: the same client and server, joined by the direct transport.
    let direct = try ShownDocument.open(
        DirectTransport(documentPath: path, password: nil, startPage: 0, logger: Logger(label: "bench")))
    // The reader asks in batches (`ShownDocument.renderTiles`, as its render threads do);
    // `worker_single` is one request per tile, as before batches.
    let inBatches: @Sendable (ShownDocument) -> Void = { client in
        client.renderTiles(keys, cookies: keys.map { _ in RenderCookie() }) { _, _ in }
    }
    let renderers: [(String, @Sendable () -> Void)] = [
        ("in_process", { for key in keys { _ = TileContent.render(key, of: document) } }),
        ("direct", { inBatches(direct) }),
        ("worker_single", { for key in keys { _ = shown.renderTile(key, cookie: RenderCookie()) } }),
        ("worker", { inBatches(shown) }),
    ]
    var entry: [String: Any] = ["page": kind, "tiles": 2 * keys.count]
    for (_, render) in renderers { render() }
    let times = timeOneAndTwoThreads(renderers.map(\.1), rounds: 7)
    for ((name, _), (serial, parallel)) in zip(renderers, times) {
        entry["\(name)_one_thread_ms_median"] = round1(median(serial))
        entry["\(name)_two_threads_ms_median"] = round1(median(parallel))
    }
    entry["ratio_one_thread"] = round2(
        (entry["worker_one_thread_ms_median"] as! Double) / (entry["in_process_one_thread_ms_median"] as! Double))
    entry["ratio_one_thread_single"] = round2(
        (entry["worker_single_one_thread_ms_median"] as! Double)
            / (entry["in_process_one_thread_ms_median"] as! Double))
    entry["ratio_two_threads"] = round2(
        (entry["worker_two_threads_ms_median"] as! Double) / (entry["in_process_two_threads_ms_median"] as! Double))
    return entry
}
