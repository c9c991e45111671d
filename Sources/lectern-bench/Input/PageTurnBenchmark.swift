import Foundation
import LecternCore
import LecternPDF
import LecternRender
import LecternTestSupport

/// Page turn and page jump latency: from the input event (sent and flushed by the test
/// compositor) to the commit that shows the new page sharp and at rest, and to the first commit
/// that changed at all. The reference, measured interleaved in the same run, is the same page
/// rendered into the same box by MuPDF in this process, on a document already open (as
/// Lectern's is): the page's first render, interpreting and rasterizing it. `mutool draw` of the
/// same page (process start to exit) is reported too, as the cold-start figure.
///
/// Four cases:
/// - `tap_turn_prefetched`: a tap on the right edge of the 36-page document once Lectern has
///   settled, so the next page was prefetched; Lectern animates the turn (0.3 s).
/// - `tap_turn_not_prefetched`: the same with `--cache-mb 2`, which holds the page on screen
///   but leaves no room for the next page's sharp tiles (only its small preview).
/// - `typed_jump_uncached`: typed page number + Enter in the 36-page document to a page never
///   shown nor next to one shown (so never prefetched); no animation.
/// - `typed_jump_9000`: a fresh Lectern on the 15,000-page document, settled at page 1 with all
///   page sizes read, then 9000 + Enter.
func runPageTurnBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 5
    let (width, height) = options.size
    let documents = options.documents
    guard documents.count == 2 else {
        throw BenchmarkError(description: "latency needs two PDFs: a short text one (36 pages) and the 15,000-page one")
    }
    let short = documents[0], long = documents[1]
    let box = (width - 2 * pageMargin, height - 2 * pageMargin)

    var cases: [[String: Any]] = []
    // Taps: one Lectern per case, `runs` turns in a row, each after Lectern settled.
    for (name, options, method) in [
        (
            "tap_turn_prefetched", [String](),
            "tap (down, 30 ms, up) at 90% width in per-spread mode after Lectern settled (next page prefetched); time from touch up sent to the commit equal to the settled frame (new page sharp, 0.3 s turn animation ended) and to the first commit that changed"
        ),
        (
            "tap_turn_not_prefetched", ["--cache-mb", "2"],
            "as tap_turn_prefetched but with --cache-mb 2: the page on screen fits, the next page's sharp tiles do not (prefetch skips them; only its preview is cached), so the turn renders the new page while animating"
        ),
    ] {
        let session = try LecternSession(document: short, options: options, width: width, height: height)
        defer { session.close() }
        try settleOpened(session)
        // Open for the reference, each case afresh: every page's first render in it.
        let warm = try PDFDocument(path: short)
        var samples: [Sample] = []
        var references: [Double] = []
        var warmReferences: [Double] = []
        for run in 0..<runs {
            let target = run + 2
            let sample = try tapTurn(session, to: target, width: width, height: height)
            samples.append(sample)
            references.append(try mutoolDraw(document: short, page: target, width: box.0, height: box.1))
            warmReferences.append(try warmRender(warm, page: target, box: box))
        }
        cases.append(
            report(
                name: name, document: short, method: method, samples: samples, references: references,
                warm: warmReferences))
    }

    // Typed jumps to pages never shown and never next to a shown page.
    do {
        let session = try LecternSession(document: short, width: width, height: height, keyboard: true)
        defer { session.close() }
        try settleOpened(session)
        let warm = try PDFDocument(path: short)
        session.compositor.keyboardEnter()
        session.settle(quiet: .milliseconds(200))
        var samples: [Sample] = []
        var references: [Double] = []
        var warmReferences: [Double] = []
        for target in [20, 5, 30, 10, 25, 15, 35].prefix(max(1, runs)) {
            samples.append(try typeJump(session, to: target))
            references.append(try mutoolDraw(document: short, page: target, width: box.0, height: box.1))
            warmReferences.append(try warmRender(warm, page: target, box: box))
        }
        cases.append(
            report(
                name: "typed_jump_uncached", document: short,
                method:
                    "digits then Enter (keyboard) in per-spread mode to pages 20, 5, 30, 10, 25, 15, 35 in turn: none shown or prefetched before (prefetch is the next and previous spread); time from Enter sent to the commit equal to the settled frame (page sharp), and to the first commit that changed",
                samples: samples, references: references, warm: warmReferences))
    }

    // The 9000-page jump, a fresh Lectern each run.
    do {
        var samples: [Sample] = []
        var references: [Double] = []
        var warmReferences: [Double] = []
        var sizesRead: [String] = []
        let warm = try PDFDocument(path: long)
        for run in 0..<runs {
            let session = try LecternSession(document: long, width: width, height: height, keyboard: true)
            defer { session.close() }
            try settleOpened(session)
            if let line = session.log.split(separator: "\n").first(where: { $0.contains("read the sizes") }),
                let range = line.range(of: "read the sizes")
            {
                sizesRead.append(String(line[range.lowerBound...]))
            }
            session.compositor.keyboardEnter()
            session.settle(quiet: .milliseconds(200))
            samples.append(try typeJump(session, to: 9000))
            references.append(try mutoolDraw(document: long, page: 9000, width: box.0, height: box.1))
            // A page of the long document not rendered in this process before (its first render).
            warmReferences.append(try warmRender(warm, page: 9000 + run, box: box))
        }
        var entry = report(
            name: "typed_jump_9000", document: long,
            method:
                "fresh lectern at page 1, settled (first page sharp, all page sizes read, no commit for 400 ms), then 9000 + Enter; time from Enter sent to the commit equal to the settled frame (page 9000 sharp, confirmed by the 'sharp frame committed: pages 9000' log line), and to the first commit that changed",
            samples: samples, references: references, warm: warmReferences)
        entry["lectern_page_size_reads"] = sizesRead
        cases.append(entry)
    }

    try printJSON([
        "benchmark": "page turn and jump latency",
        "size": "\(width)x\(height)",
        "target_ms_text_pages": 25.0,
        "reference":
            "the same page's first render fitted in the same box by MuPDF in this process on an already-open document (TileContent.render: interpret and rasterize), after each sample; cold-start figure: mutool draw -F pam of the same page (process time)",
        "cases": cases,
    ])
}

/// What one page turn or jump took, in ms from the input event.
struct Sample {
    var firstChange: Double
    var shown: Double
    var commits: Int
    /// Whether Lectern logged `view state: page N` for the page it came to rest on.
    var viewStateLogged: Bool
}

/// Waits for the first page, the page sizes, and then for quiet (prefetch done).
func settleOpened(_ session: LecternSession) throws {
    guard session.waitForLog("read the sizes of", timeout: .seconds(60)) else {
        throw BenchmarkError(description: "lectern did not read the page sizes of \(session.document): \(session.log)")
    }
    guard session.settle(), session.lastFrame != nil else {
        throw BenchmarkError(description: "lectern did not settle on \(session.document): \(session.log)")
    }
}

/// A tap (down, 30 ms, up) at 90% of the width, turning to `page`; measured from the touch up.
func tapTurn(_ session: LecternSession, to page: Int, width: Int32, height: Int32) throws -> Sample {
    let offset = session.log.utf8.count
    return try measure(session, expecting: page, logOffset: offset) {
        session.compositor.touchDown(id: 0, x: Double(width) * 0.9, y: Double(height) / 2)
        session.compositor.touchFrame()
        session.run(for: .milliseconds(30))
    } event: {
        session.compositor.touchUp(id: 0)
        session.compositor.touchFrame()
    }
}

/// Types `page` then Enter; measured from Enter. `awaiting` is the log line that says the page
/// is shown (nil: its sharp frame's).
func typeJump(_ session: LecternSession, to page: Int, awaiting: String? = nil) throws -> Sample {
    for digit in String(page) {
        session.compositor.keyboardKey(EvdevKey.digit(digit), pressed: true)
        session.compositor.keyboardKey(EvdevKey.digit(digit), pressed: false)
        session.run(for: .milliseconds(20))
    }
    session.settle(quiet: .milliseconds(200))
    let offset = session.log.utf8.count
    return try measure(session, expecting: page, logOffset: offset, awaiting: awaiting, prepare: {}) {
        session.compositor.keyboardKey(EvdevKey.enter, pressed: true)
        session.compositor.keyboardKey(EvdevKey.enter, pressed: false)
    }
}

/// Sends `event`, waits until Lectern rests on page `expecting` (its sharp frame's log line, or
/// `awaiting`, and no commit for 400 ms), and finds the commits: the first that differs from the
/// frame before the event, and the first equal to the frame it rests on.
private func measure(
    _ session: LecternSession, expecting page: Int, logOffset: Int, awaiting: String? = nil, prepare: () -> Void,
    event: () -> Void
) throws -> Sample {
    prepare()
    guard let before = session.lastFrame else { throw BenchmarkError(description: "no frame before the event") }
    let known = before.sequence
    let start = ContinuousClock.now
    event()
    session.dispatch(timeout: .zero)  // flushes the event to Lectern
    // The view-state line is not a reliable end: Lectern logs it only with a commit, and the
    // last steps of an eased turn often change no pixel, so nothing is committed at its end.
    guard
        session.waitForLog(
            awaiting ?? "sharp frame committed: pages \(page) ", after: logOffset, timeout: .seconds(10)),
        session.settle(quiet: .milliseconds(400))
    else {
        throw BenchmarkError(
            description: "lectern did not come to rest on page \(page): \(session.log(after: logOffset))")
    }
    let after = session.frames.filter { $0.sequence > known }
    guard let rest = after.last, let firstChange = after.first(where: { $0.contentHash != before.contentHash }),
        let shown = after.first(where: { $0.contentHash == rest.contentHash })
    else { throw BenchmarkError(description: "no commit showed page \(page)") }
    return Sample(
        firstChange: milliseconds(firstChange.timestamp - start), shown: milliseconds(shown.timestamp - start),
        commits: after.count,
        viewStateLogged: session.log(after: logOffset).contains("view state: page \(page)\n"))
}

/// The first render of page `page` (1-based) fitted in `box`, on `document` already open.
private func warmRender(_ document: PDFDocument, page: Int, box: (Int32, Int32)) throws -> Double {
    let size = try document.pageInfo(at: page - 1).displaySize
    let scale = min(Double(box.0) / size.width, Double(box.1) / size.height)
    let grid = TileGrid(frameWidth: size.width * scale, frameHeight: size.height * scale)
    let start = ContinuousClock.now
    for (column, row) in grid.tiles(covering: PixelBox(x: 0, y: 0, width: grid.pageWidth, height: grid.pageHeight)) {
        _ = TileContent.render(TileKey(page: page - 1, grid: grid, column: column, row: row), of: document)
    }
    return milliseconds(ContinuousClock.now - start)
}

private func report(
    name: String, document: String, method: String, samples: [Sample], references: [Double], warm: [Double]
)
    -> [String: Any]
{
    let shown = median(samples.map(\.shown)), reference = median(references), warmReference = median(warm)
    return [
        "case": name,
        "document": fileName(document),
        "method": method,
        "runs": samples.count,
        "shown_sharp_ms_median": round1(shown),
        "shown_sharp_ms_all": samples.map { round1($0.shown) },
        "first_change_ms_median": round1(median(samples.map(\.firstChange))),
        "first_change_ms_all": samples.map { round1($0.firstChange) },
        "commits_per_turn_all": samples.map(\.commits),
        "view_state_logged_all": samples.map(\.viewStateLogged),
        "warm_render_ms_median": round1(warmReference),
        "warm_render_ms_all": warm.map(round1),
        "shown_sharp_ratio_to_warm_render": round2(shown / warmReference),
        "cold_mutool_draw_ms_median": round1(reference),
        "cold_mutool_draw_ms_all": references.map(round1),
        "target_ms": 25.0,
        "meets_target": shown <= 25,
    ]
}
