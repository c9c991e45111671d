import CMuPDF
import Glibc
import LecternCore
import LecternLinux
import Synchronization

/// What the reader reads off a page besides its pixels: its text blocks (smart zoom) and links.
extension PDFDocument {
    /// The bounding boxes of the text blocks of page `index` (paragraphs and columns as MuPDF's
    /// structured text groups them; images are left out), in PDF user space like `PageInfo.cropBox`:
    /// unrotated, y up. Map them with the page's rotation and crop box to place them on screen.
    /// Uses the page's cached display list, so it is cheap for a page on screen.
    ///
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the page content cannot be read.
    /// Corresponding C function: `CMuPDF_page_text_blocks`.
    public func textBlocks(page index: Int) throws(PDFError) -> [Rect] {
        try checkIndex(index)
        var error = CMuPDF_error()
        var rects: UnsafeMutablePointer<Float>?
        var count: Int32 = 0
        guard CMuPDF_page_text_blocks(handle, Int32(index), &rects, &count, &error) == 0 else {
            throw PDFError(
                .damaged, path: path,
                message:
                    "cannot read the text of page \(index + 1) of \(path): the page is damaged (MuPDF: \(error.text))"
            )
        }
        defer { free(rects) }
        guard let rects else { return [] }
        return (0..<Int(count)).map { i in
            Rect(corners: (rects[4 * i], rects[4 * i + 1], rects[4 * i + 2], rects[4 * i + 3]))
        }
    }

    /// The links of page `index`, in the order of the page's /Annots: internal links (GoTo actions and
    /// destinations) resolved to a page of this document, external ones as URIs. A link whose
    /// destination does not resolve to a page of the document is left out. Rects are in PDF user
    /// space like `textBlocks(page:)`. Loads the page (annotations and links) without running its
    /// content or rendering.
    ///
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the page cannot be loaded.
    /// Corresponding C functions: `fz_load_links`, `fz_resolve_link` (`CMuPDF_page_links`).
    public func links(page index: Int) throws(PDFError) -> [PDFLink] {
        try checkIndex(index)
        var error = CMuPDF_error()
        var links: UnsafeMutablePointer<CMuPDF_link>?
        var count: Int32 = 0
        guard CMuPDF_page_links(handle, Int32(index), &links, &count, &error) == 0 else {
            throw PDFError(
                .damaged, path: path,
                message:
                    "cannot read the links of page \(index + 1) of \(path): the page is damaged (MuPDF: \(error.text))"
            )
        }
        defer { free(links) }
        guard let links else { return [] }
        return (0..<Int(count)).map { i in
            let link = links[i]
            let rect = link.rect
            let target: PDFLink.Target =
                if let uri = link.uri { .uri(String(cString: uri)) } else { .page(Int(link.page)) }
            return PDFLink(
                rect: Rect(corners: rect),
                target: target)
        }
    }
}
