import LecternCore
import LecternPDF
import LecternRender

/// What the reader asks of the render worker process: one message per request on a channel
/// (a SOCK_SEQPACKET socket, so each message arrives whole), answered by one `WorkerResponse`.
///
/// Adding a request kind: a case here and in `WorkerResponse`, its tag, its fields in
/// `encode`/`decode`, and its handling in `RenderWorkerMain.answer(_:)`.
public enum WorkerRequest: Sendable, Equatable {
    /// Opens the document (the first message on channel 0 of each worker), applies `edits` (those
    /// a worker before this one applied), and interprets `preparePage` so its first tile only
    /// rasterizes. The worker limits itself first (`WorkerLimits`): a worker forked at the
    /// reader's start learns them only here.
    case open(path: String, password: String?, preparePage: Int, edits: [DocumentEdit], limits: WorkerLimits)
    /// Draws tile `key`, `stride` bytes a row, into shared memory (after its header): the memory
    /// sent with this request when `ownMemory` (drawn into, then let go), else the channel's
    /// buffer (sent with the first request that uses it, then kept).
    case render(TileKey, stride: Int, ownMemory: Bool)
    /// The text blocks and links of a page.
    case pageText(page: Int)
    /// Where `query` (as typed: `SearchQuery` folds it) is found on a page.
    case search(query: String, page: Int)
    /// Edits the document (its later renders show the edit).
    case edit(DocumentEdit)

    func encode(into writer: inout WireWriter) {
        switch self {
        case let .open(path, password, preparePage, edits, limits):
            writer.put(UInt8(1))
            writer.put(limits.addressSpace)
            writer.put(limits.renderDelayMilliseconds)
            writer.put(limits.crashPage)
            writer.put(path)
            writer.put(password ?? "")
            writer.put(password != nil)
            writer.put(preparePage)
            writer.put(edits.count)
            for edit in edits { edit.encode(into: &writer) }
        case let .render(key, stride, ownMemory):
            writer.put(UInt8(2))
            writer.put(key)
            writer.put(stride)
            writer.put(ownMemory)
        case let .pageText(page):
            writer.put(UInt8(3))
            writer.put(page)
        case let .search(query, page):
            writer.put(UInt8(4))
            writer.put(query)
            writer.put(page)
        case let .edit(edit):
            writer.put(UInt8(5))
            edit.encode(into: &writer)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> WorkerRequest {
        switch try reader.byte() {
        case 1:
            let limits = WorkerLimits(
                addressSpace: try reader.int(), renderDelayMilliseconds: try reader.int(), crashPage: try reader.int())
            let path = try reader.string(), password = try reader.string()
            let hasPassword = try reader.bool()
            let preparePage = try reader.int()
            var edits: [DocumentEdit] = []
            for _ in 0..<(try reader.count()) { edits.append(try DocumentEdit.decode(&reader)) }
            return .open(
                path: path, password: hasPassword ? password : nil, preparePage: preparePage, edits: edits,
                limits: limits)
        case 2: return .render(try reader.tileKey(), stride: try reader.int(), ownMemory: try reader.bool())
        case 3: return .pageText(page: try reader.int())
        case 4: return .search(query: try reader.string(), page: try reader.int())
        case 5: return .edit(try DocumentEdit.decode(&reader))
        case let tag: throw WireError("unknown request \(tag)")
        }
    }
}

/// What the render worker limits itself to before it opens the document.
public struct WorkerLimits: Sendable, Equatable {
    /// RLIMIT_AS in bytes (0: unlimited).
    public var addressSpace: Int
    /// Tests: milliseconds each render waits first (0: none), so a test can kill it mid-render.
    public var renderDelayMilliseconds: Int
    /// Tests: the page (0-based) whose render crashes the worker with SIGSEGV (-1: none), as a
    /// page MuPDF crashes on would; `WorkerLimits.crashesOpening`: it crashes opening the file.
    public var crashPage: Int
    /// `crashPage` for a worker that crashes as it opens the document (a file MuPDF's parser
    /// crashes on).
    public static let crashesOpening = -2

    public init(addressSpace: Int, renderDelayMilliseconds: Int = 0, crashPage: Int = -1) {
        self.addressSpace = addressSpace
        self.renderDelayMilliseconds = renderDelayMilliseconds
        self.crashPage = crashPage
    }
}

/// The render worker's answer to one `WorkerRequest`.
public enum WorkerResponse: Sendable, Equatable {
    /// The most characters of a page a text answer carries (57 bytes each: the answer stays
    /// under `WorkerChannel.maximumMessage` with the page's blocks and links); the rest of a
    /// denser page cannot be selected with the worker on.
    public static let maximumCharacters = 15_000

    /// The document opened: what the reader lays out before it reads anything else.
    case opened(pageCount: Int, isRightToLeft: Bool)
    /// The request failed (a document that does not open, a damaged page): the message to show.
    case failed(String)
    /// A tile was drawn into the shared buffer, or the render was cancelled.
    case drawn(TileContent.DrawOutcome)
    /// A page's text blocks, links and characters in reading order (PDF user space); at most
    /// `maximumCharacters` characters, so the answer fits one message.
    case pageText(blocks: [Rect], links: [PDFLink], characters: [PageCharacter])
    /// Where a query is found on a page.
    case searchHits([SearchHit])
    /// An edit was applied; the field's value afterwards for field edits.
    case edited(String?)

    func encode(into writer: inout WireWriter) {
        switch self {
        case let .opened(pageCount, isRightToLeft):
            writer.put(UInt8(1))
            writer.put(pageCount)
            writer.put(isRightToLeft)
        case let .failed(message):
            writer.put(UInt8(2))
            writer.put(message)
        case let .drawn(outcome):
            writer.put(UInt8(3))
            switch outcome {
            case .drawn(let isDamaged): writer.put(UInt8(isDamaged ? 1 : 0))
            case .cancelled: writer.put(UInt8(2))
            case .failed(let reason):
                writer.put(UInt8(3))
                writer.put(reason)
            }
        case let .pageText(blocks, links, characters):
            writer.put(UInt8(4))
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
        case let .edited(value):
            writer.put(UInt8(6))
            writer.put(value != nil)
            writer.put(value ?? "")
        case let .searchHits(hits):
            writer.put(UInt8(5))
            writer.put(hits.count)
            for hit in hits {
                writer.put(hit.rects.count)
                for rect in hit.rects { writer.put(rect) }
            }
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> WorkerResponse {
        switch try reader.byte() {
        case 1: return .opened(pageCount: try reader.int(), isRightToLeft: try reader.bool())
        case 2: return .failed(try reader.string())
        case 3:
            switch try reader.byte() {
            case 0: return .drawn(.drawn(isDamaged: false))
            case 1: return .drawn(.drawn(isDamaged: true))
            case 2: return .drawn(.cancelled)
            default: return .drawn(.failed(try reader.string()))
            }
        case 4:
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
            var characters: [PageCharacter] = []
            for _ in 0..<(try reader.count()) {
                let scalar = UInt32(truncatingIfNeeded: try reader.int())
                let rect = try reader.rect()
                let line = try reader.int(), block = try reader.int()
                characters.append(
                    PageCharacter(
                        scalar: scalar, rect: rect, line: line, block: block, isRightToLeft: try reader.bool()))
            }
            return .pageText(blocks: blocks, links: links, characters: characters)
        case 5:
            var hits: [SearchHit] = []
            for _ in 0..<(try reader.count()) {
                var rects: [Rect] = []
                for _ in 0..<(try reader.count()) { rects.append(try reader.rect()) }
                hits.append(SearchHit(rects: rects))
            }
            return .searchHits(hits)
        case 6:
            let hasValue = try reader.bool()
            let value = try reader.string()
            return .edited(hasValue ? value : nil)
        case let tag: throw WireError("unknown response \(tag)")
        }
    }
}

/// A message that does not decode (a bug, or a worker that is not ours).
public struct WireError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = "render worker message: \(description)" }
}

/// Appends fixed-size little-endian fields and length-prefixed strings.
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func put(_ value: UInt8) { bytes.append(value) }
    mutating func put(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func put(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func put(_ value: Double) { put(Int(Int64(bitPattern: value.bitPattern))) }
    mutating func put(_ value: String) {
        put(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }
    mutating func put(_ rect: Rect) {
        for value in [rect.minX, rect.minY, rect.width, rect.height] { put(value) }
    }
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
    }
}

/// Reads what `WireWriter` wrote, checking every length against what is left.
struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() throws(WireError) -> UInt8 {
        guard offset < bytes.count else { throw WireError("truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func bool() throws(WireError) -> Bool { try byte() != 0 }
    mutating func int() throws(WireError) -> Int {
        guard offset + 8 <= bytes.count else { throw WireError("truncated") }
        var value: Int64 = 0
        for index in 0..<8 { value |= Int64(bytes[offset + index]) << (8 * index) }
        offset += 8
        return Int(value)
    }
    /// A count of items that follow (each at least one byte).
    mutating func count() throws(WireError) -> Int {
        let value = try int()
        guard value >= 0, value <= bytes.count - offset else { throw WireError("bad count \(value)") }
        return value
    }
    mutating func double() throws(WireError) -> Double { Double(bitPattern: UInt64(bitPattern: Int64(try int()))) }
    mutating func string() throws(WireError) -> String {
        let length = try count()
        defer { offset += length }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }
    mutating func rect() throws(WireError) -> Rect {
        Rect(x: try double(), y: try double(), width: try double(), height: try double())
    }
    mutating func tileKey() throws(WireError) -> TileKey {
        let page = try int(), width = try int(), height = try int(), column = try int()
        let kind: TileKey.Kind = column < 0 ? .preview : .tile(column: column, row: try int())
        return TileKey(page: page, pageWidth: width, pageHeight: height, kind: kind)
    }
}
