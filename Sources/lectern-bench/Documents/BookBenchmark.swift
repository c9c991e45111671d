import Foundation
import LecternCore
import LecternDocuments
import LecternPDF
import LecternRender
import LecternTestSupport
import Logging

/// Books (issue 35): a generated EPUB of about `targetPages` pages at the screen's layout.
/// - `first_frame`: spawn → Lectern's first sharp commit of page 1 under the test compositor (the
///   book opened, laid out for the screen, page 1 drawn), vs `mutool draw` of its page 1 at the
///   same size, interleaved in the same run (mutool lays it out at its own default size, once).
/// - `relayout`: in the render worker (`RenderProcess`, the real binary), the whole book laid out
///   again after a type-size change (100 % → 150 %, keeping a page two thirds in, and back), and
///   the kept page's first tile (a screen-sized preview) after it: what a visitor waits for.
func runBookBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 5
    let (width, height) = options.size
    let path = try freshDirectory("book").appendingPathComponent("book.epub").path
    // About 300 pages of 960 x 540 points at 12-point type: 30 chapters of 165 paragraphs.
    let targetPages = 300
    try GeneratedEPUB.numbered(chapters: 30, paragraphs: 165, title: "A Benchmark Book").write(to: path)

    var firstFrames: [Double] = [], mutool: [Double] = []
    var earlier = 0
    for run in 0..<runs {
        for program in run % 2 == 0 ? [0, 1] : [1, 0] {
            if program == 0 {
                let frame = try lecternFirstSharpFrame(document: path, width: width, height: height)
                firstFrames.append(frame.milliseconds)
                if frame.earlierFrames > 0 { earlier += 1 }
            } else {
                mutool.append(
                    try mutoolDraw(document: path, width: width - 2 * pageMargin, height: height - 2 * pageMargin))
            }
        }
    }

    let worker = try RenderProcess(
        settings: RenderProcess.Settings(
            executable: try LecternProcess.lecternExecutable().path, documentPath: path, password: nil, startPage: 0,
            channels: 2, addressSpace: 2048 << 20),
        logger: Logger(label: "bench"))
    defer { worker.stop() }
    let book = try ShownDocument.open(worker)
    let points = (width: Double(width) * 0.75, height: Double(height) * 0.75)
    let normal = BookLayout(page: points, fontSizePercent: 100)
    let larger = BookLayout(page: points, fontSizePercent: 150)
    let first = try book.layOut(normal, keeping: -1).get()
    var layouts: [Double] = [], firstTiles: [Double] = [], counts: [Int] = []
    var page = first.pageCount * 2 / 3
    for run in 0..<(2 * runs) {
        let layout = run % 2 == 0 ? larger : normal
        let start = ContinuousClock.now
        let laid = try book.layOut(layout, keeping: page).get()
        let laidOut = ContinuousClock.now
        let size = book.firstPageInfo().displaySize
        let scale = min(Double(width) / size.width, Double(height) / size.height)
        let key = TileKey(
            page: laid.page, pageWidth: Int((size.width * scale).rounded()),
            pageHeight: Int((size.height * scale).rounded()), kind: .preview)
        guard case .image? = book.renderTile(key, cookie: RenderCookie()) else {
            throw BenchmarkError(description: "page \(laid.page + 1) of the book laid out again did not render")
        }
        layouts.append(milliseconds(laidOut - start))
        firstTiles.append(milliseconds(ContinuousClock.now - laidOut))
        counts.append(laid.pageCount)
        page = laid.page
    }
    let lectern = median(firstFrames), reference = median(mutool)
    try printJSON([
        "benchmark": "book",
        "method":
            "a generated EPUB; first frame through the real binary under the test compositor vs mutool draw of page 1, interleaved; layouts in the render worker (RenderProcess), medians",
        "size": "\(width)x\(height)",
        "runs": runs,
        "target_pages": targetPages,
        "pages_at_100_percent": first.pageCount,
        "pages_at_150_percent": counts.first ?? 0,
        "first_frame_ms_median": round1(lectern),
        "first_frame_ms_all": firstFrames.map(round1),
        "runs_with_an_earlier_frame": earlier,
        "mutool_draw_page_1_ms_median": round1(reference),
        "mutool_draw_page_1_ms_all": mutool.map(round1),
        "ratio_to_mutool_draw": round2(lectern / reference),
        "relayout_whole_book_ms_median": round1(median(layouts)),
        "relayout_whole_book_ms_all": layouts.map(round1),
        "first_page_after_relayout_ms_median": round1(median(firstTiles)),
        "first_page_after_relayout_ms_all": firstTiles.map(round1),
    ])
}
