import LecternCore
import LecternRender
import Testing

/// The rule that picks a page's tiles: one tile for a page of at most `singleTileArea` pixels
/// (a fitted page is one render), 256-px tiles for a bigger one (a zoomed page draws only what
/// is visible).
@Suite("Tile grid")
struct TileGridTests {
    @Test(
        "a page of at most singleTileArea pixels is one tile covering the whole page",
        arguments: [(1100, 2000), (2000, 1100), (1483, 1483), (600, 849), (1, 1)])
    func singleTile(width: Int, height: Int) {
        #expect(width * height <= TileGrid.singleTileArea)
        let grid = TileGrid(pageWidth: width, pageHeight: height)
        let page = PixelBox(x: 0, y: 0, width: width, height: height)
        #expect(grid.tileSize == max(width, height))
        #expect(grid.columns == 1 && grid.rows == 1)
        #expect(grid.rect(column: 0, row: 0) == page)
        #expect(grid.tiles(covering: page).map { [$0.column, $0.row] } == [[0, 0]])
        #expect(grid.tiles(covering: PixelBox(x: width / 2, y: height / 2, width: 1, height: 1)).count == 1)
        #expect(TileKey(page: 0, grid: grid, column: 0, row: 0).rect == page)
    }

    @Test(
        "a page just above singleTileArea is a grid of 256-px tiles covering it exactly, without overlap",
        arguments: [(1100, 2001), (2001, 1100), (1484, 1483)])
    func grid(width: Int, height: Int) {
        #expect(width * height > TileGrid.singleTileArea)
        #expect(width * height < TileGrid.singleTileArea + 2000, "just above")
        let grid = TileGrid(pageWidth: width, pageHeight: height)
        let page = PixelBox(x: 0, y: 0, width: width, height: height)
        #expect(grid.tileSize == TileGrid.gridTileSize && TileGrid.gridTileSize == 256)
        #expect(grid.columns == (width + 255) / 256 && grid.rows == (height + 255) / 256)
        let cells = grid.tiles(covering: page)
        #expect(cells.count == grid.columns * grid.rows, "every tile of the grid")
        let rects = cells.map { grid.rect(column: $0.column, row: $0.row) }
        for (cell, rect) in zip(cells, rects) {
            #expect(rect.intersection(page) == rect && !rect.isEmpty, "\(cell) lies on the page: \(rect)")
            let isEdge = cell.column == grid.columns - 1 || cell.row == grid.rows - 1
            if !isEdge { #expect(rect.width == 256 && rect.height == 256, "\(cell) is a full tile") }
            #expect(TileKey(page: 0, grid: grid, column: cell.column, row: cell.row).rect == rect)
        }
        // Inside the page, pairwise disjoint, and together as big as the page: an exact cover.
        for i in rects.indices {
            for j in rects.indices where j > i {
                #expect(rects[i].intersection(rects[j]).isEmpty, "\(rects[i]) and \(rects[j]) overlap")
            }
        }
        #expect(rects.reduce(0) { $0 + $1.width * $1.height } == width * height)
    }
}
