import Foundation

/// Live document reload (issue 14): from renaming a new version over the shown document to the
/// commit showing it, as a ratio to opening that version cold (spawn to the first commit showing
/// the same page sharp, as `first-frame` times it), for each pair of documents given (two
/// versions with the same page count that look different: A4 and Letter); and the main loop's
/// longest turn during each reload, which Lectern measures itself (`EventLoop.longestTurn`,
/// logged as "reload timing"): the switch must not cost a frame.
///
/// Runs alternate the versions (A shown, B renamed over it, then A over B…) and interleave the
/// reload with the cold start of the same version, so drift on a shared machine hits both.
func runReloadBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let (width, height) = options.size
    let runs = options.runs ?? 5
    let documents = options.documents
    guard documents.count >= 2, documents.count.isMultiple(of: 2) else {
        throw BenchmarkError(description: "reload needs pairs of versions: A.pdf B.pdf [A2.pdf B2.pdf]…")
    }
    let page = 10
    var results: [[String: Any]] = []
    var met = true
    for pair in stride(from: 0, to: documents.count, by: 2) {
        let versions = [documents[pair], documents[pair + 1]]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-reload-bench-\(pair)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("document.pdf").path
        let staging = directory.appendingPathComponent(".document.pdf.new").path
        try FileManager.default.copyItem(atPath: versions[0], toPath: path)

        let session = try LecternSession(
            document: path, options: ["--page", "\(page)"], width: width, height: height, logLevel: "info")
        defer { session.close() }
        guard session.waitForLog("frame committed", timeout: .seconds(60)), session.settle() else {
            throw BenchmarkError(description: "lectern did not settle on \(versions[0]): \(session.log)")
        }
        var reloads: [Double] = [], turns: [Double] = [], colds: [Double] = []
        var notFinal = 0
        for run in 0..<runs {
            let version = versions[(run + 1) % 2]
            for step in run.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                if step == 1 {
                    colds.append(
                        try lecternFirstSharpFrame(document: version, width: width, height: height, page: page)
                            .milliseconds)
                    continue
                }
                // The copy is not part of the reload: a deploy tool writes the file, then renames it.
                try? FileManager.default.removeItem(atPath: staging)
                try FileManager.default.copyItem(atPath: version, toPath: staging)
                let before = session.lastFrame?.contentHash
                let sequence = session.lastFrame?.sequence ?? 0
                let offset = session.log.utf8.count
                let start = ContinuousClock.now
                guard rename(staging, path) == 0 else { throw BenchmarkError(description: "rename: errno \(errno)") }
                var switched: LecternSession.Frame?
                session.run(timeout: .seconds(60)) {
                    switched = session.frames.first { $0.sequence > sequence && $0.contentHash != before }
                    return switched != nil
                }
                guard let switched else {
                    throw BenchmarkError(
                        description: "\(fileName(version)) was never shown: \(session.log(after: offset))")
                }
                reloads.append(milliseconds(switched.timestamp - start))
                guard session.waitForLog("reload timing:", after: offset), session.settle(),
                    let line = session.log(after: offset).split(separator: "\n").first(where: {
                        $0.contains("reload timing:")
                    }),
                    let microseconds = line.split(separator: " ").reversed().dropFirst().first.flatMap({ Int($0) })
                else { throw BenchmarkError(description: "no reload timing logged: \(session.log(after: offset))") }
                turns.append(Double(microseconds) / 1000)
                // The switch shows the new version's page sharp at once: nothing follows it.
                if session.lastFrame?.contentHash != switched.contentHash { notFinal += 1 }
            }
        }
        let reload = median(reloads), cold = median(colds), longest = turns.max() ?? .nan
        let frame = 1000.0 / 60
        met = met && longest < frame && notFinal == 0
        results.append([
            "documents": versions.map(fileName),
            "page": page,
            "reload_ms_median": round1(reload),
            "reload_ms_runs": reloads.map(round1),
            "cold_open_ms_median": round1(cold),
            "ratio_to_cold_open": round2(reload / cold),
            "longest_main_loop_turn_ms_median": round2(median(turns)),
            "longest_main_loop_turn_ms_max": round2(longest),
            "switch_frames_followed_by_a_change": notFinal,
        ])
    }
    try printJSON([
        "benchmark": "reload",
        "size": "\(width)x\(height)",
        "runs": runs,
        "method":
            "Lectern (release) under the test compositor shows page \(page) of a document; a new version (copied next to it first) is renamed over it; timed from the rename to the first commit whose pixels differ (the new version: Lectern switches only once its page is rendered), and whether any later commit changed the picture. Reference: a cold start of Lectern on the same version and page (spawn -> first commit showing it sharp, as first-frame times it), interleaved with the reloads. The main loop's longest turn (time between two polls, wall clock) from the change to the frame after the switch is Lectern's own measure (EventLoop.longestTurn, logged as 'reload timing').",
        "documents": results,
        "target": "the main loop's longest turn during a reload under one frame (16.7 ms); the switch frame is final",
        "met": met,
    ])
}
