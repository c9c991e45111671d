import LecternCore
import LecternLinux
import LecternPDF
import LecternRender

/// The render worker's answer to one `DocumentRequest`.
public enum DocumentResponse: Sendable, Equatable {
    /// The most characters of a page a text answer carries (57 bytes each: the answer stays
    /// under `MessageChannel.maximumMessage` with the page's blocks, links and tagged elements:
    /// at most 64 of about 1 kB and 1,024 glyph boxes of 32 bytes); the rest of a
    /// denser page cannot be selected with the worker on.
    public static let maximumCharacters = 15_000

    /// The document opened: what the reader lays out before it reads anything else.
    case opened(DocumentSummary)
    /// The document did not open (the answer to the open request).
    case openFailed(PDFError)
    /// The request failed (a damaged page, a document that did not open): the message to show.
    case failed(String)
    /// A tile was drawn into the shared buffer, or the render was cancelled.
    case drawn(TileContent.DrawOutcome)
    /// A page's text blocks, links and characters in reading order (PDF user space), and the
    /// elements of its structure tree (tagged PDFs); at most `maximumCharacters` characters, so
    /// the answer fits one message.
    case pageText(blocks: [Rect], links: [PDFLink], characters: [PageCharacter], tagged: [TaggedElement])
    /// Where a query is found on a page.
    case searchHits([SearchHit])
    /// An edit was applied; the field's value afterwards for field edits.
    case edited(String?)
    /// The number of pages the page tree holds.
    case pageCount(Int)
    /// The pages' geometry and labels, in order (nil: that page's info cannot be read).
    case pageInfos([PageInfo?])
    /// Done, with nothing to say (pages released, a save written).
    case done
    /// A page's annotations and form fields.
    case annotations([AnnotationInfo])
    /// The outline, entries that do not fit one message left out.
    case outline([OutlineEntry])
    /// A page's presentation keys.
    case presentation(PagePresentation)
    /// The document-wide facts of an audit.
    case documentFacts(DocumentFacts)
    /// A page's facts of an audit.
    case pageFacts(PageFacts)
    /// A page's large print.
    case reflowed(ReflowedPage)
    /// A reflowable document was laid out again: its page count, the page kept, and page 1.
    case laidOut(LaidOutBook, firstPage: PageInfo)

    /// The most bytes an outline's entries take in one answer (their titles are at most 1 KB).
    static let outlineBytes = MessageChannel.maximumMessage - 4096

    /// Each answer's first byte on the wire, used by `encode` and `decode` alike.
    enum Tag: UInt8, CaseIterable {
        case opened = 1, failed = 2, drawn = 3, pageText = 4, searchHits = 5, edited = 6, openFailed = 7
        case pageCount = 8, pageInfos = 9, done = 10, annotations = 11, outline = 12, presentation = 13
        case documentFacts = 14, pageFacts = 15, reflowed = 16, laidOut = 17
    }

    /// What became of a render (`drawn`'s second byte).
    enum DrawnTag: UInt8 {
        case drawn = 0, damaged = 1, cancelled = 2, failed = 3
    }

    func encode(into writer: inout WireWriter) {
        switch self {
        case let .opened(summary):
            writer.put(Tag.opened)
            summary.encode(into: &writer)
        case let .openFailed(error):
            writer.put(Tag.openFailed)
            writer.put(error.kind.rawValue)
            writer.put(error.path)
            writer.put(error.message)
        case let .pageCount(count):
            writer.put(Tag.pageCount)
            writer.put(count)
        case let .pageInfos(infos):
            writer.put(Tag.pageInfos)
            writer.put(infos.count)
            for info in infos {
                writer.put(info != nil)
                if let info { writer.put(info) }
            }
        case .done: writer.put(Tag.done)
        case let .annotations(annotations):
            writer.put(Tag.annotations)
            writer.put(annotations.count)
            for annotation in annotations { writer.put(annotation) }
        case let .outline(entries):
            writer.put(Tag.outline)
            var fitting = 0, bytes = 0
            for entry in entries {
                bytes += 32 + entry.title.utf8.count
                if bytes > Self.outlineBytes { break }
                fitting += 1
            }
            writer.put(fitting)
            for entry in entries.prefix(fitting) {
                writer.put(entry.title)
                writer.put(entry.page ?? -1)
                writer.put(entry.depth)
                writer.put(entry.isOpen)
            }
        case let .presentation(presentation):
            writer.put(Tag.presentation)
            writer.put(presentation.duration ?? -1)
            writer.put(presentation.transition != nil)
            if let transition = presentation.transition {
                writer.put(transition.style.rawValue)
                writer.put(transition.duration)
                writer.put(transition.direction)
                writer.put(transition.isVertical)
                writer.put(transition.isOutward)
            }
        case let .failed(message):
            writer.put(Tag.failed)
            writer.put(message)
        case let .drawn(outcome):
            writer.put(Tag.drawn)
            switch outcome {
            case .drawn(let isDamaged): writer.put(isDamaged ? DrawnTag.damaged : .drawn)
            case .cancelled: writer.put(DrawnTag.cancelled)
            case .failed(let reason):
                writer.put(DrawnTag.failed)
                writer.put(reason)
            }
        case let .pageText(blocks, links, characters, tagged):
            writer.put(Tag.pageText)
            writer.put(blocks.count)
            for block in blocks { writer.put(block) }
            writer.put(links.count)
            for link in links {
                writer.put(link.rect)
                switch link.target {
                case .page(let page):
                    writer.put(false)
                    writer.put(page)
                case .uri(let address):
                    writer.put(true)
                    writer.put(address)
                }
            }
            writer.put(characters.count)
            for character in characters {
                writer.put(Int(character.scalar))
                writer.put(character.rect)
                writer.put(character.line)
                writer.put(character.block)
                writer.put(character.isRightToLeft)
            }
            writer.put(tagged.count)
            for element in tagged { writer.put(element) }
        case let .edited(value):
            writer.put(Tag.edited)
            writer.put(optional: value)
        case let .searchHits(hits):
            writer.put(Tag.searchHits)
            writer.put(hits.count)
            for hit in hits {
                writer.put(hit.rects.count)
                for rect in hit.rects { writer.put(rect) }
            }
        case let .documentFacts(facts):
            writer.put(Tag.documentFacts)
            writer.put(facts)
        case let .pageFacts(facts):
            writer.put(Tag.pageFacts)
            writer.put(facts)
        case let .reflowed(page):
            writer.put(Tag.reflowed)
            page.encode(into: &writer)
        case let .laidOut(book, firstPage):
            writer.put(Tag.laidOut)
            writer.put(book.pageCount)
            writer.put(book.page)
            writer.put(firstPage)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> DocumentResponse {
        let byte = try reader.byte()
        guard let tag = Tag(rawValue: byte) else { throw WireError("unknown response \(byte)") }
        switch tag {
        case .opened: return .opened(try DocumentSummary.decode(&reader))
        case .failed: return .failed(try reader.string())
        case .drawn:
            let byte = try reader.byte()
            switch DrawnTag(rawValue: byte) {
            case .drawn: return .drawn(.drawn(isDamaged: false))
            case .damaged: return .drawn(.drawn(isDamaged: true))
            case .cancelled: return .drawn(.cancelled)
            case .failed: return .drawn(.failed(try reader.string()))
            case nil: throw WireError("unknown render outcome \(byte)")
            }
        case .pageText:
            let blockCount = try reader.count()
            var blocks: [Rect] = []
            for _ in 0..<blockCount { blocks.append(try reader.rect()) }
            let linkCount = try reader.count()
            var links: [PDFLink] = []
            for _ in 0..<linkCount {
                let rect = try reader.rect()
                let target: PDFLink.Target = try reader.bool() ? .uri(try reader.string()) : .page(try reader.int())
                links.append(PDFLink(rect: rect, target: target))
            }
            // Reserved at the count the message gives (up to what a page may send): appended one
            // by one, the kept array grew by doubling, a third of it unused (190 KB on a full page).
            let characterCount = try reader.count()
            var characters: [PageCharacter] = []
            characters.reserveCapacity(min(characterCount, Self.maximumCharacters))
            for _ in 0..<characterCount {
                let scalar = UInt32(truncatingIfNeeded: try reader.int())
                let rect = try reader.rect()
                let line = try reader.int(), block = try reader.int()
                characters.append(
                    PageCharacter(
                        scalar: scalar, rect: rect, line: line, block: block, isRightToLeft: try reader.bool()))
            }
            var tagged: [TaggedElement] = []
            for _ in 0..<(try reader.count()) { tagged.append(try reader.taggedElement()) }
            return .pageText(blocks: blocks, links: links, characters: characters, tagged: tagged)
        case .searchHits:
            var hits: [SearchHit] = []
            for _ in 0..<(try reader.count()) {
                var rects: [Rect] = []
                for _ in 0..<(try reader.count()) { rects.append(try reader.rect()) }
                hits.append(SearchHit(rects: rects))
            }
            return .searchHits(hits)
        case .edited:
            return .edited(try reader.optionalString())
        case .openFailed:
            let kind = try reader.string()
            return .openFailed(
                PDFError(
                    PDFError.Kind(rawValue: kind) ?? .damaged, path: try reader.string(), message: try reader.string()))
        case .pageCount: return .pageCount(try reader.int())
        case .pageInfos:
            var infos: [PageInfo?] = []
            for _ in 0..<(try reader.count()) { infos.append(try reader.bool() ? try reader.pageInfo() : nil) }
            return .pageInfos(infos)
        case .done: return .done
        case .annotations:
            var annotations: [AnnotationInfo] = []
            for _ in 0..<(try reader.count()) { annotations.append(try reader.annotation()) }
            return .annotations(annotations)
        case .outline:
            var entries: [OutlineEntry] = []
            for _ in 0..<(try reader.count()) {
                let title = try reader.string(), page = try reader.int()
                entries.append(
                    OutlineEntry(
                        title: title, page: page < 0 ? nil : page, depth: try reader.int(), isOpen: try reader.bool()))
            }
            return .outline(entries)
        case .presentation:
            let duration = try reader.double()
            var presentation = PagePresentation(duration: duration < 0 ? nil : duration)
            if try reader.bool() {
                let style = try reader.string()
                presentation.transition = PageTransition(
                    style: PageTransition.Style(rawValue: style) ?? .replace, duration: try reader.double(),
                    direction: try reader.int(), isVertical: try reader.bool(), isOutward: try reader.bool())
            }
            return .presentation(presentation)
        case .documentFacts: return .documentFacts(try reader.documentFacts())
        case .pageFacts: return .pageFacts(try reader.pageFacts())
        case .reflowed: return .reflowed(try ReflowedPage.decode(&reader))
        case .laidOut:
            let book = LaidOutBook(pageCount: try reader.int(), page: try reader.int())
            return .laidOut(book, firstPage: try reader.pageInfo())
        }
    }
}
