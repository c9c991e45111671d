/// The edge a document is bound on, read from `/ViewerPreferences /Direction`.
public enum PageBinding: String, Hashable, Codable, Sendable, CaseIterable {
    /// Left-to-right documents (`/Direction /L2R`).
    case leftEdge
    /// Right-to-left documents (`/Direction /R2L`): horizontal layouts run right to left
    /// and the pages inside a spread are shown in reverse order.
    case rightEdge
    /// No direction given; behaves as `leftEdge`.
    case unknown

    /// Whether reading runs right to left.
    public var isRightToLeft: Bool { self == .rightEdge }

    /// Reads the PDF name of `/ViewerPreferences /Direction` (`"R2L"` or `"L2R"`).
    public init(pdfDirection: String?) {
        switch pdfDirection {
        case "R2L": self = .rightEdge
        case "L2R": self = .leftEdge
        default: self = .unknown
        }
    }

    /// Puts items that are in reading order into on-screen left-to-right order.
    ///
    /// Thumbnail strips and grids use this to flip their rows under right-edge binding.
    public func displayOrder<T>(_ readingOrder: [T]) -> [T] {
        isRightToLeft ? readingOrder.reversed() : readingOrder
    }
}
