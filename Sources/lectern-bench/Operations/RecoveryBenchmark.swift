import Foundation
import LecternTestSupport

/// Recovery after a crash (issue 15): Lectern shows page `page` of a document and has saved its
/// view (`state.json` in its `STATE_DIRECTORY`); it is killed with SIGKILL and started again at
/// once on the same document with no `--page` (its start page is 1), and the time runs from the
/// SIGKILL to the first commit showing the restored page sharp (as `first-frame` finds it).
/// Reference: a cold start on the same page (`--page`, an empty state directory), spawn to the
/// same commit, interleaved run by run. Both under the test compositor (a fresh one per start,
/// made before the clock starts); under cage the service's `RestartSec=` and cage's own start
/// come on top of both alike.
func runRecoveryBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let (width, height) = options.size
    let runs = options.runs ?? 5
    guard let document = options.documents.last else { throw BenchmarkError(description: "recovery needs a PDF") }
    let page = 10
    let loadBefore = loadAverages()
    var recoveries: [Double] = [], restarts: [Double] = [], colds: [Double] = [], reaps: [Double] = []
    var samePicture = 0
    for run in 0..<runs {
        var cold: LecternFirstFrame?
        var recovered: LecternFirstFrame?
        for step in run.isMultiple(of: 2) ? [0, 1] : [1, 0] {
            let state = try freshDirectory("lectern-recovery-bench")
            defer { try? FileManager.default.removeItem(at: state) }
            let environment = ["STATE_DIRECTORY": state.path]
            if step == 1 {
                cold = try lecternFirstSharpFrame(
                    document: document, width: width, height: height, page: page, environment: environment)
                colds.append(cold!.milliseconds)
                continue
            }
            // In use: page `page` on screen, its view saved.
            let using = try LecternSession(
                document: document, options: ["--page", "\(page)"], width: width, height: height, logLevel: "info",
                environment: environment)
            defer { using.close() }
            let file = state.appendingPathComponent("lectern/state.json").path
            guard using.waitForLog("frame committed \(width)x\(height) (page \(page))", timeout: .seconds(60)),
                using.settle(), using.run(timeout: .seconds(10), until: { savedPage(in: file) == page - 1 })
            else { throw BenchmarkError(description: "no view saved for page \(page): \(using.log)") }
            recovered = try lecternFirstSharpFrame(
                document: document, width: width, height: height, page: page, options: [], environment: environment
            ) {
                let start = ContinuousClock.now
                using.process.kill9()
                // Dead once the kernel has torn it down (a zombie, or gone): what a supervisor
                // hears as SIGCHLD. (Foundation's own reaping lags behind by milliseconds.)
                let stat = "/proc/\(using.process.processIdentifier)/stat"
                while let text = try? String(contentsOfFile: stat, encoding: .utf8),
                    !(text.split(separator: ")").last?.hasPrefix(" Z") ?? true)
                {
                    usleep(100)
                }
                reaps.append(milliseconds(ContinuousClock.now - start))
            }
            recoveries.append(recovered!.milliseconds)
            restarts.append(recovered!.milliseconds - reaps.last!)
        }
        if let cold, let recovered, cold.commit.pixels == recovered.commit.pixels { samePicture += 1 }
    }
    let recovery = median(recoveries), cold = median(colds)
    let ratio = recovery / cold
    try printJSON([
        "benchmark": "recovery",
        "size": "\(width)x\(height)",
        "document": fileName(document),
        "page": page,
        "runs": runs,
        "compositor": "the in-process test compositor (not cage: its start and RestartSec= would add the same to both)",
        "method":
            "Lectern (release) shows page \(page) and saves its view (state.json); SIGKILL, dead (its /proc stat a zombie), then Lectern started again at once with no --page on the same STATE_DIRECTORY: SIGKILL -> the first commit showing page \(page) sharp (equal to what it shows after 300 ms without commits). Reference: a cold start with --page \(page) and an empty state directory, spawn -> the same commit; interleaved run by run, a fresh test compositor per start.",
        "recovery_ms_median": round1(recovery),
        "recovery_ms_all": recoveries.map(round1),
        "kill_to_dead_ms_median": round2(median(reaps)),
        "spawn_to_restored_commit_ms_median": round1(median(restarts)),
        "ratio_of_spawn_to_commit_to_cold_start": round2(median(restarts) / cold),
        "cold_start_ms_median": round1(cold),
        "cold_start_ms_all": colds.map(round1),
        "ratio_to_cold_start": round2(ratio),
        "runs_restoring_the_cold_start_picture": samePicture,
        "load_average_before": loadBefore,
        "load_average_after": loadAverages(),
        "target": "recovery within 1.2x of a cold start, showing the same picture",
        "met": ratio <= 1.2 && samePicture == runs,
    ])
}

/// The 0-based page index of the view saved in `file`, if it holds one.
private func savedPage(in file: String) -> Int? {
    guard let data = FileManager.default.contents(atPath: file),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let view = object["view"] as? [String: Any]
    else { return nil }
    return view["pageIndex"] as? Int
}
