import LecternCore
import LecternPDF

/// What a page holds for touch and speech: its text blocks, links, characters, annotations and
/// form fields, and the elements of its structure tree (tagged PDFs), in PDF user space.
public struct PageText: Sendable {
    public var blocks: [Rect]
    public var links: [(rect: Rect, target: LinkTarget)]
    /// For text selection, in reading order.
    public var characters: PageCharacters = .empty
    public var annotations: [AnnotationInfo] = []
    /// Its figures, formulas and elements with /Alt, /ActualText or /Lang
    /// (`PDFDocument.taggedElements`); none for an untagged page.
    public var tagged: [TaggedElement] = []

    public init(
        blocks: [Rect], links: [(rect: Rect, target: LinkTarget)], characters: PageCharacters = .empty,
        annotations: [AnnotationInfo] = [], tagged: [TaggedElement] = []
    ) {
        self.blocks = blocks
        self.links = links
        self.characters = characters
        self.annotations = annotations
        self.tagged = tagged
    }

    /// A link as touch sees it.
    static func linkTarget(_ link: PDFLink) -> (rect: Rect, target: LinkTarget) {
        switch link.target {
        case .page(let target): (link.rect, .page(target))
        case .uri(let address): (link.rect, .uri(address))
        }
    }
}
