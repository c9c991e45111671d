import LecternCore
import LecternPDF

extension TileContent {
    /// Renders the piece of a page `key` names with MuPDF: the page scaled so its width is the
    /// key's page width, and the key's rectangle of it. A render error becomes an error tile;
    /// a cancelled render is nil. Any thread (the document may render several tiles at once).
    public static func render(_ key: TileKey, of document: PDFDocument, cookie: RenderCookie? = nil) -> TileContent? {
        let info: PageInfo
        do {
            info = try document.pageInfo(at: key.page)
        } catch {
            return .failed(error.description)
        }
        let scale = Double(key.pageWidth) / max(1, info.displaySize.width)
        let rect = key.rect
        guard rect.width > 0, rect.height > 0 else { return .failed("\(key) is outside its page") }
        let image = RasterImage(width: rect.width, height: rect.height)
        do throws(PDFError) {
            try document.render(
                page: key.page, scale: scale,
                region: PixelBox(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
                into: image.pixels, stride: image.stride, cookie: cookie)
            return .image(image, isDamaged: false)
        } catch  where error.kind == .renderIncomplete {
            return .image(image, isDamaged: true)
        } catch  where error.kind == .cancelled {
            return nil
        } catch {
            return .failed(error.description)
        }
    }
}
