import Foundation
import LecternTestSupport

/// Time to first frame: from spawning `lectern` to the first committed buffer that shows
/// the page, as the test compositor receives it; as a ratio to `mutool draw` rendering the
/// same page at the same size (process start to exit), measured in the same run.
///
/// Runs are interleaved across documents and tools (lectern A, mutool A, lectern B, …) so
/// drift on a shared machine hits all alike; the first document is the reference the others'
/// times are compared with (`ratio_to_reference_document`: a 15,000-page document should start
/// about as fast as a 36-page one).
func runFirstFrameBenchmark(arguments: [String]) throws {
    var runs = 7
    var width: Int32 = 1280, height: Int32 = 720
    var documents: [String] = []
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--runs":
            index += 1
            runs = Int(arguments[index]) ?? runs
        case "--size":
            index += 1
            if let size = parseSize(arguments[index]) { (width, height) = size }
        default:
            documents.append(arguments[index])
        }
        index += 1
    }
    guard !documents.isEmpty else { throw BenchmarkError(description: "first-frame needs at least one PDF") }
    var lectern = [[Double]](repeating: [], count: documents.count)
    var mutool = [[Double]](repeating: [], count: documents.count)
    for _ in 0..<runs {
        for (i, document) in documents.enumerated() {
            lectern[i].append(try lecternFirstFrame(document: document, width: width, height: height))
            mutool[i].append(
                try mutoolDraw(document: document, width: width - 2 * pageMargin, height: height - 2 * pageMargin))
        }
    }
    var results: [[String: Any]] = []
    let reference = median(lectern[0])
    for (i, document) in documents.enumerated() {
        let l = median(lectern[i]), m = median(mutool[i])
        var result: [String: Any] = [
            "document": fileName(document),
            "runs": runs,
            "lectern_first_frame_ms_median": round1(l),
            "lectern_first_frame_ms_all": lectern[i].map(round1),
            "mutool_draw_ms_median": round1(m),
            "mutool_draw_ms_all": mutool[i].map(round1),
            "ratio": round2(l / m),
            "target_ratio": 2.0,
        ]
        if i > 0 {
            result["reference_document"] = fileName(documents[0])
            result["ratio_to_reference_document"] = round2(l / reference)
            result["target_ratio_to_reference_document"] = 1.2
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

private func lecternFirstFrame(document: String, width: Int32, height: Int32) throws -> Double {
    let compositor = try TestCompositor(outputWidth: width, outputHeight: height)
    defer { try? compositor.teardown() }
    let start = ContinuousClock.now
    let process = try LecternProcess(arguments: [document], environment: compositor.environment)
    defer {
        process.terminate()
        _ = process.waitForExit(timeout: .seconds(5), dispatching: compositor)
    }
    let pageLogged = "frame committed \(width)x\(height) (page 1)"
    guard
        compositor.wait(
            timeout: .seconds(30), until: { process.errorOutput.contains(pageLogged) || !process.isRunning }),
        let first = compositor.commits.first
    else { throw BenchmarkError(description: "no page from lectern for \(document): \(process.errorOutput)") }
    // Lectern logs the first commit, and the first that shows the page if that is a later one
    // (after an "Opening…" message, when the page took longer than the message's delay).
    let firstLogged = process.errorOutput.split(separator: "\n").first { $0.contains("frame committed") } ?? ""
    let page = firstLogged.contains("(page 1)") ? first : compositor.commits.first { $0.pixels != first.pixels }
    guard let page, !page.isUniform else {
        throw BenchmarkError(description: "no commit shows page 1 of \(document): \(process.errorOutput)")
    }
    return milliseconds(page.timestamp - start)
}
