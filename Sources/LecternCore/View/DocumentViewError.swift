/// Errors raised by the document view model, with messages an operator can act on.
public enum DocumentViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A page rotation that is not a multiple of 90°.
    case invalidRotation(Int)
    /// A page box with zero, negative or non-finite extent.
    case invalidPageBox(Rect)
    /// A page index outside `0..<pageCount`.
    case pageOutOfRange(page: Int, pageCount: Int)
    /// A spread index outside `0..<spreadCount`.
    case spreadOutOfRange(spread: Int, spreadCount: Int)
    /// A view state that cannot be restored because its viewport has no area.
    case emptyViewport(Rect)

    public var description: String {
        switch self {
        case .invalidRotation(let r):
            "page rotation \(r)° is not a multiple of 90°; the PDF's /Rotate entry is malformed"
        case .invalidPageBox(let box):
            "page box \(box) has no area; the PDF's /MediaBox or /CropBox is malformed"
        case .pageOutOfRange(let page, let count):
            "page index \(page) is outside the document's \(count) pages (0..<\(count)); check the configured start page"
        case .spreadOutOfRange(let spread, let count):
            "spread index \(spread) is outside the document's \(count) spreads"
        case .emptyViewport(let rect):
            "saved viewport \(rect) has no area; discard the saved view state"
        }
    }
}
