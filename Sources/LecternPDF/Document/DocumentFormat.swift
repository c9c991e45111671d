/// What kind of document a file holds, told by its first bytes, never by its name: the magic
/// string MuPDF's `fz_open_document_with_stream` is given to pick its handler.
public enum DocumentFormat: String, Sendable, Equatable, CaseIterable {
    case pdf
    /// A zip archive: an EPUB (a `mimetype` entry or `META-INF/container.xml`), an XPS (its
    /// `[Content_Types].xml`), else a comic book archive of images (CBZ). The shim looks inside.
    case zip
    /// FictionBook 2 (XML with a `FictionBook` root).
    case fictionBook
    /// XHTML or HTML.
    case xhtml
    case svg
    /// A MOBI e-book (`BOOKMOBI` at byte 60).
    case mobi
    case png, jpeg, tiff, gif, bmp, jpeg2000

    /// The magic string for MuPDF (a MIME type its handlers list; "zip" is the shim's own, resolved
    /// by looking into the archive).
    public var magic: String {
        switch self {
        case .pdf: "application/pdf"
        case .zip: "zip"
        case .fictionBook: "application/x-fictionbook"
        case .xhtml: "text/html"
        case .svg: "image/svg+xml"
        case .mobi: "application/x-mobipocket-ebook"
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .tiff: "image/tiff"
        case .gif: "image/gif"
        case .bmp: "image/bmp"
        case .jpeg2000: "image/jp2"
        }
    }

    /// Whether this is a format whose pages are PDF pages (annotations, forms, a structure tree,
    /// page labels and the audit's facts exist only there).
    public var isPDF: Bool { self == .pdf }

    /// The format of a file starting with `head` (its first KiB or so), or nil when it is none that
    /// Lectern opens.
    public static func sniff<Bytes: RandomAccessCollection<UInt8>>(_ head: Bytes) -> DocumentFormat?
    where Bytes.Index == Int {
        let bytes = Array(head)
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
        }
        // The PDF header may follow up to 1 KiB of junk (PDF 1.7, Annex H).
        if contains(bytes.prefix(1024), Array("%PDF-".utf8)) { return .pdf }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("BM".utf8)) && bytes.count >= 26 { return .bmp }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) {
            return .jpeg2000
        }
        if starts(Array("BOOKMOBI".utf8), at: 60) { return .mobi }
        return markup(bytes)
    }

    /// FB2, XHTML/HTML or SVG: text (UTF-8, after an optional byte order mark and white space)
    /// that starts with markup and names its root early.
    private static func markup(_ bytes: [UInt8]) -> DocumentFormat? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else { return nil }
        let lowered = bytes[start...].prefix(4096).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        if contains(lowered, Array("<fictionbook".utf8)) { return .fictionBook }
        if contains(lowered, Array("<svg".utf8)) && !contains(lowered, Array("<html".utf8)) { return .svg }
        if contains(lowered, Array("<html".utf8)) || contains(lowered, Array("<!doctype html".utf8)) { return .xhtml }
        return nil
    }

    private static func contains<Bytes: Collection<UInt8>>(_ haystack: Bytes, _ needle: [UInt8]) -> Bool {
        let bytes = Array(haystack)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
