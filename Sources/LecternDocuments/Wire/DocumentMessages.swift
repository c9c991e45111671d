import LecternCore
import LecternLinux
import LecternPDF
import LecternRender

/// What the reader asks of the render worker process: one message per request on a channel
/// (a SOCK_SEQPACKET socket, so each message arrives whole), answered by one `DocumentResponse`.
///
/// A new request touches three places:
/// 1. the protocol (this file): its case here, its tag in `Tag`, its fields in `encode` and
///    `decode` (and, if its answer is of a new kind, the same in `DocumentResponse`);
/// 2. the client: its method in `ShownDocument` (Client/ShownDocument.swift);
/// 3. the server: its answer in `DocumentServer.respond(to:slot:descriptor:cookie:)` (Server/;
///    a batch of tiles is answered tile by tile, in `answer`).
/// The answers are in DocumentResponse.swift. The round-trip test (RenderProcessTests.swift) must write and read every tag.
public enum DocumentRequest: Sendable, Equatable {
    /// Opens the document (the first message on channel 0 of each worker), applies `edits` (those
    /// a worker before this one applied), and interprets `preparePage` so its first tile only
    /// rasterizes. The worker limits itself first (`WorkerLimits`): a worker forked at the
    /// reader's start learns them only here.
    case open(path: String, password: String?, preparePage: Int, edits: [DocumentEdit], limits: WorkerLimits)
    /// Draws tile `key`, `stride` bytes a row, into shared memory (after its header): the memory
    /// sent with this request when `ownMemory` (drawn into, then let go), else the channel's
    /// buffer (sent with the first request that uses it, then kept).
    case render(TileKey, stride: Int, ownMemory: Bool)
    /// Draws several tiles, most urgent first, into the channel's buffer (each at its offset),
    /// answering each as it is drawn (`TileBatch`).
    case renderBatch(TileBatch)
    /// The text blocks and links of a page.
    case pageText(page: Int)
    /// Where `query` (as typed: `SearchQuery` folds it) is found on a page.
    case search(query: String, page: Int)
    /// Edits the document (its later renders show the edit).
    case edit(DocumentEdit)
    /// Walks the whole page tree: answered with the number of pages it holds.
    case pageTree
    /// The geometry and labels of the pages in a range (after `pageTree`).
    case pageInfos(Range<Int>)
    /// Frees the page objects reading every page's info kept (`PDFDocument.releasePageObjects`).
    case releasePageObjects
    /// A page's annotations and form fields.
    case annotations(page: Int)
    /// The outline (bookmarks).
    case outline
    /// A page's presentation keys (/Dur, /Trans).
    case presentation(page: Int)
    /// Saves the document with its edits incrementally to a path: only a worker opened without
    /// its seccomp filter (`WorkerLimits.isFiltered` false) may write a file.
    case save(path: String)
    /// The document-wide facts of an audit (walks the whole page tree).
    case documentFacts
    /// A page's facts of an audit (its text, fonts, annotations, fields, figures).
    case pageFacts(page: Int)
    /// A page's large print: its text in reading order in one column (`ReflowMessages.swift`),
    /// measured with the font file whose descriptor comes with the request.
    case reflow(ReflowRequest)
    /// Lays a reflowable document out again (`PDFDocument.layOut`), keeping `keepingPage` (-1:
    /// none) by its place in the text, else laying out only the chapters through `throughPage`
    /// (nil: all): answered with the page count, the page that holds it now and the new page 1's
    /// geometry.
    case layout(BookLayout, keepingPage: Int, throughPage: Int?)

    /// Each request's first byte on the wire, used by `encode` and `decode` alike.
    enum Tag: UInt8, CaseIterable {
        case open = 1, render = 2, pageText = 3, search = 4, edit = 5, pageTree = 6, pageInfos = 7
        case releasePageObjects = 8, annotations = 9, outline = 10, presentation = 11, save = 12
        case documentFacts = 13, pageFacts = 14, reflow = 15, layout = 16, renderBatch = 17
    }

    func encode(into writer: inout WireWriter) {
        switch self {
        case let .open(path, password, preparePage, edits, limits):
            writer.put(Tag.open)
            writer.put(limits.addressSpace)
            writer.put(limits.renderDelayMilliseconds)
            writer.put(limits.crashPage)
            writer.put(limits.isFiltered)
            writer.put(limits.niceness)
            writer.put(path)
            writer.put(optional: password)
            writer.put(preparePage)
            writer.put(edits.count)
            for edit in edits { edit.encode(into: &writer) }
        case let .render(key, stride, ownMemory):
            writer.put(Tag.render)
            writer.put(key)
            writer.put(stride)
            writer.put(ownMemory)
        case let .renderBatch(batch):
            writer.put(Tag.renderBatch)
            batch.encode(into: &writer)
        case let .pageText(page):
            writer.put(Tag.pageText)
            writer.put(page)
        case let .search(query, page):
            writer.put(Tag.search)
            writer.put(query)
            writer.put(page)
        case let .edit(edit):
            writer.put(Tag.edit)
            edit.encode(into: &writer)
        case .pageTree: writer.put(Tag.pageTree)
        case let .pageInfos(range):
            writer.put(Tag.pageInfos)
            writer.put(range.lowerBound)
            writer.put(range.count)
        case .releasePageObjects: writer.put(Tag.releasePageObjects)
        case let .annotations(page):
            writer.put(Tag.annotations)
            writer.put(page)
        case .outline: writer.put(Tag.outline)
        case let .presentation(page):
            writer.put(Tag.presentation)
            writer.put(page)
        case let .save(path):
            writer.put(Tag.save)
            writer.put(path)
        case .documentFacts: writer.put(Tag.documentFacts)
        case let .pageFacts(page):
            writer.put(Tag.pageFacts)
            writer.put(page)
        case let .reflow(request):
            writer.put(Tag.reflow)
            request.encode(into: &writer)
        case let .layout(layout, page, through):
            writer.put(Tag.layout)
            writer.put(layout)
            writer.put(page)
            writer.put(through ?? -1)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> DocumentRequest {
        let byte = try reader.byte()
        guard let tag = Tag(rawValue: byte) else { throw WireError("unknown request \(byte)") }
        switch tag {
        case .open:
            let limits = WorkerLimits(
                addressSpace: try reader.int(), renderDelayMilliseconds: try reader.int(), crashPage: try reader.int(),
                isFiltered: try reader.bool(), niceness: try reader.int())
            let path = try reader.string(), password = try reader.optionalString()
            let preparePage = try reader.int()
            var edits: [DocumentEdit] = []
            for _ in 0..<(try reader.count()) { edits.append(try DocumentEdit.decode(&reader)) }
            return .open(
                path: path, password: password, preparePage: preparePage, edits: edits,
                limits: limits)
        case .render: return .render(try reader.tileKey(), stride: try reader.int(), ownMemory: try reader.bool())
        case .renderBatch: return .renderBatch(try TileBatch.decode(&reader))
        case .pageText: return .pageText(page: try reader.int())
        case .search: return .search(query: try reader.string(), page: try reader.int())
        case .edit: return .edit(try DocumentEdit.decode(&reader))
        case .pageTree: return .pageTree
        case .pageInfos:
            let start = try reader.int(), count = try reader.int()
            guard start >= 0, count >= 0, count <= 1 << 20 else { throw WireError("bad page range") }
            return .pageInfos(start..<start + count)
        case .releasePageObjects: return .releasePageObjects
        case .annotations: return .annotations(page: try reader.int())
        case .outline: return .outline
        case .presentation: return .presentation(page: try reader.int())
        case .save: return .save(path: try reader.string())
        case .documentFacts: return .documentFacts
        case .pageFacts: return .pageFacts(page: try reader.int())
        case .reflow: return .reflow(try ReflowRequest.decode(&reader))
        case .layout:
            let layout = try reader.bookLayout(), page = try reader.int(), through = try reader.int()
            return .layout(layout, keepingPage: page, throughPage: through < 0 ? nil : through)
        }
    }
}

extension DocumentRequest {
    /// What the encoded open request `bytes` asks for (nil: it is not one).
    static func decodeOpen(
        _ bytes: [UInt8]
    ) -> (path: String, password: String?, preparePage: Int, edits: [DocumentEdit], limits: WorkerLimits)? {
        var reader = WireReader(bytes)
        guard case .open(let path, let password, let preparePage, let edits, let limits)? = try? decode(&reader)
        else { return nil }
        return (path, password, preparePage, edits, limits)
    }
}
