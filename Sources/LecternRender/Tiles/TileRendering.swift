import LecternCore
import LecternPDF

extension TileContent {
    /// What a tile whose page the render worker process could not draw (it crashed on it, or
    /// ran past the deadline) shows: an error tile with this reason, and a banner saying so.
    public static let undrawableReason = "This page could not be drawn"

    /// An error tile for a page the render worker could not draw (`undrawableReason`).
    public static var undrawable: TileContent { .failed(undrawableReason) }

    /// Renders the piece of a page `key` names with MuPDF: the page scaled so its width is the
    /// key's page width, and the key's rectangle of it. A render error becomes an error tile;
    /// a cancelled render is nil. Any thread (the document may render several tiles at once).
    public static func render(_ key: TileKey, of document: PDFDocument, cookie: RenderCookie? = nil) -> TileContent? {
        let rect = key.rect
        guard rect.width > 0, rect.height > 0 else { return .failed("\(key) is outside its page") }
        let image = RasterImage(width: rect.width, height: rect.height)
        switch draw(key, of: document, into: image.pixels, stride: image.stride, cookie: cookie) {
        case .drawn(let isDamaged): return .image(image, isDamaged: isDamaged)
        case .cancelled: return nil
        case .failed(let reason): return .failed(reason)
        }
    }

    /// How drawing a tile into memory ended.
    public enum DrawOutcome: Sendable, Equatable {
        /// The pixels hold the tile (`isDamaged`: MuPDF skipped damaged content).
        case drawn(isDamaged: Bool)
        case cancelled
        case failed(String)
    }

    /// Draws the piece of a page `key` names into `pixels` (`key.rect`'s size, `stride` bytes a
    /// row): `render(_:of:cookie:)` into memory the caller owns (the render worker process draws
    /// into memory it shares with the reader).
    public static func draw(
        _ key: TileKey, of document: PDFDocument, into pixels: UnsafeMutableRawPointer, stride: Int,
        cookie: RenderCookie?
    ) -> DrawOutcome {
        let info: PageInfo
        do {
            info = try document.pageInfo(at: key.page)
        } catch {
            return .failed(error.description)
        }
        let scale = Double(key.pageWidth) / max(1, info.displaySize.width)
        let rect = key.rect
        guard rect.width > 0, rect.height > 0 else { return .failed("\(key) is outside its page") }
        let region = PixelBox(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        do throws(PDFError) {
            try document.render(
                page: key.page, scale: scale, region: region, into: pixels, stride: stride, cookie: cookie)
            recolor(key, of: document, scale: scale, region: region, pixels: pixels, stride: stride)
            return .drawn(isDamaged: false)
        } catch  where error.kind == .renderIncomplete {
            recolor(key, of: document, scale: scale, region: region, pixels: pixels, stride: stride)
            return .drawn(isDamaged: true)
        } catch  where error.kind == .cancelled {
            return .cancelled
        } catch {
            return .failed(error.description)
        }
    }

    /// Maps a drawn tile's pixels to its key's contrast, leaving the page's images in their own
    /// colours unless the contrast recolours them too (where they are drawn: `imageAreas`).
    private static func recolor(
        _ key: TileKey, of document: PDFDocument, scale: Double, region: PixelBox, pixels: UnsafeMutableRawPointer,
        stride: Int
    ) {
        guard key.contrast.mode != .normal else { return }
        // A page whose images cannot be found is recoloured whole: readable, if not as drawn.
        let kept =
            key.contrast.recolorsImages
            ? [] : (try? document.imageAreas(page: key.page, scale: scale, region: region)) ?? []
        key.contrast.recolor(pixels, width: region.width, height: region.height, stride: stride, keeping: kept)
    }
}
