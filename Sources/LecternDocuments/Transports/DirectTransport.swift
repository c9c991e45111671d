import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The document service in this process (`--render-process off`, or when no worker can start):
/// each request is handed to a `DocumentServer` here, through the same codec as the worker's
/// (the client encodes, the server decodes, answers and encodes, the client decodes). Tiles are
/// drawn into memory of their own that becomes their image. No seccomp filter, no address-space
/// limit, no deadline: MuPDF runs in the reader.
///
/// Thread safe: the server answers the render threads and the text caller at once.
public final class DirectTransport: DocumentTransport, @unchecked Sendable {
    // Sendable: `summary` is guarded by `opening`.
    public let documentPath: String
    private let password: String?
    private let startPage: Int
    private let server: DocumentServer
    /// Opens the document once, for the first caller of `awaitOpen()`.
    private let opening = ConditionLock()
    private var summary: Result<DocumentSummary, PDFError>?

    /// A server for `path` (opened by `awaitOpen()`, which interprets `startPage` first).
    public init(documentPath: String, password: String?, startPage: Int, logger: Logger) {
        self.documentPath = documentPath
        self.password = password
        self.startPage = startPage
        server = DocumentServer(logger: logger)
    }

    public func awaitOpen() -> Result<DocumentSummary, PDFError> {
        opening.lock()
        defer { opening.unlock() }
        if let summary { return summary }
        // Through the codec, as the worker's open request goes (no limits: MuPDF runs here).
        let request = ShownDocument.encode(
            .open(
                path: documentPath, password: password, preparePage: startPage, edits: [],
                limits: WorkerLimits(addressSpace: 0)))
        var answer: DocumentResponse?
        if let (path, password, preparePage, edits, limits) = DocumentRequest.decodeOpen(request) {
            answer = ShownDocument.decode(
                DocumentServer.encode(server.open(path: path, password: password, edits: edits, limits: limits)))
            server.finishOpening(preparePage: preparePage)
        }
        let opened: Result<DocumentSummary, PDFError>
        switch answer {
        case .opened(let document)?: opened = .success(document)
        case .openFailed(let error)?: opened = .failure(error)
        default:
            opened = .failure(
                PDFError(.damaged, path: documentPath, message: "cannot show \(documentPath): it did not open"))
        }
        summary = opened
        return opened
    }

    public func tileMemory(size: Int) throws(SystemError) -> TileMemory { .own(SharedTileBuffer(inProcess: size)) }

    public func exchange<Value>(
        _ request: [UInt8], page: Int, cookie: RenderCookie?, memory: TileMemory,
        read: ([UInt8], SharedTileBuffer?) -> Value
    ) -> Exchange<Value> {
        if cookie?.isCancelled == true { return .cancelled }
        var tile: SharedTileBuffer?
        var descriptor: Int32 = -1
        if case .own(let own) = memory { tile = own }
        if case .descriptor(let fd) = memory { descriptor = fd }
        var answer: [UInt8] = []
        server.answer(
            request, memory: { _, _ in tile.map { TileSlot(buffer: $0, offset: 0, isOwn: true) } },
            descriptor: descriptor, cookie: { _ in cookie }
        ) {
            answer = $0
            return true
        }
        return .answered(read(answer, tile))
    }

    /// Each tile is drawn into memory of its own, which becomes its image, and stops when its
    /// cookie is cancelled (the server checks it between tiles).
    public func exchangeBatch(
        _ request: [UInt8], batch: TileBatch, cookies: [RenderCookie], read: (Int, [UInt8], TileSlot) -> Void
    ) -> Int {
        let slots = batch.tiles.map {
            TileSlot(buffer: SharedTileBuffer(inProcess: $0.size), offset: 0, isOwn: true)
        }
        var answered = 0
        server.answer(request, memory: { _, index in slots[index] }, cookie: { cookies[$0] }) { answer in
            guard answered < slots.count else { return false }
            read(answered, answer, slots[answered])
            answered += 1
            return true
        }
        return answered
    }

    public func exchangeWriting<Value>(_ request: [UInt8], read: ([UInt8]) -> Value) -> Exchange<Value> {
        var answer: [UInt8] = []
        server.answer(request, memory: { _, _ in nil }) {
            answer = $0
            return true
        }
        return .answered(read(answer))
    }

    /// The server here keeps its document: nothing to replay.
    public func applied(_ edit: DocumentEdit) {}

    public func countDrawnTile() {}
}
