import LecternCore
import LecternDocuments
import LecternPDF
import LecternRender

extension LargePrint {
    /// A picture of the page for its column: the paragraph it goes before, its size in the
    /// column (surface units) and its pixels (nil: it could not be drawn).
    typealias Picture = (before: Int, width: Int, height: Int, image: RasterImage?)

    /// The pictures of `page` for a column `width` wide, in reading order: each before the first
    /// paragraph below its top in its own column, else before the first below it, else at the
    /// end; as wide as the column (narrower when that would make it more than twice as high as
    /// wide), drawn by the render worker at that size (`scale` pixels a unit) in `contrast`.
    /// Areas smaller than 24 points (rules, bullets) are left out. Off the loop's thread.
    static func pictures(
        of document: ShownDocument, page: Int, displaySize: Size, blocks: [ReadingBlock], toDisplay: AffineTransform,
        width: Int, scale: Double, contrast: Contrast
    ) -> [Picture] {
        let shown = blocks.map { toDisplay.apply(to: $0.rect) }
        return document.imageAreas(page: page).filter { $0.width >= 24 && $0.height >= 24 }.map { area in
            let before =
                shown.firstIndex { $0.minY >= area.minY - 1 && $0.maxX > area.minX && $0.minX < area.maxX }
                ?? shown.firstIndex { $0.minY >= area.maxY } ?? blocks.count
            let wide = min(Double(width), 2 * Double(width) * area.width / area.height)
            let size = (width: Int(wide.rounded()), height: Int((wide * area.height / area.width).rounded()))
            let image = render(
                area, of: document, page: page, displaySize: displaySize,
                pixels: Int((Double(size.width) * scale).rounded()), contrast: contrast)
            return (before, size.width, size.height, image)
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
