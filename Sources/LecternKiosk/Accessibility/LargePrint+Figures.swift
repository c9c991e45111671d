import LecternCore
import LecternDocuments
import LecternPDF
import LecternRender

extension LargePrint {
    /// The pixels of the pictures of a column the worker laid out (`reflowed`), by the figure's
    /// index: each drawn by the render worker at its size in the column (`scale` pixels a unit)
    /// in `contrast` (nil: it could not be drawn). Off the loop's thread.
    static func pictures(
        of reflowed: ReflowedPage, page: Int, document: ShownDocument, displaySize: Size, scale: Double,
        contrast: Contrast
    ) -> [RasterImage?] {
        reflowed.figureAreas.indices.map { index in
            guard let figure = reflowed.column.figures.first(where: { $0.index == index }) else { return nil }
            return render(
                reflowed.figureAreas[index], of: document, page: page, displaySize: displaySize,
                pixels: Int((Double(figure.width) * scale).rounded()), contrast: contrast)
        }
    }

    /// `area` of `page` (points, as displayed) drawn `pixels` wide by the render worker: the
    /// tiles of the page at that zoom that cover it, put together.
    private static func render(
        _ area: Rect, of document: ShownDocument, page: Int, displaySize: Size, pixels width: Int, contrast: Contrast
    ) -> RasterImage? {
        let zoom = Double(width) / area.width
        let grid = TileGrid(
            pageWidth: Int((displaySize.width * zoom).rounded()), pageHeight: Int((displaySize.height * zoom).rounded())
        )
        let region = PixelBox(
            x: Int((area.minX * zoom).rounded()), y: Int((area.minY * zoom).rounded()), width: width,
            height: Int((area.height * zoom).rounded())
        ).intersection(PixelBox(x: 0, y: 0, width: grid.pageWidth, height: grid.pageHeight))
        guard !region.isEmpty else { return nil }
        let image = RasterImage(width: region.width, height: region.height)
        for (column, row) in grid.tiles(covering: region) {
            let key = TileKey(page: page, grid: grid, column: column, row: row, contrast: contrast)
            guard case .image(let tile, _)? = document.renderTile(key, cookie: RenderCookie()) else { return nil }
            let part = key.rect.intersection(region)
            for y in part.y..<part.maxY {
                (image.pixels + (y - region.y) * image.stride + (part.x - region.x) * 4).copyMemory(
                    from: tile.pixels + (y - key.rect.y) * tile.stride + (part.x - key.rect.x) * 4,
                    byteCount: part.width * 4)
            }
        }
        return image
    }
}
