import Foundation
import LecternTestSupport

/// Time to first frame: from spawning `lectern` to the commit that first shows page 1 sharp,
/// as the test compositor receives it; as a ratio to the floor, a minimal C client
/// (kiosk/bench-reference/first-frame-floor.c: MuPDF renders page 1 into a wl_shm buffer,
/// commit, nothing else) timed the same way, from spawn to its commit arriving at the same
/// test compositor. Both clocks stop at the same point.
///
/// Lectern's timed commit is found by content, not from its log: the first commit whose pixels
/// equal what Lectern shows once it has made no new commit for `quietPeriod` (the sharp page).
/// A low-resolution preview or an "Opening…" message before it is not the first frame; how
/// many runs had one is reported. So is how many pixels of that frame equal the floor's frame,
/// to show both drew the same picture.
///
/// `mutool draw` of the same page at the same size stays as the cold-start figure it was:
/// process start to exit, including writing its PAM file, so its clock stops at a different
/// point (after a file write instead of at a commit) and its ratio is not the target.
///
/// Runs are interleaved across documents and programs (lectern A, floor A, mutool A, lectern B,
/// …; lectern and the floor swap places every other run) so drift on a shared machine hits all
/// alike; the second document's time is also compared with the first's (`ratio_to_compared`: a
/// 15,000-page document should start about as fast as a 36-page one).
func runFirstFrameBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 7
    let (width, height) = options.size
    let documents = options.documents
    guard !documents.isEmpty else { throw BenchmarkError(description: "first-frame needs at least one PDF") }
    guard let floorPath = options.floor else { throw BenchmarkError(description: "first-frame needs --floor PATH") }
    let floor = URL(fileURLWithPath: floorPath)
    var lectern = [[LecternFirstFrame]](repeating: [], count: documents.count)
    var floors = [[Double]](repeating: [], count: documents.count)
    var mutool = [[Double]](repeating: [], count: documents.count)
    var matchingFloor = [Double](repeating: .nan, count: documents.count)
    for run in 0..<runs {
        for (i, document) in documents.enumerated() {
            var lecternRun: LecternFirstFrame?
            var floorRun: (milliseconds: Double, commit: Commit)?
            for program in run % 2 == 0 ? [0, 1] : [1, 0] {
                if program == 0 {
                    lecternRun = try lecternFirstSharpFrame(document: document, width: width, height: height)
                } else {
                    floorRun = try floorFirstFrame(floor, document: document, width: width, height: height)
                }
            }
            guard let lecternRun, let floorRun else { continue }
            lectern[i].append(lecternRun)
            floors[i].append(floorRun.milliseconds)
            matchingFloor[i] = lecternRun.commit.fractionOfPixelsEqual(to: floorRun.commit)
            mutool[i].append(
                try mutoolDraw(document: document, width: width - 2 * pageMargin, height: height - 2 * pageMargin))
        }
    }
    var results: [[String: Any]] = []
    let reference = median(lectern[0].map(\.milliseconds))
    for (i, document) in documents.enumerated() {
        let l = median(lectern[i].map(\.milliseconds)), f = median(floors[i]), m = median(mutool[i])
        var result: [String: Any] = [
            "document": fileName(document),
            "runs": runs,
            "lectern_first_sharp_frame_ms_median": round1(l),
            "lectern_first_sharp_frame_ms_all": lectern[i].map { round1($0.milliseconds) },
            "lectern_own_clock_first_page_frame_ms_median": round1(
                median(lectern[i].map(\.ownClockMilliseconds))),
            "runs_with_an_earlier_frame": lectern[i].filter { $0.earlierFrames > 0 }.count,
            "floor_first_frame_ms_median": round1(f),
            "floor_first_frame_ms_all": floors[i].map(round1),
            "pixels_equal_to_floor_frame": round2(matchingFloor[i]),
            "ratio": round2(l / f),
            // Each run's Lectern and floor starts follow each other, so they share the machine's
            // load of the moment: the median of their ratios is steadier on a busy machine.
            "ratio_of_paired_runs_median": round2(median(zip(lectern[i], floors[i]).map { $0.milliseconds / $1 })),
            "target_ratio": 1.3,
            "mutool_draw_ms_median": round1(m),
            "mutool_draw_ms_all": mutool[i].map(round1),
            "ratio_to_mutool_draw": round2(l / m),
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
            "spawn -> the commit arriving at the in-process test compositor, for lectern (its first commit showing page 1 sharp: equal to what it shows after \(quietPeriod) without commits) and for the floor (first-frame-floor.c: MuPDF renders page 1 fitted in the same box straight into its only wl_shm buffer); reference figure: mutool draw -F pam of page 1 fitted in the same box (size minus 2x12 px), spawn to exit after writing the file; interleaved run by run",
        "size": "\(width)x\(height)",
        "results": results,
    ])
}

/// How long Lectern must make no new commit before what it shows counts as settled.
private let quietPeriod = Duration.milliseconds(300)

/// One Lectern start: milliseconds from spawn to the first commit showing page 1 sharp; the time
/// of the first commit showing page 1 on Lectern's own clock (from its start-up, as logged: what
/// is not loader and runtime start; that commit may be a preview); and how many commits came
/// before the sharp one.
struct LecternFirstFrame {
    var milliseconds: Double
    var ownClockMilliseconds: Double
    var earlierFrames: Int
    var commit: Commit
}

/// Starts Lectern on `page` (1-based) of `document` and times its first sharp frame.
/// - Parameters:
///   - options: the command line after the document (default: `--page` when `page` is not 1).
///   - environment: more variables (`STATE_DIRECTORY`: a start that restores a saved view).
///   - beforeSpawn: runs once the clock has started, right before the spawn (the recovery
///     benchmark's `kill -9` of the previous process).
func lecternFirstSharpFrame(
    document: String, width: Int32, height: Int32, page: Int = 1, options: [String]? = nil,
    environment: [String: String] = [:], beforeSpawn: (() -> Void)? = nil
) throws -> LecternFirstFrame {
    let compositor = try TestCompositor(outputWidth: width, outputHeight: height)
    defer { try? compositor.teardown() }
    let start = ContinuousClock.now
    beforeSpawn?()
    let process = try LecternProcess(
        arguments: [document] + (options ?? (page == 1 ? [] : ["--page", "\(page)"])),
        environment: compositor.environment.merging(environment) { _, new in new })
    defer {
        process.terminate()
        _ = process.waitForExit(timeout: .seconds(5), dispatching: compositor)
    }
    // Lectern logs its first commit that shows the page (a preview or the sharp page); from
    // there, wait until it has made no new commit for the quiet period.
    let pageLogged = "frame committed \(width)x\(height) (page \(page))"
    guard
        compositor.wait(
            timeout: .seconds(30), until: { process.errorOutput.contains(pageLogged) || !process.isRunning }),
        process.isRunning
    else {
        throw BenchmarkError(description: "lectern never showed page \(page) of \(document): \(process.errorOutput)")
    }
    let deadline = ContinuousClock.now + .seconds(30)
    var count = compositor.commitCount
    var lastChange = ContinuousClock.now
    while ContinuousClock.now - lastChange < quietPeriod, ContinuousClock.now < deadline {
        compositor.dispatch(timeout: .milliseconds(10))
        if compositor.commitCount != count {
            count = compositor.commitCount
            lastChange = ContinuousClock.now
        }
    }
    guard let settled = compositor.commits.last,
        let sharp = compositor.commits.firstIndex(where: { $0.pixels == settled.pixels }),
        !compositor.commits[sharp].isUniform
    else { throw BenchmarkError(description: "lectern did not settle on page \(page) of \(document)") }
    let line = process.errorOutput.split(separator: "\n").first { $0.contains(pageLogged) } ?? ""
    let own = line.split(separator: " ").reversed().dropFirst().first.flatMap { Double($0) } ?? .nan
    let commit = compositor.commits[sharp]
    return LecternFirstFrame(
        milliseconds: milliseconds(commit.timestamp - start), ownClockMilliseconds: own,
        earlierFrames: sharp, commit: commit)
}

/// One start of the floor client: milliseconds from spawn to its commit, and the commit.
func floorFirstFrame(
    _ floor: URL, document: String, width: Int32, height: Int32
) throws -> (milliseconds: Double, commit: Commit) {
    let compositor = try TestCompositor(outputWidth: width, outputHeight: height)
    defer { try? compositor.teardown() }
    let start = ContinuousClock.now
    let process = try LecternProcess(executableURL: floor, arguments: [document], environment: compositor.environment)
    defer {
        process.terminate()
        _ = process.waitForExit(timeout: .seconds(5), dispatching: compositor)
    }
    guard compositor.wait(timeout: .seconds(30), until: { !compositor.commits.isEmpty || !process.isRunning }),
        let commit = compositor.commits.first, !commit.isUniform
    else {
        throw BenchmarkError(description: "the floor client showed nothing for \(document): \(process.errorOutput)")
    }
    return (milliseconds(commit.timestamp - start), commit)
}

extension Commit {
    /// The fraction of pixels equal to `other`'s (colour only), or 0 for frames of different sizes.
    func fractionOfPixelsEqual(to other: Commit) -> Double {
        guard width == other.width, height == other.height else { return 0 }
        let equal = zip(pixels, other.pixels).count { ($0 ^ $1) & 0x00FF_FFFF == 0 }
        return Double(equal) / Double(pixels.count)
    }
}
