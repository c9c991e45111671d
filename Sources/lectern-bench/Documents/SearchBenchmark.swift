import Foundation
import LecternPDF
import LecternRender
import LecternTestSupport

/// Search speed over every page of the 15,000-page document, in pages per second:
/// - `in_process`: `PDFDocument.search` page after page on one thread (what Lectern's search
///   worker does), for a query found nowhere (every page read to its end) and for "the" (hits on
///   every page: folding, matching and boxes too);
/// - `app`: the real Lectern, its search typed on the keyboard, from the last key to the log line
///   saying the search is done (the worker giving way to tile renders included), while the
///   reader stays responsive (the longest gap between answers to `xdg_wm_base.ping` sent every
///   50 ms meanwhile).
///
/// Reference in the same run, interleaved: `mutool draw -F txt` of the same pages (one process,
/// all pages, text to /dev/null): MuPDF's own text extraction.
func runSearchBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 3
    guard let document = options.documents.last else { throw BenchmarkError(description: "search needs a PDF") }
    let pdf = try PDFDocument(path: document)
    let pageCount = try pdf.readPageTree().pageCount
    let nowhere = SearchQuery("zqxjv")!, common = SearchQuery("the")!

    func inProcess(_ query: SearchQuery) throws -> (seconds: Double, hits: Int) {
        // Every run reads the page objects again, as mutool does.
        pdf.releasePageObjects()
        let start = ContinuousClock.now
        var hits = 0
        for page in 0..<pageCount { hits += try pdf.search(query, page: page).count }
        return ((ContinuousClock.now - start).seconds, hits)
    }
    func mutool() throws -> Double {
        let (status, elapsed, _) = try spawnAndWait(
            "/usr/bin/mutool", arguments: ["mutool", "draw", "-q", "-F", "txt", "-o", "/dev/null", document, "1-N"])
        guard status == 0 else { throw BenchmarkError(description: "mutool draw -F txt failed (status \(status))") }
        return elapsed.seconds
    }

    var mutoolSeconds: [Double] = []
    var nowhereSeconds: [Double] = []
    var commonSeconds: [Double] = []
    var commonHits = 0
    var appSeconds: [Double] = []
    var appStalls: [Double] = []
    for _ in 0..<runs {
        mutoolSeconds.append(try mutool())
        nowhereSeconds.append(try inProcess(nowhere).seconds)
        let common = try inProcess(common)
        commonSeconds.append(common.seconds)
        commonHits = common.hits
        let app = try appSearch(document: document)
        appSeconds.append(app.seconds)
        appStalls.append(app.longestPing)
    }
    let reference = Double(pageCount) / median(mutoolSeconds)
    func rate(_ seconds: [Double]) -> [String: Any] {
        let pagesPerSecond = Double(pageCount) / median(seconds)
        return [
            "pages_per_second": Int(pagesPerSecond.rounded()), "seconds_median": round2(median(seconds)),
            "ratio_to_mutool": round2(pagesPerSecond / reference),
        ]
    }
    try printJSON([
        "benchmark": "search",
        "document": fileName(document), "pages": pageCount, "runs": runs,
        "method":
            "pages per second over every page, medians of \(runs) interleaved runs; reference: mutool draw -F txt -o /dev/null of pages 1-N (one process) in the same run",
        "mutool_draw_txt": [
            "pages_per_second": Int(reference.rounded()), "seconds_median": round2(median(mutoolSeconds)),
        ],
        "in_process_found_nowhere": rate(nowhereSeconds),
        "in_process_the": rate(commonSeconds).merging(["hits": commonHits]) { a, _ in a },
        "app_found_nowhere": rate(appSeconds).merging([
            "longest_ping_ms_median": round1(median(appStalls)),
            "note": "last key to 'search done' in the log; pings every 50 ms answered meanwhile",
        ]) { a, _ in a },
    ])
}

/// Lectern searching `document` for a word found nowhere: seconds from the last key to the
/// search's end, and the longest wait for a ping's answer meanwhile (ms).
private func appSearch(document: String) throws -> (seconds: Double, longestPing: Double) {
    let session = try LecternSession(document: document, width: 1280, height: 720, keyboard: true)
    defer { session.close() }
    guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
        throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
    }
    session.compositor.keyboardEnter()
    session.tap(x: 640, y: 360)
    session.run(for: .milliseconds(400))
    let search = Scene.Chrome.buttonBox(1)
    session.tap(x: Double(search.x + 20), y: Double(search.y + 20))
    session.settle(quiet: .milliseconds(200))
    let offset = session.log.utf8.count
    // z q x j v
    for key: UInt32 in [44, 16, 45, 36, 47] {
        session.compositor.keyboardKey(key, pressed: true)
        session.compositor.keyboardKey(key, pressed: false)
        session.run(for: .milliseconds(10))
    }
    let start = ContinuousClock.now
    var longest = 0.0
    var ping: (serial: UInt32, sent: ContinuousClock.Instant)?
    var lastPing = ContinuousClock.now
    let done = session.run(timeout: .seconds(300)) {
        if let pending = ping, session.compositor.pongs.contains(pending.serial) {
            longest = max(longest, milliseconds(ContinuousClock.now - pending.sent))
            ping = nil
        }
        if ping == nil, ContinuousClock.now - lastPing > .milliseconds(50) {
            ping = (session.compositor.ping(), ContinuousClock.now)
            lastPing = ContinuousClock.now
        }
        return session.log(after: offset).contains("search done")
    }
    guard done else { throw BenchmarkError(description: "the search did not end: \(session.log(after: offset))") }
    return ((ContinuousClock.now - start).seconds, longest)
}
