import CMuPDF
import LecternCore

/// An element of a tagged PDF's structure tree that speech needs: a figure or formula, or an
/// element with /Alt, /ActualText or its own /Lang.
public struct TaggedElement: Equatable, Sendable {
    public enum Kind: UInt8, Equatable, Sendable {
        /// /S is Figure (itself, or through the tree's /RoleMap).
        case figure
        /// /S is Formula.
        case formula
        /// Another element, listed for its /Alt, /ActualText or /Lang.
        case other
    }

    public var kind: Kind
    /// Its depth in the tree (1: a kid of /StructTreeRoot).
    public var depth: Int
    /// /Alt: the replacement text of a figure or formula.
    public var alt: String?
    /// /ActualText: what the element's content says when its glyphs do not.
    public var actualText: String?
    /// /Lang, its own or the nearest ancestor's ("fr-FR"); nil for none.
    public var language: String?
    /// In PDF user space (unrotated, y up): its /A /BBox, else for a figure the box of what its
    /// marked content draws on the page; nil when neither is known.
    public var box: Rect?

    public init(
        kind: Kind, depth: Int = 1, alt: String? = nil, actualText: String? = nil, language: String? = nil,
        box: Rect? = nil
    ) {
        self.kind = kind
        self.depth = depth
        self.alt = alt
        self.actualText = actualText
        self.language = language
        self.box = box
    }
}

extension PDFDocument {
    /// The elements of the structure tree (/StructTreeRoot) on page `index`: figures and formulas,
    /// and elements with /Alt, /ActualText or their own /Lang (at most 64; texts cut at 500 bytes).
    /// Found through the tree's /ParentTree (the elements of the page's MCIDs and their ancestors,
    /// in the order of the MCIDs) when it indexes the page, else by walking the whole tree (in its
    /// order). None for an untagged document. The walks are bounded and ignore what is malformed
    /// (cycles, keys of the wrong type), so a broken tree gives what could be read.
    ///
    /// MuPDF 1.21 does not map marked content to characters, so an element's /ActualText cannot
    /// replace the characters it marks: it is read here, not applied to the page's text.
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the tree cannot be read.
    /// Corresponding C function: `CMuPDF_page_structure`.
    public func taggedElements(page index: Int) throws(PDFError) -> [TaggedElement] {
        try checkIndex(index)
        var error = CMuPDF_error()
        var elements: UnsafeMutablePointer<CMuPDF_structure_element>?
        var count: Int32 = 0
        guard CMuPDF_page_structure(handle, Int32(index), &elements, &count, &error) == 0 else {
            throw PDFError(
                .damaged, path: path,
                message: "cannot read the structure tree of page \(index + 1) of \(path) (MuPDF: \(error.text))")
        }
        defer { CMuPDF_structure_free(elements, count) }
        guard let elements else { return [] }
        return (0..<Int(count)).map { i in
            let element = elements[i]
            let language = withUnsafeBytes(of: element.language) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            let box = element.box
            return TaggedElement(
                kind: TaggedElement.Kind(rawValue: UInt8(clamping: element.kind)) ?? .other, depth: Int(element.depth),
                alt: element.alt.map { String(cString: $0) },
                actualText: element.actual_text.map { String(cString: $0) },
                language: language.isEmpty ? nil : language,
                box: element.has_box != 0
                    ? Rect(
                        x: Double(box.0), y: Double(box.1), width: Double(box.2 - box.0), height: Double(box.3 - box.1))
                    : nil)
        }
    }
}
