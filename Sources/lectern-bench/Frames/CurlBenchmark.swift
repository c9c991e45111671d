import Foundation
import LecternCore
import LecternPDF
import LecternRender
import Logging

/// Frame time of a page-curl frame at 1920×1080 (target under 8 ms) from cached tiles, as the
/// kiosk makes one: the document view's `pageCurl()`, the plan of both spreads, the scene, and
/// compositing into the older of two buffers; over a sweep of fold positions across the
/// page, one spread (a page) and two (a double spread, where one leaf turns over the rest).
/// References measured in the same run: a slide frame at the same paging offsets (the same
/// planning and compositing without the curl), and one full-frame memcpy. A single page's
/// mirrored back is drawn as the fold uncovers it; a turn's first frame (a fifth of the way,
/// as a tap's) is reported on its own.
func runCurlBenchmark(arguments: [String]) throws {
    guard let path = arguments.first else { throw BenchmarkError(description: "curl needs a PDF") }
    let width = 1920, height = 1080
    let document = try PDFDocument(path: path)
    let pages = try firstPageGeometries(of: document)
    let viewport = PixelBox(x: 0, y: 0, width: width, height: height)
    let frames = 240
    let buffers = (0..<2).map { _ in UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64) }
    defer { buffers.forEach { $0.deallocate() } }

    /// Frame times over `frames` paging offsets between the first two spreads, curled or slid.
    func sweep(spreads: SpreadMode, transition: ViewConfiguration.PageTransition) -> (times: [Double], first: [Double])
    {
        var view = DocumentView(
            pages: PageTable(pages),
            configuration: ViewConfiguration(
                spreadMode: spreads, scrollMode: .perSpread, scrollDirection: .horizontal,
                pageTransition: transition, spacing: 12, contentInsets: EdgeInsets(all: 12)),
            viewportSize: Size(width: Double(width), height: Double(height)))
        let cache = TileCache(budget: 512 << 20)
        let planner = TilePlanner(cache: cache, budget: .bytes(cache.budget))
        let stride = view.layout.contentOffset(forContinuousSpreadIndex: 1).x
        func makePlan() -> TilePlanner.Plan {
            if let curl = view.pageCurl() { return planner.plan(curl: curl, prefetch: [], viewport: viewport) }
            return planner.plan(spreads: view.visibleLayout(), prefetch: [], viewport: viewport, zoomChanging: false)
        }
        // Every tile of both spreads cached: half-way, both show whole (curl) or in part (slide).
        for fraction in [0.5, 0.02, 0.98] {
            view.setContentOffset(Point(x: stride * fraction, y: 0))
            cacheWantedTiles(of: document, into: cache, plan: makePlan)
        }
        var compositor = FrameCompositor(logger: Logger(label: "bench"))
        var drawn = 0
        func frame(at fraction: Double) -> Double {
            view.setContentOffset(Point(x: stride * fraction, y: 0))
            let start = ContinuousClock.now
            let plan = makePlan()
            var scene = Scene(width: width, height: height)
            scene.shadows = plan.shadows
            scene.pages = plan.pages
            scene.curl = plan.curl
            compositor.draw(scene, into: buffers[drawn % 2], stride: width * 4, bufferAge: drawn < 2 ? 0 : 2)
            drawn += 1
            return milliseconds(ContinuousClock.now - start)
        }
        // The fold from the free edge to the spine and back, as a drag there and back would.
        var times: [Double] = []
        for index in 0..<frames {
            let t = Double(index % 120) / 119
            times.append(frame(at: 0.01 + 0.98 * (t < 0.5 ? 2 * t : 2 - 2 * t)))
        }
        // First frames of a turn: a new compositor has no back drawn yet; a tap's first frame
        // (a 0.25 s ease-out at 60 Hz) already shows the page a fifth of the way over.
        var first: [Double] = []
        for _ in 0..<9 {
            compositor = FrameCompositor(logger: Logger(label: "bench"))
            drawn = 0
            first.append(frame(at: 0.2))
        }
        return (times, first)
    }

    let copies = memcpyTimes(width: width, height: height, frames: frames, into: buffers[0])
    let curlSingle = sweep(spreads: .single, transition: .curl)
    let slideSingle = sweep(spreads: .single, transition: .scroll)
    let curlDouble = sweep(spreads: .double, transition: .curl)
    let slideDouble = sweep(spreads: .double, transition: .scroll)

    let reference = median(copies)
    var load = [Double](repeating: 0, count: 3)
    _ = getloadavg(&load, 3)
    var results: [String: Any] = [
        "benchmark": "page curl frame at 1920x1080 from cached tiles",
        "method":
            "per frame: pageCurl(), plan both spreads (tiles from the cache), scene, composite into the older of two buffers; \(frames) frames sweeping the fold across the sheet and back; references in the same run: a slide frame at the same paging offsets, one full-frame memcpy",
        "document": (path as NSString).lastPathComponent,
        "frames": frames,
        "target_ms": 8.0,
        "reference_full_frame_memcpy_ms_median": round3(reference),
        "load_average_1min": round3(load[0]),
    ]
    for (name, curl, slide) in [("single", curlSingle, slideSingle), ("double", curlDouble, slideDouble)] {
        results["curl_\(name)_ms_median"] = round3(median(curl.times))
        results["curl_\(name)_ms_p99"] = round3(percentile(curl.times, 0.99))
        results["curl_\(name)_first_frame_ms_median"] = round3(median(curl.first))
        results["slide_\(name)_ms_median"] = round3(median(slide.times))
        results["slide_\(name)_ms_p99"] = round3(percentile(slide.times, 0.99))
        results["curl_\(name)_ratio_to_slide"] = round3(median(curl.times) / median(slide.times))
        results["curl_\(name)_ratio_to_memcpy"] = round3(median(curl.times) / reference)
    }
    let json = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: json, as: UTF8.self))
}
