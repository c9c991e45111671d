import LecternCore
import LecternDocuments
import LecternPDF
import LecternRender

extension Shelf {
    /// A document's cover, read on the shelf's worker.
    struct CoverResult: Sendable {
        var index: Int
        var generation: Int
        var title: String?
        var pageSize: Size?
        var image: RasterImage?
        var failure: String?
        /// The document opened for it, to let go on the loop's thread.
        var document: (ShownDocument)?
    }

    /// Opens `path` with `open` (`DocumentBackend.opener`), reads its title and renders page 1
    /// as large as fits `box`, in `contrast`. Worker thread.
    static func readCover(
        _ open: () throws(PDFError) -> ShownDocument, path: String, box: (width: Int, height: Int),
        contrast: Contrast, index: Int, generation: Int
    ) -> CoverResult {
        var result = CoverResult(index: index, generation: generation)
        do throws(PDFError) {
            let document = try open()
            result.document = document
            guard document.pageCount > 0 else {
                throw PDFError(.noPages, path: path, message: "\(path) has no pages")
            }
            result.title = document.title
            let size = document.firstPageInfo().displaySize
            result.pageSize = size
            let scale = min(Double(box.width) / size.width, Double(box.height) / size.height)
            let key = TileKey(
                page: 0, pageWidth: max(1, Int((size.width * scale).rounded())),
                pageHeight: max(1, Int((size.height * scale).rounded())), kind: .preview, contrast: contrast)
            switch document.renderTile(key, cookie: RenderCookie()) {
            case .image(let image, _): result.image = image
            case .failed(let message): result.failure = message
            case nil: result.failure = "cannot render the first page of \(path)"
            }
        } catch {
            result.failure = error.description
        }
        return result
    }
}
