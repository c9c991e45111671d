import LecternCore
import LecternPDF
import Testing

@testable import LecternRender

/// A pan's plans made by moving the last plan's pages (`TilePlanner.moved`): each must be the
/// plan the planner makes tile by tile.
@Suite("Tile plans moved")
struct TilePlanMovesTests {
    /// Planned as the reader plans a frame with a margin around the window (`Reader.plan`).
    static func plan(
        _ planner: TilePlanner, view: DocumentView, window: PixelBox, margin: (x: Int, y: Int)
    ) -> TilePlanner.Plan {
        let around = PixelBox(
            x: -margin.x, y: -margin.y, width: window.width + 2 * margin.x, height: window.height + 2 * margin.y)
        let visible = view.visibleLayout(margin: Size(width: Double(margin.x), height: Double(margin.y)))
        return planner.plan(
            spreads: visible, prefetch: TilePlanner.prefetchPlacements(of: view, visible: visible), viewport: around,
            zoomChanging: view.isZoomChanging, window: window)
    }

    @Test(
        "a pan by whole and part pixels, up and down, zoomed in and fitted: each plan made by moving the last is the plan made tile by tile",
        arguments: [1.0, 2.5])
    func movedPlansAreFullPlans(zoom: Double) throws {
        let document = try PDFDocument(path: Fixture.sample)
        var view = try documentView(
            of: document, configuration: ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical),
            viewport: Size(width: 600, height: 400))
        if zoom != 1 { view.zoom(to: zoom, about: Point(x: 300, y: 200)) }
        let window = PixelBox(x: 0, y: 0, width: 600, height: 400)
        let margin = (x: 150, y: 100)
        let cache = TileCache(budget: 0)
        let planner = TilePlanner(cache: cache, budget: .bytes(1 << 30))
        // The reference plans tile by tile: it forgets its last plan before each.
        let reference = TilePlanner(cache: cache, budget: .bytes(1 << 30))
        // Everything the pan reaches, rendered first (the pan is the benchmark's second).
        for step in 0..<120 {
            view.scroll(by: Point(x: 0, y: step < 60 ? 4 : -4))
            for _ in 0..<8 {
                let wanted = Self.plan(reference, view: view, window: window, margin: margin).wanted
                guard !wanted.isEmpty else { break }
                for key in wanted {
                    if let content = TileContent.render(key, of: document) { cache.insert(content, for: key) }
                }
            }
        }
        var differences = 0
        for step in 0..<240 {
            let delta = step % 3 == 2 ? 2.5 : 4.0
            view.scroll(by: Point(x: 0, y: step % 120 < 60 ? delta : -delta))
            let moved = Self.plan(planner, view: view, window: window, margin: margin)
            reference.reusable = nil
            let full = Self.plan(reference, view: view, window: window, margin: margin)
            if moved.pages != full.pages || moved.shadows != full.shadows || moved.wanted != full.wanted
                || moved.isSharp != full.isSharp || moved.sharpPages != full.sharpPages
            {
                differences += 1
            }
        }
        #expect(differences == 0)
        // Not a test of nothing: most of the pan's plans were moved ones.
        #expect(planner.movedPlans > 120, "\(planner.movedPlans) of 240 plans moved")
    }
}
