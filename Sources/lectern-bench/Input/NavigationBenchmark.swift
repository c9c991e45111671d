import Foundation
import LecternCore
import LecternRender
import LecternTestSupport

/// Frame time while flinging the thumbnail bar and the thumbnail grid through the 15,000-page
/// document (Lectern opened in its middle, `--page 7500`): the time between consecutive commits
/// while a fling moves them, the test compositor answering frame callbacks at once (no vsync),
/// so every commit is drawn as soon as the one before it was: Lectern's own cost per frame,
/// thumbnails still rendering around it.
///
/// Reference in the same run: the same flings of the pages themselves (continuous vertical
/// scrolling), the view Lectern was built around. Target: p99 under one frame (16.7 ms).
func runNavigationBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let (width, height) = options.size
    let flicks = options.runs ?? 8
    guard let document = options.documents.last else { throw BenchmarkError(description: "navigation needs a PDF") }
    let w = Double(width), h = Double(height)

    let bar = Scene.ThumbnailBar.stripArea(width: Int(width), height: Int(height))
    let barY = Double(bar.y + bar.height / 2)
    let pages = Scene.Chrome.buttonBox(0)
    let scenarios = [
        FlingScenario(
            name: "pages (reference)", options: ["--scroll", "continuous", "--direction", "vertical"], open: { _ in },
            flick: { i in i % 3 == 2 ? ((w / 2, h * 0.2), (w / 2, h * 0.8)) : ((w / 2, h * 0.8), (w / 2, h * 0.2)) }
        ),
        FlingScenario(
            name: "thumbnail bar", options: [],
            open: { session in
                session.tap(x: w / 2, y: h / 2)
                session.run(for: .milliseconds(400))
            },
            flick: { i in i % 3 == 2 ? ((w * 0.2, barY), (w * 0.8, barY)) : ((w * 0.8, barY), (w * 0.2, barY)) }
        ),
        FlingScenario(
            name: "thumbnail grid", options: [],
            open: { session in
                session.tap(x: w / 2, y: h / 2)
                session.run(for: .milliseconds(400))
                session.tap(x: Double(pages.x + 20), y: Double(pages.y + 20))
                session.run(for: .milliseconds(300))
            },
            flick: { i in i % 3 == 2 ? ((w / 2, h * 0.25), (w / 2, h * 0.9)) : ((w / 2, h * 0.9), (w / 2, h * 0.25)) }
        ),
    ]
    var results: [[String: Any]] = []
    for scenario in scenarios {
        let session = try LecternSession(
            document: document, options: ["--page", "7500"] + scenario.options, width: width, height: height,
            logLevel: "info")
        defer { session.close() }
        guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
            throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
        }
        scenario.open(session)
        session.settle()
        var intervals: [Double] = []
        var frames = 0
        for flick in 0..<flicks {
            let (start, end) = scenario.flick(flick)
            // A flick: 5 moves 16 ms apart, lifted at once.
            session.drag(from: start, to: end, steps: 5)
            let released = ContinuousClock.now
            let first = session.frames.count
            // While the fling moves (it slows below a pixel a frame after about 1.5 s).
            session.run(for: .milliseconds(1500))
            let window = session.frames[first...].filter { $0.timestamp <= released + .milliseconds(1500) }
            frames += window.count
            for (a, b) in zip(window, window.dropFirst()) { intervals.append(milliseconds(b.timestamp - a.timestamp)) }
            session.settle(quiet: .milliseconds(200))
        }
        guard !intervals.isEmpty else {
            throw BenchmarkError(description: "\(scenario.name): no frames while flinging: \(session.log)")
        }
        let sorted = intervals.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        results.append([
            "view": scenario.name, "flicks": flicks, "frames": frames,
            "frame_ms_p50": round2(percentile(0.5)), "frame_ms_p99": round2(percentile(0.99)),
            "frame_ms_max": round2(sorted.last ?? 0),
        ])
    }
    let reference = results[0]["frame_ms_p99"] as? Double ?? .nan
    try printJSON([
        "benchmark": "navigation",
        "method":
            "\(flicks) flicks (5 moves 16 ms apart, released at once) of each view of \(fileName(document)) opened at page 7500, \(width)x\(height); frame time = time between consecutive commits in the 1.5 s after each release (the test compositor answers frame callbacks at once: each frame is drawn as soon as the last was shown); reference: the same flicks of the pages in continuous vertical scrolling, same run",
        "target": "p99 under one frame (16.7 ms)",
        "results": results.map { result in
            var result = result
            if let p99 = result["frame_ms_p99"] as? Double {
                result["p99_vs_reference"] = round2(p99 / reference)
                result["meets_target"] = p99 < 1000.0 / 60
            }
            return result
        },
    ])
}

/// One view flung in the navigation benchmark: Lectern's options, how the view is opened, and
/// where flick `i` starts and ends.
private struct FlingScenario {
    var name: String
    var options: [String]
    var open: (LecternSession) -> Void
    var flick: (Int) -> ((Double, Double), (Double, Double))
}
