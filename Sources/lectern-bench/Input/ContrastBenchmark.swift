import Foundation
import LecternCore
import LecternPDF
import LecternRender

/// What a contrast mode (issue 30) costs a page turn, against normal in the same run; target
/// within 1.1× of normal. The recolouring happens once, when a tile is drawn, so it costs only
/// the turns that render:
/// - `tile_render`: a whole page fitted in the box, rendered in process (`TileContent.render`,
///   as the render worker draws it: MuPDF, then the image areas and the recolouring) in each
///   mode, interleaved page by page after a first render that interpreted the page (so every
///   timed render rasterizes from the cached display list): the text PDF's pages 1–12 and the
///   photo page (rendered twelve times as often, for as many samples).
/// - `typed_jump_uncached`: a Lectern per mode (`--contrast`), all open at once; a typed page
///   number + Enter to a page never shown nor prefetched, the modes in turn for each page: from
///   Enter to the sharp frame (render included, no animation).
/// - `tap_turn_prefetched`: the same Lecterns, a tap at the right edge once settled (the next
///   page prefetched in that mode), from page 2 on: from touch up to the sharp frame after the
///   0.25 s turn.
func runContrastBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 5
    let (width, height) = options.size
    guard options.documents.count == 2 else {
        throw BenchmarkError(description: "contrast needs two PDFs: a text one (36 pages) and a photo page")
    }
    let text = options.documents[0], photo = options.documents[1]
    let box = (width - 2 * pageMargin, height - 2 * pageMargin)
    let modes = Contrast.Mode.allCases
    var cases: [[String: Any]] = []

    // Tile renders in process.
    for (document, pages) in [(text, Array(0..<12)), (photo, [0])] {
        let pdf = try PDFDocument(path: document)
        var times: [Contrast.Mode: [Double]] = [:]
        for page in pages {
            let grid = try fittedGrid(pdf, page: page, box: box)
            _ = render(pdf, page: page, grid: grid, contrast: .normal)  // interprets the page
            // As many renders per mode for the one photo page as for the twelve text pages.
            for run in 0..<max(1, runs) * (12 / pages.count) {
                // Each run starts with another mode, so none always goes first.
                for offset in modes.indices {
                    let mode = modes[(offset + run) % modes.count]
                    times[mode, default: []].append(render(pdf, page: page, grid: grid, contrast: Contrast(mode)))
                }
            }
        }
        // Its two parts, on the last page: finding the image areas, and recolouring the pixels.
        let page = pages[pages.count - 1]
        let grid = try fittedGrid(pdf, page: page, box: box)
        let scale = Double(grid.pageWidth) / max(1, try pdf.pageInfo(at: page).displaySize.width)
        let whole = PixelBox(x: 0, y: 0, width: grid.pageWidth, height: grid.pageHeight)
        let drawn = RasterImage(width: grid.pageWidth, height: grid.pageHeight)
        let image = RasterImage(width: grid.pageWidth, height: grid.pageHeight)
        try pdf.render(page: page, scale: scale, region: whole, into: drawn.pixels, stride: drawn.stride)
        var areas: [Double] = [], recolouring: [Contrast.Mode: [Double]] = [:]
        for _ in 0..<max(5, runs * 4) {
            let start = ContinuousClock.now
            _ = try pdf.imageAreas(page: page, scale: scale, region: whole)
            areas.append(milliseconds(ContinuousClock.now - start))
            for mode in modes where mode != .normal {
                image.pixels.copyMemory(from: drawn.pixels, byteCount: drawn.stride * drawn.height)
                let start = ContinuousClock.now
                Contrast(mode).recolor(image.pixels, width: image.width, height: image.height, stride: image.stride)
                recolouring[mode, default: []].append(milliseconds(ContinuousClock.now - start))
            }
        }
        var entry = comparison(
            name: "tile_render", document: document, times: times,
            method:
                "TileContent.render of the whole page fitted in \(box.0)x\(box.1) (one tile), in process, after a first render that interpreted it; \(max(1, runs) * (12 / pages.count)) renders per mode per page, the modes interleaved, pages \(pages.map { $0 + 1 }); its parts on page \(page + 1): PDFDocument.imageAreas and Contrast.recolor of \(grid.pageWidth)x\(grid.pageHeight) pixels"
        )
        entry["image_areas_ms_median"] = (median(areas) * 1000).rounded() / 1000
        entry["recolor_ms_median"] = Dictionary(
            uniqueKeysWithValues: recolouring.map { ($0.key.rawValue, round2(median($0.value))) })
        cases.append(entry)
    }

    // Lectern end to end: one per mode, open together.
    var sessions: [(Contrast.Mode, LecternSession)] = []
    defer { for (_, session) in sessions { session.close() } }
    for mode in modes {
        let session = try LecternSession(
            document: text, options: ["--contrast", mode.rawValue], width: width, height: height, keyboard: true)
        sessions.append((mode, session))
    }
    for (_, session) in sessions {
        try settleOpened(session)
        session.compositor.keyboardEnter()
        session.settle(quiet: .milliseconds(200))
    }
    var jumps: [Contrast.Mode: [Double]] = [:]
    for target in [20, 5, 30, 10, 25, 15, 35].prefix(max(1, runs)) {
        for (mode, session) in sessions { jumps[mode, default: []].append(try typeJump(session, to: target).shown) }
    }
    cases.append(
        comparison(
            name: "typed_jump_uncached", document: text, times: jumps,
            method:
                "a lectern per mode (--contrast), all open; digits then Enter to pages 20, 5, 30, 10, 25, 15, 35 in turn (never shown or prefetched), the modes in turn for each page; time from Enter sent to the commit showing the page sharp"
        ))
    var taps: [Contrast.Mode: [Double]] = [:]
    // From page 2 (not timed), so that every turn has a next page.
    var page = 2
    for (_, session) in sessions { _ = try typeJump(session, to: page) }
    for _ in 0..<max(1, runs) {
        page += 1
        for (mode, session) in sessions {
            taps[mode, default: []].append(try tapTurn(session, to: page, width: width, height: height).shown)
        }
    }
    cases.append(
        comparison(
            name: "tap_turn_prefetched", document: text, times: taps,
            method:
                "the same lecterns after the jumps: a tap at 90% width once settled (the next page prefetched in the mode), the modes in turn; time from touch up sent to the commit equal to the settled frame (new page sharp, turn animation ended)"
        ))

    try printJSON([
        "benchmark": "page turn in each contrast mode vs normal",
        "size": "\(width)x\(height)",
        "target_ratio_to_normal": 1.1,
        "cases": cases,
    ])
}

/// The grid of `page` fitted in `box`, as the reader would show it.
private func fittedGrid(_ document: PDFDocument, page: Int, box: (Int32, Int32)) throws -> TileGrid {
    let size = try document.pageInfo(at: page).displaySize
    let scale = min(Double(box.0) / size.width, Double(box.1) / size.height)
    return TileGrid(frameWidth: size.width * scale, frameHeight: size.height * scale)
}

/// Milliseconds to render every tile of `page` at `grid` in `contrast`.
private func render(_ document: PDFDocument, page: Int, grid: TileGrid, contrast: Contrast) -> Double {
    let start = ContinuousClock.now
    for (column, row) in grid.tiles(covering: PixelBox(x: 0, y: 0, width: grid.pageWidth, height: grid.pageHeight)) {
        _ = TileContent.render(
            TileKey(page: page, grid: grid, column: column, row: row, contrast: contrast), of: document)
    }
    return milliseconds(ContinuousClock.now - start)
}

/// One case: each mode's median and its ratio to normal's.
private func comparison(
    name: String, document: String, times: [Contrast.Mode: [Double]], method: String
)
    -> [String: Any]
{
    let normal = median(times[.normal] ?? [])
    var modes: [String: Any] = [:]
    var worst = 0.0
    for mode in Contrast.Mode.allCases {
        let values = times[mode] ?? []
        let ratio = normal > 0 ? median(values) / normal : 0
        if mode != .normal { worst = max(worst, ratio) }
        modes[mode.rawValue] = [
            "ms_median": round1(median(values)), "ms_all": values.map(round1), "ratio_to_normal": round2(ratio),
        ]
    }
    return [
        "case": name, "document": fileName(document), "method": method, "modes": modes,
        "worst_ratio_to_normal": round2(worst), "meets_target": worst <= 1.1,
    ]
}
