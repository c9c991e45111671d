import CMuPDF
import Glibc

/// One entry of a document's outline (its bookmarks).
public struct OutlineEntry: Sendable, Equatable {
    /// What the entry says ("Chapter 3: The Harbour").
    public var title: String
    /// The page it leads to (0-based); nil when it leads to no page of the document (none, or a
    /// web address).
    public var page: Int?
    /// 0 for a top-level entry, 1 for its children, …
    public var depth: Int
    /// The file asks for its children to be shown at first.
    public var isOpen: Bool

    public init(title: String, page: Int?, depth: Int, isOpen: Bool) {
        self.title = title
        self.page = page
        self.depth = depth
        self.isOpen = isOpen
    }
}

extension PDFDocument {
    /// The outline (bookmarks), in the order a reader sees it (each entry before its children);
    /// empty when the document has none. Walks the whole page tree first, so call it on a
    /// worker (after the page sizes were read it costs only the outline itself).
    ///
    /// - Throws: `.damaged` when the outline cannot be read.
    /// Corresponding C function: `fz_load_outline` (`CMuPDF_document_outline`).
    public func outline() throws(PDFError) -> [OutlineEntry] {
        var error = CMuPDF_error()
        var entries: UnsafeMutablePointer<CMuPDF_outline_entry>?
        var count: Int32 = 0
        guard CMuPDF_document_outline(handle, &entries, &count, &error) == 0 else {
            throw PDFError(
                .damaged, path: path, message: "cannot read the outline of \(path) (MuPDF: \(error.text))")
        }
        defer { free(entries) }
        guard let entries else { return [] }
        return (0..<Int(count)).map { i in
            let entry = entries[i]
            // Titles are trimmed: files often pad them, or end them with a newline.
            let title = String(cString: entry.title).split(whereSeparator: \.isNewline).joined(separator: " ")
            return OutlineEntry(
                title: title.trimmingCharacters(), page: entry.page >= 0 ? Int(entry.page) : nil,
                depth: Int(entry.depth), isOpen: entry.is_open != 0)
        }
    }
}

extension String {
    /// Without the white space at either end.
    fileprivate func trimmingCharacters() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
