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
        /// Not an element: the page's /Artifact marked content (running heads, page numbers), listed
        /// last, for its `glyphs`.
        case artifact
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
    /// For a figure, an element with /ActualText and the artifacts: the boxes of the glyphs its
    /// marked content draws on the page (PDF user space), so the characters it replaces (or that
    /// are not read) can be found.
    public var glyphs: [Rect]

    public init(
        kind: Kind, depth: Int = 1, alt: String? = nil, actualText: String? = nil, language: String? = nil,
        box: Rect? = nil, glyphs: [Rect] = []
    ) {
        self.kind = kind
        self.depth = depth
        self.alt = alt
        self.actualText = actualText
        self.language = language
        self.box = box
        self.glyphs = glyphs
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
    /// MuPDF 1.21's text ignores /ActualText; an element's `glyphs` say which characters of the
    /// page's text it replaces (`PageCharacters.replacing`).
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
            let glyphs = (0..<Int(element.glyph_count)).map { g in
                let x0 = Double(element.glyphs[4 * g]), y0 = Double(element.glyphs[4 * g + 1])
                return Rect(
                    x: x0, y: y0, width: Double(element.glyphs[4 * g + 2]) - x0,
                    height: Double(element.glyphs[4 * g + 3]) - y0)
            }
            return TaggedElement(
                kind: TaggedElement.Kind(rawValue: UInt8(clamping: element.kind)) ?? .other, depth: Int(element.depth),
                alt: element.alt.map { String(cString: $0) },
                actualText: element.actual_text.map { String(cString: $0) },
                language: language.isEmpty ? nil : language,
                box: element.has_box != 0
                    ? Rect(
                        x: Double(box.0), y: Double(box.1), width: Double(box.2 - box.0), height: Double(box.3 - box.1))
                    : nil, glyphs: glyphs)
        }
    }
}
