import LecternCore
import LecternLinux
import LecternPDF

/// An edit of the open document (pdfedit's `PDFDocument` edits), as one value: applied in the
/// render worker, which owns the document whose pages it renders, and replayed to a worker
/// started after one died (it opens the file as it is on disk).
public enum DocumentEdit: Sendable, Equatable {
    case annotationRect(Rect, objectNumber: Int, page: Int)
    case annotationContents(String, objectNumber: Int, page: Int)
    case fieldValue(String, objectNumber: Int, page: Int)
    case toggleField(objectNumber: Int, page: Int)
    case readingDirection(rightToLeft: Bool)
    /// A reflowable document laid out at a page and font size (`DocumentRequest.layout` made it;
    /// replayed to a new worker without the page it kept: that is the reader's to ask again).
    case layout(BookLayout)

    /// The page the edit is on (nil: the document's).
    public var page: Int? {
        switch self {
        case .annotationRect(_, _, let page), .annotationContents(_, _, let page), .fieldValue(_, _, let page),
            .toggleField(_, let page):
            page
        case .readingDirection, .layout: nil
        }
    }

    /// Applies the edit to `document`; returns the field's value afterwards for field edits.
    @discardableResult
    public func apply(to document: PDFDocument) throws(PDFError) -> String? {
        switch self {
        case let .annotationRect(rect, object, page):
            try document.setAnnotationRect(rect, objectNumber: object, page: page)
        case let .annotationContents(text, object, page):
            try document.setAnnotationContents(text, objectNumber: object, page: page)
        case let .fieldValue(value, object, page):
            return try document.setFieldValue(value, objectNumber: object, page: page)
        case let .toggleField(object, page):
            return try document.toggleField(objectNumber: object, page: page)
        case let .readingDirection(rightToLeft):
            try document.setReadingDirection(rightToLeft: rightToLeft)
        case let .layout(layout):
            _ = try document.layOut(layout)
        }
        return nil
    }

    /// Each edit's first byte on the wire, used by `encode` and `decode` alike.
    enum Tag: UInt8, CaseIterable {
        case annotationRect = 1, annotationContents = 2, fieldValue = 3, toggleField = 4, readingDirection = 5
        case layout = 6
    }

    func encode(into writer: inout WireWriter) {
        switch self {
        case let .annotationRect(rect, object, page):
            writer.put(Tag.annotationRect)
            writer.put(rect)
            writer.put(object)
            writer.put(page)
        case let .annotationContents(text, object, page):
            writer.put(Tag.annotationContents)
            writer.put(text)
            writer.put(object)
            writer.put(page)
        case let .fieldValue(value, object, page):
            writer.put(Tag.fieldValue)
            writer.put(value)
            writer.put(object)
            writer.put(page)
        case let .toggleField(object, page):
            writer.put(Tag.toggleField)
            writer.put(object)
            writer.put(page)
        case let .readingDirection(rightToLeft):
            writer.put(Tag.readingDirection)
            writer.put(rightToLeft)
        case let .layout(layout):
            writer.put(Tag.layout)
            writer.put(layout)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> DocumentEdit {
        let byte = try reader.byte()
        guard let tag = Tag(rawValue: byte) else { throw WireError("unknown edit \(byte)") }
        switch tag {
        case .annotationRect:
            return .annotationRect(try reader.rect(), objectNumber: try reader.int(), page: try reader.int())
        case .annotationContents:
            return .annotationContents(try reader.string(), objectNumber: try reader.int(), page: try reader.int())
        case .fieldValue:
            return .fieldValue(try reader.string(), objectNumber: try reader.int(), page: try reader.int())
        case .toggleField: return .toggleField(objectNumber: try reader.int(), page: try reader.int())
        case .readingDirection: return .readingDirection(rightToLeft: try reader.bool())
        case .layout: return .layout(try reader.bookLayout())
        }
    }
}

extension WireWriter {
    mutating func put(_ layout: BookLayout) {
        put(layout.width)
        put(layout.height)
        put(layout.fontSize)
        put(layout.bottomMargin)
    }
}

extension WireReader {
    mutating func bookLayout() throws(WireError) -> BookLayout {
        BookLayout(width: try double(), height: try double(), fontSize: try double(), bottomMargin: try double())
    }
}
