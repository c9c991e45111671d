import Foundation
import LecternCore
import LecternPDF
import LecternRender
import Logging

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
        geometries.append(
            try PageGeometry(mediaBox: info.mediaBox, cropBox: info.cropBox, rotation: info.rotation))
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
        region: PixelBox(x: region.x, y: region.y, width: region.width, height: region.height),
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
    /// The buffer: the view's viewport in whole pixels.
    var viewport: PixelBox {
        PixelBox(x: 0, y: 0, width: Int(view.viewportSize.width), height: Int(view.viewportSize.height))
    }

    init(document: PDFDocument, view: DocumentView, cacheBudget: Int = 256 << 20) {
        self.init(document: document, view: view, budget: .bytes(cacheBudget))
    }

    init(document: PDFDocument, view: DocumentView, budget: TileBudget) {
        self.document = document
        self.view = view
        cache = TileCache(budget: 0)
        planner = TilePlanner(cache: cache, budget: budget)
    }

    /// A new screen size (a resize or a rotation): the view keeps its state.
    mutating func resize(to size: Size) {
        view.setViewportSize(size)
    }

    /// Plans, renders the most urgent tile wanted, files it, and again, until nothing is wanted
    /// (or `limit` renders): the kiosk's loop with tiles arriving one by one. Returns the
    /// settled plan and every tile rendered, in order.
    func settleOneAtATime(limit: Int = 300) -> (plan: TilePlanner.Plan, renders: [TileKey]) {
        var renders: [TileKey] = []
        var plan = self.plan()
        while let key = plan.wanted.first, renders.count < limit {
            renders.append(key)
            render([key])
            plan = self.plan()
        }
        return (plan, renders)
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

    /// Draws `plan` into a new buffer.
    func compose(_ plan: TilePlanner.Plan) -> FrameCompositorTests.Buffer {
        let buffer = FrameCompositorTests.Buffer(width: viewport.width, height: viewport.height)
        FrameCompositor(logger: Logger(label: "test")).draw(
            scene(plan), into: buffer.pixels, stride: buffer.stride, bufferAge: 0)
        return buffer
    }

    /// How each visible page of `buffer` differs from MuPDF rendering that page at the scale
    /// and place the document view shows it (the page's origin rounded to whole pixels, as
    /// pages are drawn), over the part of the page inside its spread's clip and the viewport.
    func differences(
        _ buffer: FrameCompositorTests.Buffer, threshold: Int
    ) throws -> [(page: Int, box: PixelBox, difference: PixelDifference)] {
        var result: [(Int, PixelBox, PixelDifference)] = []
        for spread in view.visibleLayout() {
            // Rounded to whole pixels as the planner clips spreads.
            let r = spread.clipRect
            let x0 = Int(r.minX.rounded()), y0 = Int(r.minY.rounded())
            let clip = PixelBox(x: x0, y: y0, width: Int(r.maxX.rounded()) - x0, height: Int(r.maxY.rounded()) - y0)
                .intersection(viewport)
            for page in spread.pages {
                let info = try document.pageInfo(at: page.page)
                // Pages are drawn at whole-pixel sizes (the tile grid's), from their rounded origin.
                let grid = TileGrid(frameWidth: page.frame.width, frameHeight: page.frame.height)
                let scale = Double(grid.pageWidth) / info.displaySize.width
                let origin = (x: Int(page.frame.minX.rounded()), y: Int(page.frame.minY.rounded()))
                let box = PixelBox(x: origin.x, y: origin.y, width: grid.pageWidth, height: grid.pageHeight)
                    .intersection(clip)
                guard !box.isEmpty else { continue }
                let reference = try renderReference(
                    document, page: page.page, scale: scale, region: box.offsetBy(dx: -origin.x, dy: -origin.y))
                result.append((page.page, box, PixelDifference(buffer, box, reference, threshold: threshold)))
            }
        }
        return result
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
        // Row by row through raw pointers: the tests build without optimisation, and whole
        // screens are compared.
        for y in 0..<box.height {
            let a = (buffer.pixels + (box.y + y) * buffer.stride + box.x * 4).assumingMemoryBound(to: UInt32.self)
            let b = (reference.pixels + (referenceY + y) * reference.stride + referenceX * 4)
                .assumingMemoryBound(to: UInt32.self)
            for x in 0..<box.width {
                let p = a[x], q = b[x]
                guard p != q else { continue }
                let d0 = abs(Int(p & 0xFF) - Int(q & 0xFF))
                let d1 = abs(Int(p >> 8 & 0xFF) - Int(q >> 8 & 0xFF))
                let d2 = abs(Int(p >> 16 & 0xFF) - Int(q >> 16 & 0xFF))
                sum += d0 + d1 + d2
                let worst = Swift.max(d0, d1, d2)
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
