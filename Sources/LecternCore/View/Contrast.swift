/// The colours a visitor reads in: the page's as the document has them, or one of the recolourings
/// a reader with low vision can choose (issue 30). It is part of every tile's identity: a tile
/// rendered in one contrast is never shown in another.
public struct Contrast: Hashable, Sendable, CustomStringConvertible {
    /// How the page's colours are mapped.
    public enum Mode: String, CaseIterable, Sendable {
        /// The document's own colours.
        case normal
        /// Dark page, light text: the lightness of every colour turned over, its hue kept.
        case invert
        /// Black on white in two tones, thin strokes thickened.
        case high
        /// Yellow text on a black page.
        case yellowOnBlack = "yellow-on-black"
    }

    public let mode: Mode
    /// Whether the page's images are recoloured too (else they keep their own colours).
    /// Always false in `.normal`, so that every normal tile has one key.
    public let recolorsImages: Bool

    public init(_ mode: Mode, recolorsImages: Bool = false) {
        self.mode = mode
        self.recolorsImages = mode == .normal ? false : recolorsImages
    }

    public static let normal = Contrast(.normal)

    /// As an option or policy value says it: "invert", "yellow-on-black".
    public var description: String { mode.rawValue + (recolorsImages ? " (images too)" : "") }
}
