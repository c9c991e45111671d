import LecternCore
import LecternLinux
import LecternPDF
import LecternRender

/// The reader's client of the document service: each request encoded, carried by its
/// transport to a `DocumentServer` (in the render worker process, or in this process), and its
/// answer decoded. Any thread but the main one: each call waits for the answer.
public final class DocumentClient: Sendable {
    public let transport: any DocumentTransport

    public init(transport: any DocumentTransport) { self.transport = transport }

    /// The document the server opens.
    public var documentPath: String { transport.documentPath }

    /// Waits until the server has opened the document, or failed to (its reason then comes with
    /// each request). A worker that dies opening it, as one whose MuPDF crashes on the file
    /// does, is the failure returned: the reader must not open the file itself then.
    public func awaitOpen() -> Result<DocumentSummary, PDFError> { transport.awaitOpen() }

    /// Draws tile `key`; nil when `cookie` cancelled it. A page the worker died on twice, or
    /// that overran its deadline, is `TileContent.undrawable`. Render threads.
    public func render(_ key: TileKey, cookie: RenderCookie) -> TileContent? {
        let rect = key.rect
        guard rect.width > 0, rect.height > 0 else { return .failed("\(key) is outside its page") }
        let stride = rect.width * 4
        let memory: TileMemory
        do throws(SystemError) {
            memory = try transport.tileMemory(size: SharedTileBuffer.pixelOffset + stride * rect.height)
        } catch {
            return .failed("cannot share tiles with the render worker: \(error)")
        }
        let request = Self.encode(.render(key, stride: stride, ownMemory: memory.isOwn))
        let outcome = transport.exchange(request, page: key.page, cookie: cookie, memory: memory) {
            answer, tile -> TileContent? in
            switch Self.decode(answer) {
            case .drawn(.drawn(let isDamaged)):
                guard let tile else { return .failed("the render worker drew into no memory") }
                let image: RasterImage
                if case .own = memory {
                    // Not to be sent again (a retry after the worker died would).
                    tile.closeDescriptor()
                    image = RasterImage(width: rect.width, height: rect.height, pixels: tile.pixels, owner: tile)
                } else {
                    // The channel's buffer: copied out while the channel is still this thread's.
                    image = RasterImage(width: rect.width, height: rect.height)
                    image.pixels.copyMemory(from: tile.pixels, byteCount: stride * rect.height)
                }
                transport.countDrawnTile()
                return .image(image, isDamaged: isDamaged)
            case .drawn(.cancelled): return nil
            case .drawn(.failed(let reason)), .failed(let reason): return .failed(reason)
            default: return .failed("the render worker answered a render with something else")
            }
        }
        switch outcome {
        case .answered(let content): return content
        case .cancelled: return nil
        case .failed(let reason): return .failed(reason)
        case .undrawable: return .undrawable
        }
    }

    /// Walks the page tree: the number of pages it holds.
    public func pageTree() -> Result<Int, WireError> {
        call(.pageTree) { if case .pageCount(let count) = $0 { count } else { nil } }
    }

    /// The geometry and labels of the pages in `range` (nil: that page's cannot be read).
    public func pageInfos(in range: Range<Int>) -> Result<[PageInfo?], WireError> {
        call(.pageInfos(range)) {
            if case .pageInfos(let infos) = $0, infos.count == range.count { infos } else { nil }
        }
    }

    /// Frees the page objects reading every page's info kept.
    public func releasePageObjects() {
        _ = call(.releasePageObjects) { if case .done = $0 { () } else { nil } }
    }

    /// A page's annotations and form fields.
    public func annotations(page: Int) -> Result<[AnnotationInfo], WireError> {
        call(.annotations(page: page), page: page) { if case .annotations(let found) = $0 { found } else { nil } }
    }

    /// The document's outline (entries that do not fit one answer left out).
    public func outline() -> Result<[OutlineEntry], WireError> {
        call(.outline) { if case .outline(let entries) = $0 { entries } else { nil } }
    }

    /// A page's presentation keys.
    public func presentation(page: Int) -> Result<PagePresentation, WireError> {
        call(.presentation(page: page), page: page) { if case .presentation(let keys) = $0 { keys } else { nil } }
    }

    /// The text blocks, links and characters of `page` (at most
    /// `WorkerResponse.maximumCharacters` characters).
    public func pageText(
        page: Int
    ) -> Result<
        (blocks: [Rect], links: [PDFLink], characters: [PageCharacter]), WireError
    > {
        call(.pageText(page: page), page: page) {
            if case .pageText(let blocks, let links, let characters) = $0 { (blocks, links, characters) } else { nil }
        }
    }

    /// Where `query` is found on `page`.
    public func search(_ query: SearchQuery, page: Int) -> Result<[SearchHit], WireError> {
        call(.search(query: query.text, page: page), page: page) {
            if case .searchHits(let hits) = $0 { hits } else { nil }
        }
    }

    /// Applies `edit` (in the server, and in every server started after it); returns the
    /// field's value afterwards for field edits.
    public func edit(_ edit: DocumentEdit) -> Result<String?, WireError> {
        let result = call(.edit(edit), page: edit.page ?? -1) { response -> String?? in
            if case .edited(let value) = response { .some(value) } else { nil }
        }
        if case .success = result { transport.applied(edit) }
        return result
    }

    /// Saves the document with the edits made so far incrementally to `path`.
    public func save(to path: String) -> Result<Void, WireError> {
        let request = WorkerRequest.save(path: path)
        return result(of: request, transport.exchangeWriting(Self.encode(request)) { Self.decode($0) }) {
            if case .done = $0 { () } else { nil }
        }
    }

    /// Asks `request` (about `page`; -1: the document's) and reads its answer with `answer`
    /// (nil: an answer of another kind).
    private func call<T>(
        _ request: WorkerRequest, page: Int = -1, answer: (WorkerResponse) -> T?
    ) -> Result<T, WireError> {
        let outcome = transport.exchange(Self.encode(request), page: page, cookie: nil, memory: .none) { bytes, _ in
            Self.decode(bytes)
        }
        return result(of: request, outcome, answer: answer)
    }

    private func result<T>(
        of request: WorkerRequest, _ outcome: Exchange<WorkerResponse>, answer: (WorkerResponse) -> T?
    ) -> Result<T, WireError> {
        switch outcome {
        case .answered(.failed(let reason)), .failed(let reason): return .failure(WireError(failure: reason))
        case .answered(let response):
            guard let value = answer(response) else {
                return .failure(WireError("the render worker answered \(request) with something else"))
            }
            return .success(value)
        case .undrawable: return .failure(WireError(failure: TileContent.undrawableReason))
        case .cancelled: return .failure(WireError(failure: "cancelled"))
        }
    }

    static func encode(_ request: WorkerRequest) -> [UInt8] {
        var writer = WireWriter()
        request.encode(into: &writer)
        return writer.bytes
    }

    static func decode(_ answer: [UInt8]) -> WorkerResponse {
        var reader = WireReader(answer)
        do throws(WireError) {
            return try WorkerResponse.decode(&reader)
        } catch {
            return .failed(error.description)
        }
    }
}
