import LecternCore

extension TilePlanner {
    /// A page as a plan placed it, and the tiles it took: those covering its visible part and,
    /// of those, the ones meeting the window (a grid's columns and rows; nil: none).
    struct PlannedPage: Equatable {
        var page: Int
        /// The page's frame in the layout (pixels, not rounded): its size gives the grid.
        var width: Double
        var height: Double
        var origin: PixelBox
        var columns: ClosedRange<Int>
        var rows: ClosedRange<Int>
        var windowColumns: ClosedRange<Int>?
        var windowRows: ClosedRange<Int>?

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
    }

    /// The tiles of a page at `origin` (grid `grid`) that cover `visible`, and of those the ones
    /// meeting `window`: as `plan` goes over them (`TileGrid.tiles(covering:)`).
    static func planned(
        page: Int, frame: Rect, grid: TileGrid, origin: PixelBox, visible: PixelBox, window: PixelBox
    ) -> PlannedPage {
        let area = visible.offsetBy(dx: -origin.x, dy: -origin.y)
            .intersection(PixelBox(x: 0, y: 0, width: grid.pageWidth, height: grid.pageHeight))
        let size = grid.tileSize
        let columns = area.x / size...(area.maxX - 1) / size
        let rows = area.y / size...(area.maxY - 1) / size
        func meeting(
            _ range: ClosedRange<Int>, from start: Int, extent: Int, window low: Int, _ high: Int
        )
            -> ClosedRange<Int>?
        {
            let met = range.filter { index in
                let from = start + index * size
                return from < high && start + min((index + 1) * size, extent) > low
            }
            return met.first.map { $0...met.last! }
        }
        return PlannedPage(
            page: page, width: frame.width, height: frame.height, origin: origin, columns: columns, rows: rows,
            windowColumns: meeting(columns, from: origin.x, extent: grid.pageWidth, window: window.x, window.maxX),
            windowRows: meeting(rows, from: origin.y, extent: grid.pageHeight, window: window.y, window.maxY))
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
            last.prefetch
                == prefetch.map({ PrefetchedPage(page: $0.page, width: $0.frame.width, height: $0.frame.height) })
        else { return nil }
        var plan = last.plan
        plan.shadows = []
        plan.pages = []
        var index = 0
        for spread in spreads {
            let clip = Self.pixels(spread.clipRect).intersection(viewport)
            if let first = spread.pages.first {
                let frame = spread.pages.dropFirst().reduce(first.frame) { $0.union($1.frame) }
                plan.shadows.append(.init(frame: Self.pixels(frame), clip: clip))
            }
            for page in spread.pages {
                let grid = TileGrid(frameWidth: page.frame.width, frameHeight: page.frame.height)
                let origin = PixelBox(
                    x: Int(page.frame.minX.rounded()), y: Int(page.frame.minY.rounded()), width: grid.pageWidth,
                    height: grid.pageHeight)
                let visible = origin.intersection(clip)
                guard !visible.isEmpty else { continue }
                guard index < last.pages.count else { return nil }
                let now = Self.planned(
                    page: page.page, frame: page.frame, grid: grid, origin: origin, visible: visible, window: window)
                let before = last.pages[index]
                guard now.takesSameTiles(as: before) else { return nil }
                let (dx, dy) = (Double(origin.x - before.origin.x), Double(origin.y - before.origin.y))
                let item = last.plan.pages[index]
                plan.pages.append(
                    Scene.PageItem(
                        page: page.page, frame: origin, clip: clip,
                        layers: item.layers.map { Scene.Layer($0.source, rect: $0.rect.offsetBy(Point(x: dx, y: dy))) })
                )
                last.pages[index] = now
                index += 1
            }
        }
        guard index == last.pages.count else { return nil }
        last.plan = plan
        reusable = last
        movedPlans += 1
        return plan
    }
}
