import Foundation

/// What Lectern does once the view has come to rest: tile requests and CPU time over the
/// 3 s after the view settles, for the views where an undersized cache used to keep both
/// cores busy (continuous vertical reading after two drags; a double spread zoomed by a
/// double tap in the gutter), at 1280×720 with the default cache budget.
///
/// Reference in the same run: Lectern at rest on its first page, untouched (the view that
/// was always idle), measured the same way. Target: no tile request at rest, and CPU time
/// within one clock tick (10 ms) of the reference.
func runRestBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let (width, height) = options.size
    let seconds = options.seconds ?? 3
    guard let document = options.documents.last else { throw BenchmarkError(description: "rest needs a PDF") }
    let x = Double(width) / 2, y = Double(height) / 2

    let scenarios: [(name: String, options: [String], act: (LecternSession) -> Void)] = [
        ("untouched first page (reference)", [], { _ in }),
        (
            "continuous vertical, two drags up",
            ["--scroll", "continuous", "--direction", "vertical", "--page", "12"],
            { session in
                // 2 × 550 px down the page, held still before letting go: a page boundary
                // (Letter pages are 1,625 px tall at this width) comes to rest mid-screen.
                for _ in 0..<2 { session.drag(from: (x, y + 275), to: (x, y - 275), hold: .milliseconds(150)) }
            }
        ),
        (
            "double spread, double tap in the gutter",
            ["--spreads", "double", "--page", "3"],
            { session in
                session.tap(x: x, y: y)
                session.run(for: .milliseconds(80))
                session.tap(x: x, y: y)
            }
        ),
    ]
    var results: [[String: Any]] = []
    for scenario in scenarios {
        let session = try LecternSession(
            document: document, options: scenario.options, width: width, height: height, logLevel: "trace")
        defer { session.close() }
        guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
            throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
        }
        let before = session.lastFrame?.contentHash
        scenario.act(session)
        // A view that never stops committing is measured all the same: that is the bug to see.
        let settled = session.settle(timeout: .seconds(5))
        if scenario.name != scenarios[0].name, session.lastFrame?.contentHash == before {
            throw BenchmarkError(description: "\(scenario.name): the view did not change")
        }
        let logOffset = session.log.utf8.count
        let cpuBefore = try session.cpuMilliseconds()
        let commitsBefore = session.compositor.commitCount
        session.run(for: .milliseconds(Int(seconds * 1000)))
        let cpu = try session.cpuMilliseconds() - cpuBefore
        let requests = session.log(after: logOffset).split(separator: "\n").count { $0.contains("asked for") }
        results.append([
            "view": scenario.name,
            "tile_requests_per_second": round2(Double(requests) / seconds),
            "cpu_ms": cpu,
            "commits": session.compositor.commitCount - commitsBefore,
            "settled": settled,
        ])
    }
    let referenceCPU = results[0]["cpu_ms"] as? Int ?? 0
    let worst = results.dropFirst().map { ($0["cpu_ms"] as? Int ?? 0) - referenceCPU }.max() ?? 0
    let requests = results.dropFirst().map { $0["tile_requests_per_second"] as? Double ?? 0 }.max() ?? 0
    try printJSON([
        "benchmark": "rest",
        "document": fileName(document),
        "size": "\(width)x\(height)",
        "seconds_at_rest": seconds,
        "method":
            "Lectern (release, default cache budget) under the test compositor; after the view settles (no commit for 400 ms), tile requests (trace log lines 'asked for') and CPU time (utime + stime from /proc/PID/stat, 10 ms ticks) over the next \(seconds) s. Reference: the same measurement on an untouched first page, same run.",
        "views": results,
        "target": "no tile request at rest; CPU within 10 ms of the reference",
        "met": requests == 0 && worst <= 10 && results.allSatisfy { $0["settled"] as? Bool == true },
    ])
}
