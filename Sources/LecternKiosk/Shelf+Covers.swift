import LecternCore
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
    }

    /// Opens `path`, reads its title and renders page 1 as large as fits `box`. Worker thread.
    static func readCover(
        path: String, password: String?, box: (width: Int, height: Int), index: Int, generation: Int
    ) -> CoverResult {
        var result = CoverResult(index: index, generation: generation)
        do throws(PDFError) {
            let document = try PDFDocument(path: path, password: password)
            guard document.pageCount > 0 else {
                throw PDFError(.noPages, path: path, message: "\(path) has no pages")
            }
            result.title = try? document.title()
            let size = try document.pageInfo(at: 0).displaySize
            result.pageSize = size
            let scale = min(Double(box.width) / size.width, Double(box.height) / size.height)
            let key = TileKey(
                page: 0, pageWidth: max(1, Int((size.width * scale).rounded())),
                pageHeight: max(1, Int((size.height * scale).rounded())), kind: .preview)
            switch TileContent.render(key, of: document) {
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
