import Foundation
import LecternDocuments
import LecternTestSupport
import Logging

/// `lectern-bench audit [--runs N] [--seconds S] [--size WxH] TEXT-36.pdf 15000-PAGES.pdf`:
/// - the document audit's time per page (`DocumentAuditor`, its worker the built `lectern`,
///   niced, pages drawn fitted to the size): every page of the short PDF, and 100 pages spread
///   over the long one, each run; medians of the runs;
/// - the reader's main loop while an audit of every page of the long PDF runs beside a 60 Hz
///   pan of `--seconds` (default 10), vs the same pan with no audit (`render.audit-pages = 0`),
///   in readers started one after the other, interleaved: the longest turn and the p99 (wall
///   and the loop thread's CPU, `LECTERN_LOG_LOOP_TURNS`), and the frames committed.
func runAuditBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 3
    let (width, height) = options.size
    guard options.documents.count == 2 else {
        throw BenchmarkError(description: "audit needs TEXT-36.pdf and 15000-PAGES.pdf")
    }
    let auditor = DocumentAuditor(
        settings: .init(
            executable: try LecternProcess.lecternExecutable().path, documentPath: "", password: nil, startPage: -1,
            channels: 1, addressSpace: 2048 << 20),
        screen: AuditScreen(width: Int(width), height: Int(height)), deadline: 30, logger: Logger(label: "bench"))
    var perPage: [String: Any] = [:]
    for (document, sample) in [(options.documents[0], nil), (options.documents[1], 100 as Int?)] {
        var totals: [Double] = [], renders: [Double] = [], pages = 0
        for _ in 0..<runs {
            let report = auditor.audit(path: document, sample: sample)
            guard report.error == nil, !report.pages.isEmpty else {
                throw BenchmarkError(description: "cannot audit \(document): \(report.error ?? "no pages")")
            }
            pages = report.pages.count
            totals.append(report.auditMilliseconds / Double(pages))
            renders += report.pages.compactMap(\.renderMilliseconds)
        }
        perPage[fileName(document)] = [
            "pages_audited": pages, "audit_ms_per_page": round2(median(totals)),
            "render_ms_p50": round2(percentile(renders, 0.5)), "render_ms_p99": round2(percentile(renders, 0.99)),
        ]
    }

    let seconds = options.seconds ?? 10
    var turns: [String: [LoopTurn]] = ["audit": [], "none": []]
    var frames: [String: Int] = ["audit": 0, "none": 0]
    for _ in 0..<runs {
        for (name, pages) in [("audit", 15_000), ("none", 0)] {
            let (measured, committed) = try panBesideAudit(
                document: options.documents[1], auditPages: pages, seconds: seconds, width: width, height: height)
            turns[name]! += measured
            frames[name]! += committed
        }
    }
    func figures(_ name: String) -> [String: Any] {
        let wall = turns[name]!.map(\.milliseconds), cpu = turns[name]!.map(\.cpu)
        return [
            "turns": wall.count, "frames": frames[name]!, "longest_turn_ms": round2(wall.max() ?? 0),
            "turn_ms_p99": round2(percentile(wall, 0.99)), "turn_ms_p50": round2(percentile(wall, 0.5)),
            "turn_cpu_ms_p99": round2(percentile(cpu, 0.99)), "longest_turn_cpu_ms": round2(cpu.max() ?? 0),
        ]
    }
    let audit = figures("audit"), none = figures("none")
    try printJSON([
        "benchmark": "audit",
        "setup":
            "\(width)x\(height); audit time per page: DocumentAuditor with the built lectern as its worker (nice 10), \(runs) runs, medians; main loop: lectern on \(fileName(options.documents[1])) under the test compositor, continuous vertical, a 60 Hz pan of \(seconds) s beside an audit of every page (render.audit-pages = 15000) vs none, \(runs) runs each, interleaved",
        "audit_per_page": perPage,
        "main_loop_beside_audit": audit, "main_loop_without_audit": none,
        "longest_turn_ratio": round2(
            (audit["longest_turn_ms"] as! Double) / max(0.01, none["longest_turn_ms"] as! Double)),
        "turn_p99_ratio": round2((audit["turn_ms_p99"] as! Double) / max(0.01, none["turn_ms_p99"] as! Double)),
        "load_average": loadAverages(),
    ])
}

/// A reader on `document` with `render.audit-pages = auditPages`, settled, then panned for
/// `seconds`: the loop's turns during the pan, and the frames committed meanwhile.
private func panBesideAudit(
    document: String, auditPages: Int, seconds: Double, width: Int32, height: Int32
) throws -> (turns: [LoopTurn], frames: Int) {
    let directory = try freshDirectory("lectern-bench-audit")
    defer { try? FileManager.default.removeItem(at: directory) }
    let policy = directory.appendingPathComponent("lectern.toml").path
    try "[render]\naudit-pages = \(auditPages)\n".write(toFile: policy, atomically: true, encoding: .utf8)
    let session = try LecternSession(
        document: document, options: ["--scroll", "continuous", "--direction", "vertical", "--config", policy],
        width: width, height: height,
        environment: ["LECTERN_LOG_LOOP_TURNS": "1", "STATE_DIRECTORY": directory.path])
    defer { session.close() }
    guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
        throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
    }
    if auditPages > 0, !session.waitForLog("auditing ", timeout: .seconds(10)) {
        throw BenchmarkError(description: "no audit started: \(session.log)")
    }
    var turns: [LoopTurn] = []
    let known = session.frames.count
    let window = session.pan(seconds: seconds) { turns += session.newLogLines().flatMap(LoopTurn.parse) }
    session.pan(seconds: 0.7) { turns += session.newLogLines().flatMap(LoopTurn.parse) }  // the last batch
    if auditPages > 0, session.log(after: 0).contains("audit of \(document): ") {
        throw BenchmarkError(description: "the audit ended before the pan did: give it more pages")
    }
    return (turns.filter { window.contains($0.end) }, session.frames.count - known)
}
