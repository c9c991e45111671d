import LecternCore
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

    /// The page the edit is on (nil: the document's).
    public var page: Int? {
        switch self {
        case .annotationRect(_, _, let page), .annotationContents(_, _, let page), .fieldValue(_, _, let page),
            .toggleField(_, let page):
            page
        case .readingDirection: nil
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
        }
        return nil
    }

    func encode(into writer: inout WireWriter) {
        switch self {
        case let .annotationRect(rect, object, page):
            writer.put(UInt8(1))
            writer.put(rect)
            writer.put(object)
            writer.put(page)
        case let .annotationContents(text, object, page):
            writer.put(UInt8(2))
            writer.put(text)
            writer.put(object)
            writer.put(page)
        case let .fieldValue(value, object, page):
            writer.put(UInt8(3))
            writer.put(value)
            writer.put(object)
            writer.put(page)
        case let .toggleField(object, page):
            writer.put(UInt8(4))
            writer.put(object)
            writer.put(page)
        case let .readingDirection(rightToLeft):
            writer.put(UInt8(5))
            writer.put(rightToLeft)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> DocumentEdit {
        switch try reader.byte() {
        case 1: return .annotationRect(try reader.rect(), objectNumber: try reader.int(), page: try reader.int())
        case 2: return .annotationContents(try reader.string(), objectNumber: try reader.int(), page: try reader.int())
        case 3: return .fieldValue(try reader.string(), objectNumber: try reader.int(), page: try reader.int())
        case 4: return .toggleField(objectNumber: try reader.int(), page: try reader.int())
        case 5: return .readingDirection(rightToLeft: try reader.bool())
        case let tag: throw WireError("unknown edit \(tag)")
        }
    }
}
