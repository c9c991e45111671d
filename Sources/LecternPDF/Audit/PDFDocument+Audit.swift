import CMuPDF
import LecternCore

/// What an audit reads of a whole document: what an operator should know before a visitor
/// meets it.
public struct DocumentFacts: Equatable, Sendable {
    /// /MarkInfo /Marked is true, or the catalog has a /StructTreeRoot.
    public var isTagged: Bool
    /// The catalog's /Lang as written (nil: none).
    public var language: String?
    /// The file has an /Encrypt dictionary (whether or not it needs a password).
    public var isEncrypted: Bool
    /// MuPDF had to repair the file's cross-reference table.
    public var wasRepaired: Bool
    /// The root /Pages /Count as written.
    public var claimedPageCount: Int
    /// The pages the page tree holds (its leaves, each once).
    public var pageCount: Int

    public init(
        isTagged: Bool, language: String?, isEncrypted: Bool, wasRepaired: Bool, claimedPageCount: Int, pageCount: Int
    ) {
        self.isTagged = isTagged
        self.language = language
        self.isEncrypted = isEncrypted
        self.wasRepaired = wasRepaired
        self.claimedPageCount = claimedPageCount
        self.pageCount = pageCount
    }
}

/// What an audit reads of one page (its render time is measured by whoever draws it).
public struct PageFacts: Equatable, Sendable {
    /// The page as displayed (rotated crop box), in points.
    public var size: Size
    /// Characters that draw something (not spaces); none: a scan, or a page of pictures.
    public var characterCount: Int
    /// The smallest of those characters' sizes, in points (nil: no text).
    public var smallestTextSize: Double?
    /// The /BaseFont names of the fonts the page uses without embedding them (MuPDF draws a
    /// substitute), at most 16.
    public var substitutedFonts: [String]
    /// Annotations other than form fields' widgets (links included).
    public var annotationCount: Int
    /// Form fields' widgets.
    public var fieldCount: Int
    /// Figures of the structure tree on the page, and those of them without /Alt.
    public var figureCount: Int
    public var figuresWithoutAlt: Int

    public init(
        size: Size, characterCount: Int, smallestTextSize: Double?, substitutedFonts: [String], annotationCount: Int,
        fieldCount: Int, figureCount: Int, figuresWithoutAlt: Int
    ) {
        self.size = size
        self.characterCount = characterCount
        self.smallestTextSize = smallestTextSize
        self.substitutedFonts = substitutedFonts
        self.annotationCount = annotationCount
        self.fieldCount = fieldCount
        self.figureCount = figureCount
        self.figuresWithoutAlt = figuresWithoutAlt
    }
}

extension PDFDocument {
    /// The document-wide facts of an audit; walks the whole page tree to count its pages.
    /// - Throws: `.damaged` when the catalog or the page tree cannot be read.
    /// Corresponding C function: `CMuPDF_document_audit_read`.
    public func documentFacts() throws(PDFError) -> DocumentFacts {
        var audit = CMuPDF_document_audit()
        var error = CMuPDF_error()
        guard CMuPDF_document_audit_read(handle, &audit, &error) == 0 else {
            throw PDFError(.damaged, path: path, message: "cannot read the catalog of \(path) (MuPDF: \(error.text))")
        }
        let language = withUnsafeBytes(of: audit.language) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return DocumentFacts(
            isTagged: audit.tagged != 0, language: language.isEmpty ? nil : language, isEncrypted: audit.encrypted != 0,
            wasRepaired: wasRepaired || CMuPDF_document_was_repaired(handle) != 0, claimedPageCount: claimedPageCount,
            pageCount: try readPageTree().pageCount)
    }

    /// The facts of page `index`: its text, fonts, annotations, fields and figures.
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the page cannot be read.
    /// Corresponding C function: `CMuPDF_page_audit_read`.
    public func pageFacts(page index: Int) throws(PDFError) -> PageFacts {
        try checkIndex(index)
        var audit = CMuPDF_page_audit()
        var error = CMuPDF_error()
        guard CMuPDF_page_audit_read(handle, Int32(index), &audit, &error) == 0 else {
            throw damagedPage(index, error.text)
        }
        let names = withUnsafeBytes(of: audit.substituted) { raw in
            (0..<min(Int(audit.substituted_count), Int(CMUPDF_AUDIT_FONTS_MAX))).map { i in
                let name = raw[(i * Int(CMUPDF_AUDIT_FONT_NAME_MAX))...].prefix(Int(CMUPDF_AUDIT_FONT_NAME_MAX))
                return String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let annotations = try annotations(page: index).annotations
        let fields = annotations.filter { $0.field != nil }.count
        let figures = ((try? taggedElements(page: index)) ?? []).filter { $0.kind == .figure }
        return PageFacts(
            size: try pageInfo(at: index).displaySize, characterCount: Int(audit.characters),
            smallestTextSize: audit.characters > 0 ? Double(audit.smallest_size) : nil, substitutedFonts: names,
            annotationCount: annotations.count - fields, fieldCount: fields, figureCount: figures.count,
            figuresWithoutAlt: figures.filter { ($0.alt ?? "").isEmpty }.count)
    }
}
