import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Synchronization

/// The document a reader shows: the document service's one client. Each request is encoded,
/// carried by its transport to a `DocumentServer` (in the render worker process, or in this
/// process with `--render-process off`), and its answer decoded: the reader never parses the
/// file itself in the first case, and runs the same code in both. It keeps what the server
/// said of the document when it opened (page count, page 1, labels, direction), and asks the
/// server for the rest.
///
/// The properties are read on the main thread and answer at once; the methods wait for the
/// server: call them off the main thread.
public final class ShownDocument: Sendable {
    public let transport: any DocumentTransport
    public let path: String
    public let summary: DocumentSummary
    /// Held while the document is: its worker is stopped once it is gone (`DocumentBackend`).
    let claim: WorkerClaim
    private let known: Mutex<(pageCount: Int, isRightToLeft: Bool, firstPage: PageInfo, layout: BookLayout?)>

    init(transport: any DocumentTransport, summary: DocumentSummary, claim: WorkerClaim) {
        self.transport = transport
        path = transport.documentPath
        self.summary = summary
        self.claim = claim
        known = Mutex((summary.pageCount, summary.isRightToLeft, summary.firstPage, nil))
    }

    /// The document `transport`'s server opened, once it has; or why it did not open (a worker
    /// that dies opening it, as one whose MuPDF crashes on the file does, is that failure: the
    /// reader must not open the file itself then).
    public static func open(_ transport: any DocumentTransport) throws(PDFError) -> ShownDocument {
        try open(transport, claim: WorkerClaim())
    }

    static func open(_ transport: any DocumentTransport, claim: WorkerClaim) throws(PDFError) -> ShownDocument {
        ShownDocument(transport: transport, summary: try transport.awaitOpen().get(), claim: claim)
    }

    /// MuPDF had to repair the file.
    public var wasRepaired: Bool { summary.wasRepaired }
    /// The page count the file claims until the page sizes were read, then the page tree's.
    public var pageCount: Int { known.withLock { $0.pageCount } }
    /// /ViewerPreferences /Direction is /R2L (as the file says, or as an edit set it).
    public var isRightToLeft: Bool { known.withLock { $0.isRightToLeft } }

    public func label(forPage index: Int) -> String? { summary.labels?.label(forPage: index) }

    public func pageIndex(forLabel label: String) -> Int? {
        summary.labels?.page(forLabel: label, pageCount: pageCount)
    }

    /// Page 1's geometry, the estimate for every page until the sizes are read (a book's pages
    /// are all the size it was laid out at).
    public func firstPageInfo() -> PageInfo { known.withLock { $0.firstPage } }

    /// MuPDF lays it out at the reader's page and font size (EPUB, FB2, XHTML): `layOut`.
    public var isReflowable: Bool { summary.isReflowable }
    /// The layout it was last laid out at (nil: MuPDF's own, or it is not reflowable).
    public var layout: BookLayout? { known.withLock { $0.layout } }

    /// Lays the book out again at `layout`, keeping `page` (-1: none) by its place in the text:
    /// the page count and page 1 change, and later renders draw the new pages (a new worker lays
    /// it out again). The page that holds what `page` began with. Call off the main thread: the
    /// whole book is laid out, or without a page to keep only its chapters through page `through`
    /// (nil: all; the page count then grows when the page sizes are read, `readPageSizes`).
    public func layOut(_ layout: BookLayout, keeping page: Int, through: Int? = nil) -> Result<LaidOutBook, PDFError> {
        let request = DocumentRequest.layout(layout, keepingPage: page, throughPage: through)
        let result = call(request) { response -> (LaidOutBook, PageInfo)? in
            if case .laidOut(let book, let first) = response { (book, first) } else { nil }
        }
        switch result {
        case .success(let (book, first)):
            transport.applied(.layout(layout))
            known.withLock {
                $0.pageCount = book.pageCount
                $0.firstPage = first
                $0.layout = layout
            }
            return .success(book)
        case .failure(let error):
            return .failure(damaged("cannot lay \(path) out at \(layout)", error))
        }
    }
    /// /Info /Title (nil: none, or it cannot be read).
    public var title: String? { summary.title }

    /// Draws tile `key` (render threads); nil when `cookie` cancelled it. A page the worker died
    /// on twice, or that overran its deadline, is `TileContent.undrawable`.
    public func renderTile(_ key: TileKey, cookie: RenderCookie) -> TileContent? {
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
            tileContent(key, answer, drawnInto: tile.map { TileSlot(buffer: $0, offset: 0, isOwn: memory.isOwn) })
        }
        switch outcome {
        case .answered(let content): return content
        case .cancelled: return nil
        case .failed(let reason): return .failed(reason)
        case .undrawable: return .undrawable
        }
    }

    /// Draws `keys` in order (render threads), giving each tile to `deliver` with its index as
    /// soon as it is drawn (nil: its cookie, `cookies[i]`, cancelled it). Tiles that fit a batch
    /// together (`TileBatch`) go to the server in one request; a bigger one, and those a batch
    /// left unanswered (the worker died), go alone as `renderTile` sends them.
    public func renderTiles(
        _ keys: [TileKey], cookies: [RenderCookie], deliver: (Int, TileContent?) -> Void
    ) {
        var next = 0
        while next < keys.count {
            let batch = TileBatch(packing: keys[next...])
            var answered = 0
            if batch.tiles.count > 1 {
                let first = next
                let request = Self.encode(.renderBatch(batch))
                answered = transport.exchangeBatch(
                    request, batch: batch, cookies: Array(cookies[first..<first + batch.tiles.count])
                ) { index, answer, slot in
                    deliver(first + index, tileContent(batch.tiles[index].key, answer, drawnInto: slot))
                }
            }
            for index in next + answered..<next + max(1, batch.tiles.count) {
                deliver(index, renderTile(keys[index], cookie: cookies[index]))
            }
            next += max(1, batch.tiles.count)
        }
    }

    /// The tile `answer` says was drawn into `slot` (nil: cancelled): the slot's memory as its
    /// image when it is the tile's own, else copied out (the channel's buffer, still the
    /// caller's).
    private func tileContent(_ key: TileKey, _ answer: [UInt8], drawnInto slot: TileSlot?) -> TileContent? {
        let rect = key.rect
        switch Self.decode(answer) {
        case .drawn(.drawn(let isDamaged)):
            guard let slot else { return .failed("the render worker drew into no memory") }
            let image: RasterImage
            if slot.isOwn {
                // Not to be sent again (a retry after the worker died would).
                slot.buffer.closeDescriptor()
                image = RasterImage(width: rect.width, height: rect.height, pixels: slot.pixels, owner: slot.buffer)
            } else {
                image = RasterImage(width: rect.width, height: rect.height)
                image.pixels.copyMemory(from: slot.pixels, byteCount: rect.width * 4 * rect.height)
            }
            transport.countDrawnTile()
            return .image(image, isDamaged: isDamaged)
        case .drawn(.cancelled): return nil
        case .drawn(.failed(let reason)), .failed(let reason): return .failed(reason)
        default: return .failed("the render worker answered a render with something else")
        }
    }

    /// The page tree's page count and the geometries that differ from `estimate`; nil when
    /// `cookie` was cancelled.
    public func readPageSizes(differingFrom estimate: PageGeometry, cookie: RenderCookie) -> PageSizes? {
        defer { _ = call(.releasePageObjects) { if case .done = $0 { () } else { nil } } }
        let sizes = PageSizes.read(
            differingFrom: estimate, cookie: cookie,
            pageTree: {
                (try? call(.pageTree) { if case .pageCount(let count) = $0 { count } else { nil } }.get()) ?? pageCount
            },
            infos: { range in
                try? call(.pageInfos(range)) {
                    if case .pageInfos(let infos) = $0, infos.count == range.count { infos } else { nil }
                }.get()
            })
        if let sizes { known.withLock { $0.pageCount = sizes.pageCount } }
        return sizes
    }

    /// The text blocks, links, characters, annotations and tagged elements of `pages` (a page's
    /// first `DocumentResponse.maximumCharacters` characters; no text of a page whose text cannot
    /// be read).
    public func readPageText(pages: [Int]) -> [Int: PageText] {
        var result: [Int: PageText] = [:]
        for page in pages {
            let text = try? call(.pageText(page: page), page: page) {
                if case .pageText(let blocks, let links, let characters, let tagged) = $0 {
                    (blocks, links, characters, tagged)
                } else {
                    nil
                }
            }.get()
            let (blocks, links, characters, tagged) = text ?? ([], [], [], [])
            result[page] = PageText(
                blocks: blocks, links: links.map(PageText.linkTarget),
                characters: PageCharacters(readingOrder: characters), annotations: annotationInfos(page: page),
                tagged: tagged)
        }
        return result
    }

    /// A page's annotations and form fields (none when they cannot be read).
    public func annotationInfos(page: Int) -> [AnnotationInfo] {
        (try? call(.annotations(page: page), page: page) { if case .annotations(let found) = $0 { found } else { nil } }
            .get()) ?? []
    }

    /// The document-wide facts of an audit (the server walks the whole page tree).
    public func documentFacts() throws(PDFError) -> DocumentFacts {
        try call(.documentFacts) { if case .documentFacts(let facts) = $0 { facts } else { nil } }
            .mapError { damaged("cannot audit \(path)", $0) }.get()
    }

    /// A page's facts of an audit.
    public func pageFacts(page: Int) throws(PDFError) -> PageFacts {
        try call(.pageFacts(page: page), page: page) { if case .pageFacts(let facts) = $0 { facts } else { nil } }
            .mapError { damaged("cannot audit page \(page + 1) of \(path)", $0) }.get()
    }

    /// The large print of a page the worker lays out (`ReflowRequest`), measured with the font
    /// file `font` (sent with the request, still the caller's); or why it cannot be.
    public func reflow(_ request: ReflowRequest, font: ReadOnlyFile) -> Result<ReflowedPage, PDFError> {
        let outcome = transport.exchange(
            Self.encode(.reflow(request)), page: request.page, cookie: nil, memory: .descriptor(font.descriptor)
        ) { bytes, _ in Self.decode(bytes) }
        return result(of: .reflow(request), outcome) { if case .reflowed(let page) = $0 { page } else { nil } }
            .mapError { damaged("large print of page \(request.page + 1)", $0) }
    }

    /// Where `query` is found on `page` (nothing when the page cannot be searched).
    public func find(_ query: SearchQuery, page: Int) -> [SearchHit] {
        (try? call(.search(query: query.text, page: page), page: page) {
            if case .searchHits(let hits) = $0 { hits } else { nil }
        }.get()) ?? []
    }

    /// The outline (entries that do not fit one answer left out).
    public func outline() throws(PDFError) -> [OutlineEntry] {
        try call(.outline) { if case .outline(let entries) = $0 { entries } else { nil } }
            .mapError { damaged("cannot read the outline of \(path)", $0) }.get()
    }

    /// A page's presentation keys (/Dur, /Trans).
    public func presentation(page: Int) throws(PDFError) -> PagePresentation {
        try call(.presentation(page: page), page: page) { if case .presentation(let keys) = $0 { keys } else { nil } }
            .mapError { damaged("cannot read page \(page + 1) of \(path)", $0) }.get()
    }

    /// Applies `edit` (later renders show it, and so does a server started after a crash); the
    /// field's value afterwards for field edits.
    public func apply(_ edit: DocumentEdit) -> Result<String?, PDFError> {
        let result = call(.edit(edit), page: edit.page ?? -1) { response -> String?? in
            if case .edited(let value) = response { .some(value) } else { nil }
        }
        .mapError { PDFError(.editRefused, path: path, message: "cannot edit \(path): \($0.description)") }
        if case .success = result {
            transport.applied(edit)
            if case .readingDirection(let rightToLeft) = edit { known.withLock { $0.isRightToLeft = rightToLeft } }
        }
        return result
    }

    /// Saves the edits made so far incrementally to `target` (atomically).
    public func saveIncrementally(to target: String) throws(PDFError) {
        let request = DocumentRequest.save(path: target)
        let outcome = transport.exchangeWriting(Self.encode(request)) { Self.decode($0) }
        if case .failure(let error) = result(of: request, outcome, answer: { if case .done = $0 { () } else { nil } }) {
            throw PDFError(.writeFailed, path: target, message: error.description)
        }
    }

    private func damaged(_ what: String, _ error: WireError) -> PDFError {
        PDFError(.damaged, path: path, message: "\(what): \(error.description)")
    }

    /// Asks `request` (about `page`; -1: the document's) and reads its answer with `answer`
    /// (nil: an answer of another kind).
    private func call<T>(
        _ request: DocumentRequest, page: Int = -1, answer: (DocumentResponse) -> T?
    ) -> Result<T, WireError> {
        let outcome = transport.exchange(Self.encode(request), page: page, cookie: nil, memory: .none) { bytes, _ in
            Self.decode(bytes)
        }
        return result(of: request, outcome, answer: answer)
    }

    private func result<T>(
        of request: DocumentRequest, _ outcome: Exchange<DocumentResponse>, answer: (DocumentResponse) -> T?
    ) -> Result<T, WireError> {
        switch outcome {
        case .answered(.failed(let reason)), .failed(let reason): return .failure(WireError(failure: reason))
        case .answered(let response):
            guard let value = answer(response) else {
                return .failure(WireError("the server answered \(request) with something else"))
            }
            return .success(value)
        case .undrawable: return .failure(WireError(failure: TileContent.undrawableReason))
        case .cancelled: return .failure(WireError(failure: "cancelled"))
        }
    }

    static func encode(_ request: DocumentRequest) -> [UInt8] {
        var writer = WireWriter()
        request.encode(into: &writer)
        return writer.bytes
    }

    static func decode(_ answer: [UInt8]) -> DocumentResponse {
        var reader = WireReader(answer)
        do throws(WireError) {
            return try DocumentResponse.decode(&reader)
        } catch {
            return .failed(error.description)
        }
    }
}
