import Foundation
import LecternTestSupport

/// Time to first frame: from spawning `lectern` to the first committed buffer that shows
/// the page, as the test compositor receives it; as a ratio to `mutool draw` rendering the
/// same page at the same size (process start to exit), measured in the same run.
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
            let parts = arguments[index].split(separator: "x").compactMap { Int32($0) }
            if parts.count == 2 { (width, height) = (parts[0], parts[1]) }
        default:
            documents.append(arguments[index])
        }
        index += 1
    }
    // Lectern fits the page inside a 12 px margin; mutool gets the same box.
    let margin: Int32 = 12
    var results: [[String: Any]] = []
    for document in documents {
        var lectern: [Double] = []
        var mutool: [Double] = []
        for _ in 0..<runs {
            // Interleave the two so drift on the machine hits both alike.
            lectern.append(try lecternFirstFrame(document: document, width: width, height: height))
            mutool.append(try mutoolDraw(document: document, width: width - 2 * margin, height: height - 2 * margin))
        }
        let l = median(lectern), m = median(mutool)
        results.append([
            "document": (document as NSString).lastPathComponent,
            "runs": runs,
            "lectern_first_frame_ms_median": round(l * 10) / 10,
            "lectern_first_frame_ms_all": lectern.map { round($0 * 10) / 10 },
            "mutool_draw_ms_median": round(m * 10) / 10,
            "mutool_draw_ms_all": mutool.map { round($0 * 10) / 10 },
            "ratio": round(l / m * 100) / 100,
            "target_ratio": 2.0,
        ])
    }
    let json = try JSONSerialization.data(
        withJSONObject: ["benchmark": "time to first frame", "size": "\(width)x\(height)", "results": results],
        options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: json, as: UTF8.self))
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
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
    guard compositor.wait(timeout: .seconds(20), until: { !compositor.commits.isEmpty || !process.isRunning }),
        let first = compositor.commits.first
    else { throw BenchmarkError(description: "no frame from lectern for \(document): \(process.errorOutput)") }
    // The first commit must be the page, not a message: Lectern logs which it was.
    _ = compositor.wait(timeout: .seconds(2)) { process.errorOutput.contains("frame committed") }
    guard process.errorOutput.contains("frame committed \(width)x\(height) (page 1)"), !first.isUniform else {
        throw BenchmarkError(description: "the first frame did not show page 1: \(process.errorOutput)")
    }
    return milliseconds(first.timestamp - start)
}

private func mutoolDraw(document: String, width: Int32, height: Int32) throws -> Double {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-bench-\(getpid()).pam").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/mutool")
    // PAM: no compression, so the reference is the render itself, not PNG encoding.
    process.arguments = ["draw", "-q", "-w", "\(width)", "-h", "\(height)", "-F", "pam", "-o", output, document, "1"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    guard process.terminationStatus == 0 else { throw BenchmarkError(description: "mutool draw failed on \(document)") }
    return milliseconds(elapsed)
}
