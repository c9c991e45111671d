/// One annotation of a page as the interaction components see it: what the host read from the
/// document (LecternKiosk maps LecternPDF's `PDFAnnotation` to it), in page space.
public struct AnnotationInfo: Hashable, Sendable {
    /// The flags a viewer acts on (/F).
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Not shown (/F bit 2).
        public static let hidden = Flags(rawValue: 1 << 1)
        /// Not shown on screen (/F bit 6).
        public static let noView = Flags(rawValue: 1 << 5)
        /// No interaction at all (/F bit 7).
        public static let readOnly = Flags(rawValue: 1 << 6)
        /// Not moved or resized; its contents may change (/F bit 8).
        public static let locked = Flags(rawValue: 1 << 7)
    }

    /// What kind of form field a widget is.
    public enum FieldType: String, Hashable, Sendable, CaseIterable {
        case text
        case multilineText = "multiline"
        case checkbox
        case radio
        case comboChoice = "combo"
        case listChoice = "list"
        case pushButton = "button"
        case signature
        case unknown
    }

    /// The PDF object number: names the annotation for edits.
    public var objectNumber: Int
    /// The subtype as the file names it ("Widget", "FreeText", "Text", "Ink", …).
    public var subtype: String
    /// Its rectangle in page space (`.page(page)`: PDF user space).
    public var rect: Rect
    public var flags: Flags
    /// Its text (/Contents), "" when none.
    public var contents: String
    /// Who wrote it (/T of a markup annotation), "" when none.
    public var author: String
    /// The form field of a widget; nil for other annotations.
    public var fieldType: FieldType?
    /// The field's name ("visitor.name"), "" for other annotations.
    public var fieldName: String
    /// The field's value ("Off" for an unchecked box).
    public var value: String
    /// A choice field's options.
    public var options: [String]
    /// A text field's most characters (nil: unlimited).
    public var maxLength: Int?
    /// The field is read-only (/Ff bit 1, or a signature).
    public var isFieldReadOnly: Bool

    /// Creates an annotation description.
    public init(
        objectNumber: Int, subtype: String, rect: Rect, flags: Flags = [], contents: String = "", author: String = "",
        fieldType: FieldType? = nil, fieldName: String = "", value: String = "", options: [String] = [],
        maxLength: Int? = nil, isFieldReadOnly: Bool = false
    ) {
        self.objectNumber = objectNumber
        self.subtype = subtype
        self.rect = rect
        self.flags = flags
        self.contents = contents
        self.author = author
        self.fieldType = fieldType
        self.fieldName = fieldName
        self.value = value
        self.options = options
        self.maxLength = maxLength
        self.isFieldReadOnly = isFieldReadOnly
    }

    /// A form field (a widget with a field).
    public var isFormField: Bool { fieldType != nil }
    /// Nothing may change it: the annotation's read-only flag or its field's.
    public var isReadOnly: Bool { flags.contains(.readOnly) || isFieldReadOnly }
    /// It may not be moved or resized.
    public var isLocked: Bool { flags.contains(.locked) }
    /// A free-text box or a note: edited by a double tap (its contents).
    public var isTextAnnotation: Bool { subtype == "FreeText" || subtype == "Text" }
    /// Shown and sensibly placed: a tap can find it. A hidden one, or one whose rectangle is
    /// absurd (a hostile file's 1e30), takes no touch.
    public var isInteractive: Bool {
        !flags.contains(.hidden) && !flags.contains(.noView) && !rect.isEmpty
            && [rect.minX, rect.minY, rect.maxX, rect.maxY].allSatisfy { $0.isFinite && abs($0) < 100_000 }
    }
}

/// A corner of the selection frame a finger drags to resize, or the body that moves it. The
/// corners are named as on an unrotated page (page space, y up: the top has the larger y).
public enum AnnotationHandle: String, Hashable, Sendable, CaseIterable {
    case body
    case topLeft, topRight, bottomLeft, bottomRight
}

/// The selected annotation, and where a drag in progress has put it.
public struct AnnotationSelection: Hashable, Sendable {
    public var page: Int
    public var annotation: AnnotationInfo
    /// Where it would go if the finger lifted now (page space); nil while nothing drags it.
    public var preview: Rect?

    /// Creates a selection.
    public init(page: Int, annotation: AnnotationInfo, preview: Rect? = nil) {
        self.page = page
        self.annotation = annotation
        self.preview = preview
    }

    /// Where the frame is drawn: the preview while dragging, else the annotation.
    public var rect: Rect { preview ?? annotation.rect }
}

/// What the annotation components act on: the page, and the annotation under the finger (for
/// `deselectAnnotation`, the one selected), with the handle a transform grabs.
///
/// Activation conditions read it to say "only form fields" (`annotation.isFormField`), "not
/// locked", "not this author" (`annotation.author`).
public struct AnnotationInteractionContext: InteractionContext, Hashable {
    public var page: Int
    public var annotation: AnnotationInfo
    /// The handle a transform drags (`.body` moves); `.body` for the other components.
    public var handle: AnnotationHandle
    /// `.page(page)`: PDF user space of the page.
    public var coordinateSpace: CoordinateSpace { .page(page) }

    /// Creates a context.
    public init(page: Int, annotation: AnnotationInfo, handle: AnnotationHandle = .body) {
        self.page = page
        self.annotation = annotation
        self.handle = handle
    }
}
