import LecternLinux
import LecternPDF
import LecternRender

/// What carries the client's encoded requests (and a tile's memory) to a `DocumentServer` and its
/// encoded answers back: the render worker process (`RenderProcess`: channels, restarts, the
/// blame of a page that crashes it, deadlines) or a server in this process (`DirectTransport`).
/// `ShownDocument`, the client, works over either, so the same client, codec and server run both ways.
///
/// Thread safe: the render threads and the text caller use it at once (never the main thread:
/// each call waits for the answer).
public protocol DocumentTransport: AnyObject, Sendable {
    /// The document the server opens.
    var documentPath: String { get }

    /// Waits until the server has opened the document: what it said of it, or why it did not
    /// open.
    func awaitOpen() -> Result<DocumentSummary, PDFError>

    /// The memory to draw a tile of `size` bytes (header included) into.
    func tileMemory(size: Int) throws(SystemError) -> TileMemory

    /// Carries `request` about `page` (-1: the document's) to the server with `memory`, and gives
    /// the answer to `read` (with the memory drawn into, still the caller's while it reads).
    /// A render stops when `cookie` is cancelled.
    func exchange<Value>(
        _ request: [UInt8], page: Int, cookie: RenderCookie?, memory: TileMemory,
        read: ([UInt8], SharedTileBuffer?) -> Value
    ) -> Exchange<Value>

    /// Carries `request`, a batch of tiles (`TileBatch`: `batch`), to the server; tile `i` stops
    /// when `cookies[i]` is cancelled, and is skipped when it was before its turn. Each answer goes
    /// to `read` as it comes, in order, with the memory the tile was drawn into (still the
    /// caller's while it reads). Returns how many tiles were answered: the others (the worker
    /// died, a page of the batch is suspected of crashing it, the batch failed) are to be asked
    /// again one by one, through `exchange`.
    func exchangeBatch(
        _ request: [UInt8], batch: TileBatch, cookies: [RenderCookie], read: (Int, [UInt8], TileSlot) -> Void
    ) -> Int

    /// Carries a request that writes a file (a save): the worker process's filter forbids that,
    /// so it goes to a server of its own, with the edits made so far.
    func exchangeWriting<Value>(_ request: [UInt8], read: ([UInt8]) -> Value) -> Exchange<Value>

    /// `edit` was applied: a server started later (after a crash) applies it again.
    func applied(_ edit: DocumentEdit)

    /// A tile was drawn (counted for the status).
    func countDrawnTile()
}

/// How a request through a `DocumentTransport` ended.
public enum Exchange<Value> {
    /// The server answered (read by the caller's `read`).
    case answered(Value)
    /// It could not be asked (no server, no memory): the reason.
    case failed(String)
    /// The page is not asked for again (it crashed the worker twice, or overran its deadline).
    case undrawable
    /// The render was cancelled before it was answered.
    case cancelled
}

/// Where a render request's tile is drawn.
public enum TileMemory {
    case none
    /// The worker channel's buffer (made on its first use, sent once; copied out after).
    case channel
    /// Memory of the tile's own, which becomes its image.
    case own(SharedTileBuffer)
    /// No memory: a descriptor that goes with the request (a reflow's font file), still the
    /// caller's.
    case descriptor(Int32)

    var isOwn: Bool {
        if case .own = self { true } else { false }
    }
}
