import LecternCore

/// One annotation of a page as the file describes it: a note, a free-text box, ink, a form field…
public struct PDFAnnotation: Sendable, Equatable {
    /// The annotation's flags (/F), the ones a viewer acts on.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Not shown and not printed (/F bit 2).
        public static let hidden = Flags(rawValue: 1 << 1)
        /// Printed (/F bit 3).
        public static let print = Flags(rawValue: 1 << 2)
        /// Not shown on screen, but may be printed (/F bit 6).
        public static let noView = Flags(rawValue: 1 << 5)
        /// No interaction at all: not moved, not edited, not filled (/F bit 7).
        public static let readOnly = Flags(rawValue: 1 << 6)
        /// Not moved, resized or deleted; its contents may change (/F bit 8).
        public static let locked = Flags(rawValue: 1 << 7)
    }

    /// What kind of form field a widget annotation is.
    public enum FieldType: Sendable, Equatable {
        case text
        case multilineText
        case checkbox
        case radio
        case comboChoice
        case listChoice
        case pushButton
        /// A signature field (shown read-only: Lectern does not sign).
        case signature
        /// A widget MuPDF cannot classify.
        case unknown
    }

    /// A widget's form field: what kind, its name, value and choices.
    public struct Field: Sendable, Equatable {
        public var type: FieldType
        /// The fully qualified field name ("visitor.name").
        public var name: String
        /// The value as the file stores it: the text, the checked state's export name ("Off" when
        /// not checked), the chosen option.
        public var value: String
        /// A choice field's options (display text); empty for other fields.
        public var options: [String]
        /// A text field's most characters (/MaxLen); nil when unlimited or not a text field.
        public var maxLength: Int?
        /// The field is read-only (/Ff bit 1), or a signature.
        public var isReadOnly: Bool
        /// The field flags (/Ff) as written, for what is not spelt out above.
        public var rawFlags: Int
    }

    /// The PDF object number of the annotation: stable while the document is open and after an
    /// incremental save, so it names the annotation for edits.
    public var objectNumber: Int
    /// The subtype as the file names it ("Widget", "FreeText", "Ink", "Text", …).
    public var subtype: String
    /// The annotation's rectangle in PDF user space (unrotated, y up), like `PDFLink.rect`.
    public var rect: Rect
    public var flags: Flags
    /// The colour components (0: none, 1 grey, 3 RGB, 4 CMYK), each 0...1.
    public var color: [Double]
    /// The text the annotation carries (/Contents), "" when none.
    public var contents: String
    /// Who wrote it (/T of a markup annotation), "" when none.
    public var author: String
    /// The form field of a widget; nil for other annotations.
    public var field: Field?

    public init(
        objectNumber: Int, subtype: String, rect: Rect, flags: Flags, color: [Double], contents: String,
        author: String, field: Field?
    ) {
        self.objectNumber = objectNumber
        self.subtype = subtype
        self.rect = rect
        self.flags = flags
        self.color = color
        self.contents = contents
        self.author = author
        self.field = field
    }
}

/// The annotations of one page, and whether some were left out.
public struct PageAnnotations: Sendable, Equatable {
    /// The annotations in the page's order, then its form fields.
    public var annotations: [PDFAnnotation]
    /// True when some were skipped (unreadable, logged by MuPDF) or cut at the caps: more than
    /// `PDFDocument.maxAnnotationsPerPage`, strings of more than 4,096 bytes, more than 256 options.
    public var isTruncated: Bool
}
