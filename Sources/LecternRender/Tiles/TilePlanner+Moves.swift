import LecternCore

extension TilePlanner {
    /// A page as a plan placed it, and the tiles it took: those covering its visible part and,
    /// of those, the ones meeting the window (a grid's columns and rows; nil: none).
    struct PlannedPage: Equatable {
        var page: Int
        /// The page's frame in the layout (pixels, not rounded): its size gives the grid.
        var width: Double
        var height: Double
        /// Its frame in whole pixels.
        var frame: PixelBox
        var columns: ClosedRange<Int>
        var rows: ClosedRange<Int>
        var windowColumns: ClosedRange<Int>?
        var windowRows: ClosedRange<Int>?

        /// The tiles of `place` that cover its visible part, and of those the ones meeting
        /// `window`: as `plan` goes over them (`TileGrid.tiles(covering:)`).
        init(_ place: PlacedPage, window: PixelBox) {
            let (grid, frame) = (place.grid, place.frame)
            let area = place.visible.offsetBy(dx: -frame.x, dy: -frame.y)
                .intersection(PixelBox(x: 0, y: 0, width: grid.pageWidth, height: grid.pageHeight))
            let size = grid.tileSize
            // The columns (or rows) of `range` whose tiles reach into low..<high.
            func meeting(
                _ range: ClosedRange<Int>, from start: Int, extent: Int, _ low: Int, _ high: Int
            )
                -> ClosedRange<Int>?
            {
                let met = range.filter { start + $0 * size < high && start + min(($0 + 1) * size, extent) > low }
                return met.first.map { $0...met.last! }
            }
            page = place.layout.page
            width = place.layout.frame.width
            height = place.layout.frame.height
            self.frame = frame
            columns = area.x / size...(area.maxX - 1) / size
            rows = area.y / size...(area.maxY - 1) / size
            windowColumns = meeting(columns, from: frame.x, extent: grid.pageWidth, window.x, window.maxX)
            windowRows = meeting(rows, from: frame.y, extent: grid.pageHeight, window.y, window.maxY)
        }

        /// The same tiles, classed the same way, of a page of the same size.
        func takesSameTiles(as other: PlannedPage) -> Bool {
            page == other.page && width == other.width && height == other.height && columns == other.columns
                && rows == other.rows && windowColumns == other.windowColumns && windowRows == other.windowRows
        }
    }

    /// The last plan, when a move of its pages makes the next one (`moved`): every tile it
    /// shows or keeps around the window was cached and nothing was wanted, so the next plan
    /// differs only by where the pages are, as long as the cache is as it was (its generation),
    /// the same tiles cover the same pages, and the same of them meet the window.
    struct Reusable {
        var plan: Plan
        var pages: [PlannedPage]
        var generation: Int
        var viewport: PixelBox
        var window: PixelBox
        var scale: DisplayScale
        var zoomChanging: Bool
        var contrast: Contrast
        var budget: TileBudget
        /// The pages to prefetch and the sizes they would have (their keys' grids).
        var prefetch: [PrefetchedPage]
    }

    struct PrefetchedPage: Equatable {
        var page: Int
        var width: Double
        var height: Double

        static func pages(of placements: [Placement]) -> [PrefetchedPage] {
            placements.map { PrefetchedPage(page: $0.page, width: $0.frame.width, height: $0.frame.height) }
        }
    }

    /// The last plan with its pages where `spreads` put them now, when that is the plan
    /// `plan(spreads:…)` would make (see `Reusable`); nil otherwise. Its shadows, frames and
    /// clips are worked out as `plan` does; its layers are the last plan's, moved with their
    /// page. Nothing else changes: the same tiles are pinned, none is wanted.
    func moved(
        spreads: [SpreadLayoutAttributes], prefetch: [Placement], viewport: PixelBox, window: PixelBox,
        scale: DisplayScale, zoomChanging: Bool, thumbnails: [Thumbnail]
    ) -> Plan? {
        guard var last = reusable, last.generation == cache.generation, last.viewport == viewport,
            last.window == window, last.scale == scale, last.zoomChanging == zoomChanging, last.contrast == contrast,
            last.budget == budget, thumbnails.isEmpty,
            last.prefetch == PrefetchedPage.pages(of: prefetch)
        else { return nil }
        let placed = Self.place(spreads, in: viewport)
        guard placed.pages.count == last.pages.count else { return nil }
        var plan = last.plan
        plan.shadows = placed.shadows
        plan.pages = []
        for (index, place) in placed.pages.enumerated() {
            let now = PlannedPage(place, window: window)
            let before = last.pages[index]
            guard now.takesSameTiles(as: before) else { return nil }
            let (dx, dy) = (now.frame.x - before.frame.x, now.frame.y - before.frame.y)
            plan.pages.append(
                Scene.PageItem(
                    page: now.page, frame: now.frame, clip: place.clip,
                    layers: last.plan.pages[index].layers.map { $0.offsetBy(dx: dx, dy: dy) }))
            last.pages[index] = now
        }
        last.plan = plan
        reusable = last
        movedPlans += 1
        return plan
    }
}
