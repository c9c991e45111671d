import Foundation
import LecternCore
import LecternPDF
import LecternRender

/// Tile throughput on one thread and on two: the same 256-px tiles of one page rendered twice
/// in a row on one thread, then on two threads at once (each renders every tile once), for a
/// text page and a photo page. MuPDF shares locks between threads (the glyph cache, the store),
/// so text gains little; a photo's decoding and rasterizing run side by side.
func runParallelRenderBenchmark(arguments: [String]) throws {
    guard arguments.count == 2 else { throw BenchmarkError(description: "parallel needs a text PDF and a photo PDF") }
    var results: [[String: Any]] = []
    for (kind, path, scale) in [("text", arguments[0], 2.5), ("photo", arguments[1], 2.0)] {
        let document = try PDFDocument(path: path)
        let size = try document.pageInfo(at: 0).pixelSize(scale: scale)
        let tiles = stride(from: 0, to: size.height, by: 256).flatMap { y in
            stride(from: 0, to: size.width, by: 256).map { x in
                PixelBox(x: x, y: y, width: min(256, size.width - x), height: min(256, size.height - y))
            }
        }
        @Sendable func render(_ tile: PixelBox) {
            let image = RasterImage(width: tile.width, height: tile.height)
            try? document.render(page: 0, scale: scale, region: tile, into: image.pixels, stride: image.stride)
        }
        tiles.forEach(render)  // the display list is recorded once, before either clock starts
        let (serial, parallel) = timeOneAndTwoThreads { tiles.forEach(render) }
        results.append([
            "page": kind, "tiles": 2 * tiles.count, "one_thread_ms_median": round1(median(serial)),
            "two_threads_ms_median": round1(median(parallel)), "speed_up": round2(median(serial) / median(parallel)),
        ])
    }
    try printJSON([
        "benchmark": "tile rendering on one and two threads",
        "method": "the page's 256-px tiles twice on one thread, then once on each of two threads at once; medians of 3",
        "cores": ProcessInfo.processInfo.activeProcessorCount,
        "results": results,
    ])
}

/// Milliseconds for `body` twice on one thread and once on each of two threads at once, three
/// times each (medians are taken by the caller).
func timeOneAndTwoThreads(_ body: @escaping @Sendable () -> Void) -> (serial: [Double], parallel: [Double]) {
    timeOneAndTwoThreads([body], rounds: 3)[0]
}

/// As `timeOneAndTwoThreads(_:)` for each of `bodies`, interleaved: `rounds` rounds, each timing
/// every body in turn (in the reverse order every other round), so that a change in the
/// machine's load falls on all of them alike.
func timeOneAndTwoThreads(
    _ bodies: [@Sendable () -> Void], rounds: Int
) -> [(serial: [Double], parallel: [Double])] {
    let clock = ContinuousClock()
    var times = bodies.map { _ in (serial: [Double](), parallel: [Double]()) }
    for round in 0..<rounds {
        for index in round % 2 == 0 ? Array(bodies.indices) : bodies.indices.reversed() {
            let body = bodies[index]
            times[index].serial.append(milliseconds(clock.measure { for _ in 0..<2 { body() } }))
            times[index].parallel.append(
                milliseconds(clock.measure { DispatchQueue.concurrentPerform(iterations: 2) { _ in body() } }))
        }
    }
    return times
}
