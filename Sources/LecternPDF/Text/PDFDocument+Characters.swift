import CMuPDF
import Glibc
import LecternCore

extension PDFDocument {
    /// The characters of page `index` for text selection, in reading order (right-to-left
    /// lines reordered: see `PageCharacters`), with their boxes in PDF user space (unrotated,
    /// y up, like `textBlocks(page:)`). Read from the page's cached display list (recorded if
    /// missing), without holding the document lock while the text is extracted. A page with
    /// more than 200,000 characters keeps the first 200,000 (logged by MuPDF).
    ///
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the page cannot be read.
    /// Corresponding C function: `CMuPDF_page_chars` (`fz_new_stext_page_from_display_list`).
    public func pageCharacters(page index: Int) throws(PDFError) -> PageCharacters {
        try checkIndex(index)
        var error = CMuPDF_error()
        var chars: UnsafeMutablePointer<CMuPDF_page_char>?
        var count: Int32 = 0
        var truncated: Int32 = 0
        guard CMuPDF_page_chars(handle, Int32(index), &chars, &count, &truncated, &error) == 0 else {
            throw PDFError(
                .damaged, path: path,
                message:
                    "cannot read the text of page \(index + 1) of \(path): the page is damaged (MuPDF: \(error.text))"
            )
        }
        defer { free(chars) }
        guard let chars else { return .empty }
        var drawn: [PageCharacter] = []
        drawn.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let char = chars[i]
            let q = char.quad
            let xs = [q.0, q.2, q.4, q.6].map(Double.init)
            let ys = [q.1, q.3, q.5, q.7].map(Double.init)
            let minX = xs.min() ?? 0
            let minY = ys.min() ?? 0
            let rect = Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
            let scalar = UInt32(bitPattern: char.c)
            drawn.append(
                PageCharacter(
                    scalar: scalar, rect: rect, line: Int(char.line), block: Int(char.block),
                    isRightToLeft: Folding.isRightToLeft(scalar)))
        }
        return PageCharacters(drawn: drawn)
    }
}
