import Foundation
import LecternTestSupport

/// Large print (issue 30) against the normal reader in the same run, a lectern of each open at
/// once on the same document:
/// - `typed_jump_uncached`: a typed page number + Enter to a page never shown: from Enter to
///   the frame at rest. In large print that is the page's column laid out by the render worker
///   (reading order and line breaks, never laid out before at this size) and drawn; normally the
///   page rendered sharp. Target: large print ≤ 150 ms on text-36.
/// - `scroll` (large print only): one finger down, then 60 Hz `wl_touch.motion` moving 4 px per
///   event up and down over 300 px; for each event, the time to the next commit (the test
///   compositor answers frame callbacks at once, so this is Lectern's own time to draw a
///   scrolled frame).
func runLargePrintBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 5
    let seconds = options.seconds ?? 4
    let (width, height) = options.size
    guard let document = options.documents.first else { throw BenchmarkError(description: "large-print needs a PDF") }

    let large = try LecternSession(
        document: document, options: ["--large-print", "on"], width: width, height: height, keyboard: true)
    defer { large.close() }
    let normal = try LecternSession(document: document, width: width, height: height, keyboard: true)
    defer { normal.close() }
    for session in [large, normal] {
        guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
            throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
        }
        session.compositor.keyboardEnter()
        session.settle(quiet: .milliseconds(200))
    }

    var jumps: (large: [Sample], normal: [Sample]) = ([], [])
    for target in [20, 5, 30, 10, 25, 15, 35].prefix(max(1, runs)) {
        jumps.large.append(
            try typeJump(large, to: target, awaiting: "large print frame committed (page \(target)) "))
        jumps.normal.append(try typeJump(normal, to: target))
    }
    let laidOut = large.log.split(separator: "\n").filter { $0.contains("laid out in") }.map { line in
        String(line[line.range(of: "large print of")!.lowerBound...])
    }

    let scroll = scrollLatencies(large, width: Double(width), height: Double(height), seconds: seconds)
    let firstFrame = median(jumps.large.map(\.shown))
    try printJSON([
        "benchmark": "large print: first reflowed frame and scroll frames, against the normal reader",
        "document": fileName(document),
        "size": "\(width)x\(height)",
        "cases": [
            [
                "case": "typed_jump_uncached",
                "method":
                    "two lecterns open at once (--large-print on, and not); digits then Enter to pages 20, 5, 30, 10, 25, 15, 35 in turn (never shown, never laid out), each lectern in turn; time from Enter sent to the first commit equal to the frame at rest (large print: after its 'large print frame committed (page N)' log line; normal: after 'sharp frame committed: pages N')",
                "runs": jumps.large.count,
                "large_print_ms_median": round1(firstFrame),
                "large_print_ms_all": jumps.large.map { round1($0.shown) },
                "normal_ms_median": round1(median(jumps.normal.map(\.shown))),
                "normal_ms_all": jumps.normal.map { round1($0.shown) },
                "large_print_layouts_logged": laidOut,
                "target_ms": 150.0,
                "meets_target": firstFrame <= 150,
            ],
            [
                "case": "scroll",
                "method":
                    "one finger down, moved up by \(height / 2) px, then \(seconds) s of wl_touch.motion+frame at 60 Hz sweeping 300 px up and down at 4 px per event; for each event, the time from sending it to the first commit after it",
                "events": scroll.count,
                "p50_ms": round2(percentile(scroll, 0.5)),
                "p99_ms": round2(percentile(scroll, 0.99)),
                "max_ms": round2(scroll.max() ?? .nan),
                "events_over_16_7_ms": scroll.filter { $0 > 16.7 }.count,
            ],
        ],
    ])
}

/// The times from each 60 Hz touch motion of a vertical sweep to the next commit, in ms.
private func scrollLatencies(_ session: LecternSession, width: Double, height: Double, seconds: Double) -> [Double] {
    let compositor = session.compositor
    let x = width / 2, bottom = height - 20, top = height / 2 - 150
    compositor.touchDown(id: 0, x: x, y: bottom)
    compositor.touchFrame()
    session.dispatch(timeout: .zero)
    var sent: [ContinuousClock.Instant] = []
    let start = ContinuousClock.now
    // Up to `top` first (the column scrolls down, away from its top), then the sweep.
    let lead = Int((bottom - top) / 4)
    let count = lead + Int(seconds * 60)
    for k in 0..<count {
        let due = start + .nanoseconds(k * 16_666_667)
        while ContinuousClock.now < due { session.dispatch(timeout: min(.milliseconds(1), due - ContinuousClock.now)) }
        let leg = Double(max(0, k - lead) * 4).truncatingRemainder(dividingBy: 600)
        let y = k < lead ? bottom - Double(k * 4) : top + (leg < 300 ? leg : 600 - leg)
        if k >= lead { sent.append(ContinuousClock.now) }
        compositor.touchMotion(id: 0, x: x, y: y)
        compositor.touchFrame()
        session.dispatch(timeout: .zero)
    }
    session.run(for: .milliseconds(300))
    compositor.touchUp(id: 0)
    compositor.touchFrame()
    session.settle(quiet: .milliseconds(300), timeout: .seconds(5))
    let frames = session.frames
    return sent.compactMap { time in frames.first { $0.timestamp > time }.map { milliseconds($0.timestamp - time) } }
}
