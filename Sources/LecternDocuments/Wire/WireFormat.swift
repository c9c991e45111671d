import LecternCore
import LecternLinux
import LecternPDF
import LecternRender

extension WireWriter {
    mutating func put(_ key: TileKey) {
        put(key.page)
        put(key.pageWidth)
        put(key.pageHeight)
        switch key.kind {
        case .preview: put(-1)
        case .tile(let column, let row):
            put(column)
            put(row)
        }
        put(key.contrast.mode.rawValue)
        put(key.contrast.recolorsImages)
    }
}

extension WireReader {
    mutating func tileKey() throws(WireError) -> TileKey {
        let page = try int(), width = try int(), height = try int(), column = try int()
        let kind: TileKey.Kind = column < 0 ? .preview : .tile(column: column, row: try int())
        let name = try string()
        guard let mode = Contrast.Mode(rawValue: name) else { throw WireError("unknown contrast \(name)") }
        let contrast = Contrast(mode, recolorsImages: try bool())
        return TileKey(page: page, pageWidth: width, pageHeight: height, kind: kind, contrast: contrast)
    }
}

/// What the reader learns of a document when the worker opens it: everything it lays out and
/// labels the pages with before it asks for anything else (the reader never opens the file).
public struct DocumentSummary: Sendable, Equatable {
    /// The page count the file claims (the page tree's count comes with `DocumentRequest.pageTree`).
    public var pageCount: Int
    public var isRightToLeft: Bool
    public var wasRepaired: Bool
    /// Page 1's geometry: every page's estimate until the sizes are read.
    public var firstPage: PageInfo
    public var labels: PageLabels?
    /// /Info /Title (nil: none).
    public var title: String?
    /// The catalog's /Lang as an ISO 639 code ("en", "he"; nil: none): speech's voice.
    public var language: String?
    /// MuPDF lays it out at a page and font size of the reader's choosing (an EPUB, FB2, XHTML):
    /// `DocumentRequest.layout`.
    public var isReflowable: Bool

    public init(
        pageCount: Int, isRightToLeft: Bool, wasRepaired: Bool, firstPage: PageInfo, labels: PageLabels?,
        title: String?, language: String? = nil, isReflowable: Bool = false
    ) {
        self.pageCount = pageCount
        self.isRightToLeft = isRightToLeft
        self.wasRepaired = wasRepaired
        self.firstPage = firstPage
        self.labels = labels
        self.title = title
        self.language = language
        self.isReflowable = isReflowable
    }

    /// What `document` tells of itself (page 1 read from its page object).
    public init(_ document: PDFDocument) throws(PDFError) {
        self.init(
            pageCount: document.pageCount, isRightToLeft: document.isRightToLeft, wasRepaired: document.wasRepaired,
            firstPage: try document.pageInfo(at: 0), labels: document.labels, title: try? document.title(),
            language: try? document.language(), isReflowable: document.isReflowable)
    }

    func encode(into writer: inout WireWriter) {
        writer.put(pageCount)
        writer.put(isRightToLeft)
        writer.put(wasRepaired)
        writer.put(firstPage)
        writer.put(optional: title)
        writer.put(optional: language)
        writer.put(isReflowable)
        let ranges = labels?.ranges ?? []
        writer.put(labels != nil)
        writer.put(ranges.count)
        for range in ranges {
            writer.put(range.start)
            writer.put(range.style.rawValue)
            writer.put(range.prefix)
            writer.put(range.first)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> DocumentSummary {
        let pageCount = try reader.int(), isRightToLeft = try reader.bool(), wasRepaired = try reader.bool()
        let firstPage = try reader.pageInfo(), title = try reader.optionalString()
        let language = try reader.optionalString()
        let isReflowable = try reader.bool()
        let hasLabels = try reader.bool()
        var ranges: [PageLabels.Range] = []
        for _ in 0..<(try reader.count()) {
            let start = try reader.int()
            guard let style = PageLabels.Style(rawValue: try reader.int()) else { throw WireError("bad label style") }
            ranges.append(
                PageLabels.Range(start: start, style: style, prefix: try reader.string(), first: try reader.int()))
        }
        return DocumentSummary(
            pageCount: pageCount, isRightToLeft: isRightToLeft, wasRepaired: wasRepaired, firstPage: firstPage,
            labels: hasLabels ? PageLabels(ranges: ranges) : nil, title: title, language: language,
            isReflowable: isReflowable)
    }
}

extension WireWriter {
    mutating func put(optional value: String?) {
        put(value != nil)
        put(value ?? "")
    }

    mutating func put(_ info: PageInfo) {
        put(info.index)
        put(info.mediaBox)
        put(info.cropBox)
        put(info.rotation)
        put(info.displaySize.width)
        put(info.displaySize.height)
        put(optional: info.label)
    }

    mutating func put(_ annotation: AnnotationInfo) {
        put(annotation.objectNumber)
        put(annotation.subtype)
        put(annotation.rect)
        put(annotation.flags.rawValue)
        put(annotation.contents)
        put(annotation.author)
        put(optional: annotation.fieldType?.rawValue)
        put(annotation.fieldName)
        put(annotation.value)
        put(annotation.options.count)
        for option in annotation.options { put(option) }
        put(annotation.maxLength ?? -1)
        put(annotation.isFieldReadOnly)
    }

    mutating func put(_ element: TaggedElement) {
        put(element.kind)
        put(element.depth)
        put(optional: element.alt)
        put(optional: element.actualText)
        put(optional: element.language)
        put(element.box != nil)
        put(element.box ?? .zero)
        put(element.glyphs.count)
        for glyph in element.glyphs { put(glyph) }
    }
}

extension WireReader {
    mutating func optionalString() throws(WireError) -> String? {
        let has = try bool()
        let value = try string()
        return has ? value : nil
    }

    mutating func pageInfo() throws(WireError) -> PageInfo {
        let index = try int(), mediaBox = try rect(), cropBox = try rect(), rotation = try int()
        let size = Size(width: try double(), height: try double())
        return PageInfo(
            index: index, mediaBox: mediaBox, cropBox: cropBox, rotation: rotation, displaySize: size,
            label: try optionalString())
    }

    mutating func annotation() throws(WireError) -> AnnotationInfo {
        let objectNumber = try int(), subtype = try string(), rect = try rect(), flags = try int()
        let contents = try string(), author = try string(), fieldType = try optionalString()
        let fieldName = try string(), value = try string()
        var options: [String] = []
        for _ in 0..<(try count()) { options.append(try string()) }
        let maxLength = try int()
        return AnnotationInfo(
            objectNumber: objectNumber, subtype: subtype, rect: rect, flags: AnnotationInfo.Flags(rawValue: flags),
            contents: contents, author: author, fieldType: fieldType.flatMap(AnnotationInfo.FieldType.init(rawValue:)),
            fieldName: fieldName, value: value, options: options, maxLength: maxLength < 0 ? nil : maxLength,
            isFieldReadOnly: try bool())
    }

    mutating func taggedElement() throws(WireError) -> TaggedElement {
        let byte = try byte()
        guard let kind = TaggedElement.Kind(rawValue: byte) else {
            throw WireError("unknown structure element \(byte)")
        }
        let depth = try int(), alt = try optionalString(), actualText = try optionalString()
        let language = try optionalString(), hasBox = try bool(), box = try rect()
        var glyphs: [Rect] = []
        for _ in 0..<(try count()) { glyphs.append(try rect()) }
        return TaggedElement(
            kind: kind, depth: depth, alt: alt, actualText: actualText, language: language, box: hasBox ? box : nil,
            glyphs: glyphs)
    }
}

extension AnnotationInfo {
    /// What the interaction components need of an annotation LecternPDF read.
    public init(_ annotation: PDFAnnotation) {
        let field = annotation.field
        self.init(
            objectNumber: annotation.objectNumber, subtype: annotation.subtype, rect: annotation.rect,
            flags: Flags(rawValue: annotation.flags.rawValue), contents: annotation.contents,
            author: annotation.author, fieldType: field.map { Self.fieldType($0.type) }, fieldName: field?.name ?? "",
            value: field?.value ?? "", options: field?.options ?? [], maxLength: field?.maxLength,
            isFieldReadOnly: field?.isReadOnly ?? false)
    }

    private static func fieldType(_ type: PDFAnnotation.FieldType) -> FieldType {
        switch type {
        case .text: .text
        case .multilineText: .multilineText
        case .checkbox: .checkbox
        case .radio: .radio
        case .comboChoice: .comboChoice
        case .listChoice: .listChoice
        case .pushButton: .pushButton
        case .signature: .signature
        case .unknown: .unknown
        }
    }
}

extension PDFDocument {
    /// Page `index`'s annotations and form fields as the interaction components see them (none
    /// when they cannot be read).
    public func annotationInfos(page index: Int) -> [AnnotationInfo] {
        ((try? annotations(page: index))?.annotations ?? []).map(AnnotationInfo.init)
    }
}

extension WireWriter {
    mutating func put(_ facts: DocumentFacts) {
        put(facts.isTagged)
        put(optional: facts.language)
        put(facts.isEncrypted)
        put(facts.wasRepaired)
        put(facts.claimedPageCount)
        put(facts.pageCount)
    }

    mutating func put(_ facts: PageFacts) {
        put(facts.size.width)
        put(facts.size.height)
        put(facts.characterCount)
        put(facts.smallestTextSize ?? -1)
        put(facts.substitutedFonts.count)
        for font in facts.substitutedFonts { put(font) }
        put(facts.annotationCount)
        put(facts.fieldCount)
        put(facts.figureCount)
        put(facts.figuresWithoutAlt)
    }
}

extension WireReader {
    mutating func documentFacts() throws(WireError) -> DocumentFacts {
        DocumentFacts(
            isTagged: try bool(), language: try optionalString(), isEncrypted: try bool(), wasRepaired: try bool(),
            claimedPageCount: try int(), pageCount: try int())
    }

    mutating func pageFacts() throws(WireError) -> PageFacts {
        let size = Size(width: try double(), height: try double())
        let characters = try int(), smallest = try double()
        var fonts: [String] = []
        for _ in 0..<(try count()) { fonts.append(try string()) }
        return PageFacts(
            size: size, characterCount: characters, smallestTextSize: smallest < 0 ? nil : smallest,
            substitutedFonts: fonts, annotationCount: try int(), fieldCount: try int(), figureCount: try int(),
            figuresWithoutAlt: try int())
    }
}
