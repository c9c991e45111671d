import Foundation
import LecternTestSupport

/// Time to first frame: from spawning `lectern` to the first committed buffer that shows
/// the page, as the test compositor receives it; as a ratio to `mutool draw` rendering the
/// same page at the same size (process start to exit), measured in the same run.
///
/// Runs are interleaved across documents and tools (lectern A, mutool A, lectern B, …) so
/// drift on a shared machine hits all alike; the second document's time is also compared with
/// the first's (`ratio_to_compared`: a 15,000-page document should start about as fast as a
/// 36-page one).
func runFirstFrameBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 7
    let (width, height) = options.size
    let documents = options.documents
    guard !documents.isEmpty else { throw BenchmarkError(description: "first-frame needs at least one PDF") }
    var lectern = [[FirstFrame]](repeating: [], count: documents.count)
    var mutool = [[Double]](repeating: [], count: documents.count)
    for _ in 0..<runs {
        for (i, document) in documents.enumerated() {
            lectern[i].append(try lecternFirstFrame(document: document, width: width, height: height))
            mutool[i].append(
                try mutoolDraw(document: document, width: width - 2 * pageMargin, height: height - 2 * pageMargin))
        }
    }
    var results: [[String: Any]] = []
    let reference = median(lectern[0].map(\.milliseconds))
    for (i, document) in documents.enumerated() {
        let l = median(lectern[i].map(\.milliseconds)), m = median(mutool[i])
        var result: [String: Any] = [
            "document": fileName(document),
            "runs": runs,
            "lectern_first_frame_ms_median": round1(l),
            "lectern_first_frame_ms_all": lectern[i].map { round1($0.milliseconds) },
            "lectern_own_clock_ms_median": round1(median(lectern[i].map(\.ownClockMilliseconds))),
            "opening_message_first_runs": lectern[i].filter(\.messageFirst).count,
            "mutool_draw_ms_median": round1(m),
            "mutool_draw_ms_all": mutool[i].map(round1),
            "ratio": round2(l / m),
            "target_ratio": 2.0,
        ]
        if i == 1 {
            // The second document is the long one: it should start about as fast as the first.
            result["compared_with"] = fileName(documents[0])
            result["ratio_to_compared"] = round2(l / reference)
            result["target_ratio_to_compared"] = 1.2
        }
        results.append(result)
    }
    try printJSON([
        "benchmark": "time to first frame",
        "method":
            "spawn lectern -> first commit that shows page 1 (as logged by lectern), under the in-process test compositor; reference: mutool draw -F pam of page 1 fitted in the same box (size minus 2x12 px), interleaved run by run",
        "size": "\(width)x\(height)",
        "results": results,
    ])
}

/// One first frame: milliseconds from spawn to the commit, the same on Lectern's own clock (from
/// its start-up, as logged: what is not loader and runtime start), and whether an "Opening…"
/// message came first.
private struct FirstFrame {
    var milliseconds: Double
    var ownClockMilliseconds: Double
    var messageFirst: Bool
}

private func lecternFirstFrame(document: String, width: Int32, height: Int32) throws -> FirstFrame {
    let compositor = try TestCompositor(outputWidth: width, outputHeight: height)
    defer { try? compositor.teardown() }
    let start = ContinuousClock.now
    let process = try LecternProcess(arguments: [document], environment: compositor.environment)
    defer {
        process.terminate()
        _ = process.waitForExit(timeout: .seconds(5), dispatching: compositor)
    }
    let pageLogged = "frame committed \(width)x\(height) (page 1)"
    // Lectern logs the first commit, and the first that shows the page if that is a later one
    // (after an "Opening…" message, when the page took longer than the message's delay). The
    // line can arrive before the compositor has handled the commit: wait for both.
    func pageCommit() -> Commit? {
        guard process.errorOutput.contains(pageLogged), let first = compositor.commits.first else { return nil }
        let firstLogged = process.errorOutput.split(separator: "\n").first { $0.contains("frame committed") } ?? ""
        return firstLogged.contains("(page 1)") ? first : compositor.commits.first { $0.pixels != first.pixels }
    }
    guard compositor.wait(timeout: .seconds(30), until: { pageCommit() != nil || !process.isRunning }),
        let page = pageCommit(), !page.isUniform
    else { throw BenchmarkError(description: "no commit shows page 1 of \(document): \(process.errorOutput)") }
    let line = process.errorOutput.split(separator: "\n").first { $0.contains(pageLogged) } ?? ""
    let own = line.split(separator: " ").reversed().dropFirst().first.flatMap { Double($0) } ?? .nan
    return FirstFrame(
        milliseconds: milliseconds(page.timestamp - start), ownClockMilliseconds: own,
        messageFirst: page.sequence != 1)
}
