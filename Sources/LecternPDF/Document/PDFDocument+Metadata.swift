import CMuPDF
import Glibc
import LecternCore
import LecternLinux
import Synchronization

extension Rect {
    /// The rectangle the shim reports as (x0, y0, x1, y1) in PDF user space.
    init(corners c: (Float, Float, Float, Float)) {
        self.init(corner: Point(x: Double(c.0), y: Double(c.1)), corner: Point(x: Double(c.2), y: Double(c.3)))
    }
}

extension PDFDocument {
    /// The document's title (/Info /Title), or nil when it has none (or only white space).
    /// Corresponding C function: `CMuPDF_document_title` (`fz_lookup_metadata`).
    public func title() throws(PDFError) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        var error = CMuPDF_error()
        let status = buffer.withUnsafeMutableBufferPointer {
            CMuPDF_document_title(handle, $0.baseAddress, Int32($0.count), &error)
        }
        guard status == 0 else {
            throw PDFError(.damaged, path: path, message: "cannot read the title of \(path) (MuPDF: \(error.text))")
        }
        let title = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let trimmed = title.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The document's language (the catalog's /Lang, reduced to its ISO 639 code: "en", "he"),
    /// or nil when it names none. Speech picks its voice from it.
    /// Corresponding C function: `CMuPDF_document_language` (`pdf_document_language`).
    public func language() throws(PDFError) -> String? {
        var buffer = (CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0))
        var error = CMuPDF_error()
        let status = withUnsafeMutableBytes(of: &buffer) {
            CMuPDF_document_language(handle, $0.baseAddress!.assumingMemoryBound(to: CChar.self), &error)
        }
        guard status == 0 else {
            throw PDFError(.damaged, path: path, message: "cannot read the language of \(path) (MuPDF: \(error.text))")
        }
        let code = withUnsafeBytes(of: buffer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return code.isEmpty ? nil : code
    }

    /// Page `index`'s presentation keys: /Dur and /Trans, read from the page object.
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the page object cannot be read.
    /// Corresponding C function: `CMuPDF_page_get_presentation`.
    public func presentation(page index: Int) throws(PDFError) -> PagePresentation {
        try checkIndex(index)
        var keys = CMuPDF_page_presentation()
        var error = CMuPDF_error()
        guard CMuPDF_page_get_presentation(handle, Int32(index), &keys, &error) == 0 else {
            throw damagedPage(index, error.text)
        }
        var presentation = PagePresentation()
        if keys.duration > 0 { presentation.duration = Double(keys.duration) }
        let style = withUnsafeBytes(of: keys.style) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if !style.isEmpty {
            presentation.transition = PageTransition(
                // An effect PDF does not name (or a later one) is drawn as a cut.
                style: PageTransition.Style(rawValue: style) ?? .replace,
                duration: max(0, Double(keys.transition_duration)), direction: Int(keys.direction),
                isVertical: keys.vertical != 0, isOutward: keys.outward != 0)
        }
        return presentation
    }
}
