import Foundation
import LecternCore
import LecternPDF
import LecternRender
import Logging

/// Frame time of a 1920×1080 frame from cached tiles (real MuPDF tiles of a real page), as the
/// kiosk makes one: planning (which tiles, from the cache, pinned), the scene, and compositing
/// into the older of two buffers (a double-buffered swap chain: buffer age 2, so each frame
/// repaints what changed in the last two). Panning (pages move, tiles are copied 1:1) and
/// zoomed with bilinear filtering (a pinch in flux draws the tiles of the previous zoom
/// scaled). The reference, measured in the same run, is copying one full frame with memcpy:
/// the least any frame that changes every pixel can cost here.
func runComposeBenchmark(arguments: [String]) throws {
    guard let path = arguments.first else { throw BenchmarkError(description: "compose needs a PDF") }
    let width = 1920, height = 1080
    let document = try PDFDocument(path: path)
    let pages = try firstPageGeometries(of: document)
    var view = DocumentView(
        pages: PageTable(pages), configuration: ViewConfiguration(scrollMode: .continuous, spacing: 12),
        viewportSize: Size(width: Double(width), height: Double(height)))
    let cache = TileCache(budget: 512 << 20)
    let planner = TilePlanner(cache: cache, budget: .bytes(cache.budget))
    let viewport = PixelBox(x: 0, y: 0, width: width, height: height)

    /// Renders everything the plan wants, synchronously, into the cache.
    func fill(zoomChanging: Bool = false) throws {
        for _ in 0..<4 {
            let plan = planner.plan(
                spreads: view.visibleLayout(), prefetch: [], viewport: viewport, zoomChanging: zoomChanging)
            if plan.wanted.isEmpty { return }
            for key in plan.wanted {
                guard let content = TileContent.render(key, of: document) else { continue }
                cache.insert(content, for: key)
            }
        }
    }

    let buffers = (0..<2).map { _ in UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64) }
    defer { buffers.forEach { $0.deallocate() } }
    let buffer = buffers[0]
    let compositor = FrameCompositor(logger: Logger(label: "bench"))
    let frames = 240
    var drawn = 0

    /// Plans, builds the scene and composes one frame into the older buffer; returns the time.
    func frame(zoomChanging: Bool) -> (milliseconds: Double, damage: [PixelBox]) {
        let start = ContinuousClock.now
        let plan = planner.plan(
            spreads: view.visibleLayout(), prefetch: [], viewport: viewport, zoomChanging: zoomChanging)
        var scene = Scene(width: width, height: height)
        scene.shadows = plan.shadows
        scene.pages = plan.pages
        let age = drawn < 2 ? 0 : 2
        let damage = compositor.draw(scene, into: buffers[drawn % 2], stride: width * 4, bufferAge: age)
        drawn += 1
        return (milliseconds(ContinuousClock.now - start), damage)
    }

    let copies = memcpyTimes(width: width, height: height, frames: frames, into: buffer)

    // Panning at zoom 1: every frame the document moves 3 px; all tiles cached.
    view.scroll(by: Point(x: 0, y: 300))
    try fill()
    var panning: [Double] = []
    var pannedPixels = 0
    for index in 0..<frames {
        view.scroll(by: Point(x: 0, y: index % 120 < 60 ? 3 : -3))
        try fill()
        let (time, damage) = frame(zoomChanging: false)
        panning.append(time)
        pannedPixels += damage.reduce(0) { $0 + $1.width * $1.height }
    }

    // Zoom in flux: a pinch from 1.0 to 1.5 and back, drawn from the zoom-1 tiles scaled.
    var zooming: [Double] = []
    for index in 0..<frames {
        let t = Double(index % 120) / 119
        let scale = 1 + 0.5 * (t < 0.5 ? 2 * t : 2 - 2 * t) + 0.001 * Double(index % 7)
        view.zoom(to: max(1.01, scale), about: Point(x: Double(width) / 2, y: Double(height) / 2))
        zooming.append(frame(zoomChanging: true).milliseconds)
    }

    let reference = median(copies)
    let json = try JSONSerialization.data(
        withJSONObject: [
            "benchmark": "compose a 1920x1080 frame from cached tiles",
            "method":
                "per frame: plan (tiles from the cache), scene, composite into the older of two buffers (age 2: this frame's damage plus the last one's); \(frames) frames each; reference: one full-frame memcpy, same run",
            "document": (path as NSString).lastPathComponent,
            "frames": frames,
            "reference_full_frame_memcpy_ms_median": round3(reference),
            "panning_ms_median": round3(median(panning)),
            "panning_ms_p95": round3(percentile(panning, 0.95)),
            "panning_damaged_fraction_of_frame": round3(Double(pannedPixels) / Double(frames * width * height)),
            "panning_ratio_to_memcpy": round3(median(panning) / reference),
            "panning_target_ms": 1.0,
            "zoom_bilinear_ms_median": round3(median(zooming)),
            "zoom_bilinear_ms_p95": round3(percentile(zooming, 0.95)),
            "zoom_bilinear_ratio_to_memcpy": round3(median(zooming) / reference),
            "zoom_bilinear_target_ms": 4.0,
        ], options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: json, as: UTF8.self))
}

/// The geometries of a document's first pages (at most 8), for the views benchmarks lay out.
func firstPageGeometries(of document: PDFDocument) throws -> [PageGeometry] {
    try (0..<min(document.pageCount, 8)).map { index in
        let info = try document.pageInfo(at: index)
        return try PageGeometry(mediaBox: info.cropBox, rotation: info.rotation)
    }
}

/// Renders into `cache` every tile the plan wants until it wants none (at most four rounds:
/// previews, then sharp tiles).
func cacheWantedTiles(of document: PDFDocument, into cache: TileCache, plan: () -> TilePlanner.Plan) {
    for _ in 0..<4 {
        let wanted = plan().wanted
        if wanted.isEmpty { break }
        for key in wanted {
            if let content = TileContent.render(key, of: document) { cache.insert(content, for: key) }
        }
    }
}

/// The reference for frame times: `frames` copies of one full `width` × `height` frame into
/// `buffer` with memcpy, each timed (milliseconds).
func memcpyTimes(width: Int, height: Int, frames: Int, into buffer: UnsafeMutableRawPointer) -> [Double] {
    let source = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
    defer { source.deallocate() }
    source.initializeMemory(as: UInt8.self, repeating: 0x7F, count: width * height * 4)
    return (0..<frames).map { _ in
        let start = ContinuousClock.now
        buffer.copyMemory(from: source, byteCount: width * height * 4)
        return milliseconds(ContinuousClock.now - start)
    }
}

func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
}
