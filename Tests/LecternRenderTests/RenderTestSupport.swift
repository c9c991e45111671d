import Foundation
import LecternCore
import LecternPDF
import LecternRender

/// The PDFs the tests render: the shared fixtures (Tests/Fixtures, made by make-fixtures) and
/// the sample document the app ships.
enum Fixture {
    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .resolvingSymlinksInPath()
        .deletingLastPathComponent()  // LecternRenderTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func path(_ name: String) -> String { root.appendingPathComponent("Tests/Fixtures/\(name)").path }

    /// 3 pages of big dark text: A4 portrait, A4 landscape, A4 with /Rotate 90.
    static var text3Pages: String { path("text-3pages.pdf") }
    /// text-3pages.pdf whose page 2 fails to render and whose page 3 renders incomplete.
    static var damagedPage: String { path("damaged-page.pdf") }
    /// 9 pages of text, rules and a photo (the app's bundled sample): real content to compare.
    static var sample: String { root.appendingPathComponent("Sources/lectern/Resources/sample.pdf").path }
}

/// A document view over the real page geometry of `document` (as the kiosk's Reader builds it).
func documentView(
    of document: PDFDocument, configuration: ViewConfiguration, viewport: Size
) throws -> DocumentView {
    var geometries: [PageGeometry] = []
    for index in 0..<document.pageCount {
        let info = try document.pageInfo(at: index)
        func rect(_ r: PDFRect) -> Rect { Rect(x: r.x0, y: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0) }
        geometries.append(
            try PageGeometry(mediaBox: rect(info.mediaBox), cropBox: rect(info.cropBox), rotation: info.rotation))
    }
    return DocumentView(pages: PageTable(geometries), configuration: configuration, viewportSize: viewport)
}

/// Renders one tile as the kiosk does.
func renderTile(_ key: TileKey, of document: PDFDocument, cookie: RenderCookie? = nil) -> TileContent? {
    TileContent.render(key, of: document, cookie: cookie)
}

/// MuPDF's own rendering of `region` (pixels of the page drawn at `scale`), for comparing.
func renderReference(
    _ document: PDFDocument, page: Int, scale: Double, region: PixelBox
) throws -> RasterImage {
    let image = RasterImage(width: region.width, height: region.height)
    try document.render(
        page: page, scale: scale,
        region: PixelRect(x: region.x, y: region.y, width: region.width, height: region.height),
        into: image.pixels, stride: image.stride)
    return image
}

/// Where the kiosk prefetches.
func prefetchPlacements(of view: DocumentView) -> [TilePlanner.Placement] {
    TilePlanner.prefetchPlacements(of: view, visible: view.visibleLayout())
}

/// A planner over a cache, with the document view it plans for and the document it renders.
struct Pipeline {
    let document: PDFDocument
    var view: DocumentView
    let cache: TileCache
    let planner: TilePlanner
    let viewport: PixelBox

    init(document: PDFDocument, view: DocumentView, cacheBudget: Int = 256 << 20) {
        self.document = document
        self.view = view
        cache = TileCache(budget: cacheBudget)
        planner = TilePlanner(cache: cache)
        viewport = PixelBox(
            x: 0, y: 0, width: Int(view.viewportSize.width), height: Int(view.viewportSize.height))
    }

    /// One frame's plan for the view as it is now.
    func plan() -> TilePlanner.Plan {
        planner.plan(
            spreads: view.visibleLayout(), prefetch: prefetchPlacements(of: view), viewport: viewport,
            zoomChanging: view.isZoomChanging)
    }

    /// Renders `keys` with MuPDF into the cache, as the scheduler's results would be filed.
    func render(_ keys: [TileKey]) {
        for key in keys {
            if let content = renderTile(key, of: document) { cache.insert(content, for: key) }
        }
    }

    /// Plans and renders what is wanted until nothing is; returns the settled plan.
    func settle() -> TilePlanner.Plan {
        var plan = self.plan()
        for _ in 0..<8 where !plan.wanted.isEmpty {
            render(plan.wanted)
            plan = self.plan()
        }
        return plan
    }

    /// The frame the kiosk composes from `plan`.
    func scene(_ plan: TilePlanner.Plan) -> Scene {
        var scene = Scene(width: viewport.width, height: viewport.height)
        scene.shadows = plan.shadows
        scene.pages = plan.pages
        return scene
    }
}

/// How far a region of a frame buffer is from a reference image.
struct PixelDifference: CustomStringConvertible {
    /// The mean absolute difference per colour channel (0...255).
    var mean: Double
    /// The largest difference of any channel.
    var max: Int
    /// The fraction of pixels with some channel off by more than `threshold`.
    var fractionOff: Double
    var threshold: Int
    var pixels: Int

    var description: String {
        "mean \(String(format: "%.3f", mean)), max \(max), \(String(format: "%.4f", fractionOff * 100))% of \(pixels) pixels off by > \(threshold)"
    }

    /// Compares `box` of `buffer` with the pixels of `reference` starting at (`referenceX`, `referenceY`).
    init(
        _ buffer: FrameCompositorTests.Buffer, _ box: PixelBox, _ reference: RasterImage, referenceX: Int = 0,
        referenceY: Int = 0, threshold: Int = 32
    ) {
        var sum = 0, largest = 0, off = 0
        for y in 0..<box.height {
            for x in 0..<box.width {
                let a = buffer.pixel(box.x + x, box.y + y)
                let b = reference.pixel(x: referenceX + x, y: referenceY + y)
                var worst = 0
                for shift in [0, 8, 16] as [UInt32] {
                    let d = abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
                    sum += d
                    worst = Swift.max(worst, d)
                }
                largest = Swift.max(largest, worst)
                if worst > threshold { off += 1 }
            }
        }
        pixels = box.width * box.height
        mean = pixels == 0 ? 0 : Double(sum) / Double(3 * pixels)
        max = largest
        fractionOff = pixels == 0 ? 0 : Double(off) / Double(pixels)
        self.threshold = threshold
    }
}

/// Pixels of `box` in `buffer` that are dark (ink), to check a comparison is not of blank paper.
func inkPixels(_ buffer: FrameCompositorTests.Buffer, _ box: PixelBox) -> Int {
    var count = 0
    for y in box.y..<box.maxY {
        for x in box.x..<box.maxX where (buffer.pixel(x, y) >> 8 & 0xFF) < 128 { count += 1 }
    }
    return count
}
