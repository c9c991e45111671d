import LecternCore

/// A link on a page: a rectangle to tap and where it goes.
public struct PDFLink: Sendable, Equatable {
    /// Where a link goes.
    public enum Target: Sendable, Equatable {
        /// A page of the same document (0-based).
        case page(Int)
        /// An external address (`https:`, `mailto:`, …), as written in the file.
        case uri(String)
    }

    /// The link's rectangle in PDF user space (unrotated, y up), like `PageInfo.mediaBox` and
    /// `PDFDocument.textBlocks(page:)`: map it with the page's rotation and crop box to place it on screen.
    public var rect: Rect
    /// Where the link goes.
    public var target: Target

    public init(rect: Rect, target: Target) {
        self.rect = rect
        self.target = target
    }
}
