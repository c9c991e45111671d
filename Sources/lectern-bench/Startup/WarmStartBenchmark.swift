import Foundation
import LecternTestSupport

/// A repeat start, the kept first frame warm (issue 33): from spawning `lectern` to the first
/// commit showing what it settles on (the home view), against the floor client's first frame
/// (first-frame-floor.c), timed alike and interleaved as `first-frame` does. Each document gets a
/// state directory of its own; one start before the timed ones keeps its home view there.
///
/// Also reported: how many timed starts committed the kept frame first (a start whose first
/// commit is not the settled frame did not use it), and the cold start measured the same way.
func runWarmStartBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 7
    let (width, height) = options.size
    guard !options.documents.isEmpty else { throw BenchmarkError(description: "first-frame-warm needs a PDF") }
    guard let floorPath = options.floor else { throw BenchmarkError(description: "first-frame-warm needs --floor") }
    let floor = URL(fileURLWithPath: floorPath)
    var results: [[String: Any]] = []
    for document in options.documents {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-warm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["STATE_DIRECTORY": state.path]
        let cold = try lecternFirstSharpFrame(
            document: document, width: width, height: height, environment: environment)
        guard FileManager.default.fileExists(atPath: state.path + "/lectern/first-frame.bin") else {
            throw BenchmarkError(description: "lectern kept no first frame for \(document)")
        }
        var warm: [LecternFirstFrame] = []
        var floors: [Double] = []
        for run in 0..<runs {
            for program in run % 2 == 0 ? [0, 1] : [1, 0] {
                if program == 0 {
                    warm.append(
                        try lecternFirstSharpFrame(
                            document: document, width: width, height: height, environment: environment))
                } else {
                    floors.append(
                        try floorFirstFrame(floor, document: document, width: width, height: height).milliseconds)
                }
            }
        }
        let l = median(warm.map(\.milliseconds)), f = median(floors)
        results.append([
            "document": fileName(document),
            "runs": runs,
            "lectern_warm_first_frame_ms_median": round1(l),
            "lectern_warm_first_frame_ms_all": warm.map { round1($0.milliseconds) },
            "runs_whose_first_commit_was_the_kept_frame": warm.filter { $0.earlierFrames == 0 }.count,
            "lectern_cold_first_frame_ms": round1(cold.milliseconds),
            "floor_first_frame_ms_median": round1(f),
            "floor_first_frame_ms_all": floors.map(round1),
            "ratio": round2(l / f),
            "ratio_of_paired_runs_median": round2(median(zip(warm, floors).map { $0.milliseconds / $1 })),
            "target_ratio": 0.6,
        ])
    }
    try printJSON([
        "benchmark": "repeat start, the first frame kept",
        "method":
            "spawn -> the first commit arriving at the in-process test compositor that equals what lectern settles on, with the state directory of an earlier start (its first-frame.bin); floor: first-frame-floor.c's first commit; interleaved run by run",
        "size": "\(width)x\(height)",
        "results": results,
    ])
}
