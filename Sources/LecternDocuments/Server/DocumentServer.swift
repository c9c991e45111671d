import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The document service's server: opens one document and answers the client's requests about
/// it, decoding each request and encoding its answer with the wire protocol. The render worker
/// process runs one (`RenderWorkerMain`), answering on its channels; `DirectTransport` runs one in
/// this process (`--render-process off`). Either way the same code answers.
///
/// Thread safe: requests are answered on several threads at once (one per channel in the
/// worker, the render threads and the text caller in process); they wait until the document is
/// open.
public final class DocumentServer: @unchecked Sendable {
    // Sendable: `document` and `failure` are written once under `lock`, before `isOpen`; `delay`
    // and `crashPage` are set by `open` before `isOpen`.
    private let lock = ConditionLock()
    private var document: PDFDocument?
    private var opened: PDFDocument?
    private var failure: String?
    private var isOpen = false
    /// Requests waiting for the document (`waitForDocument`).
    private var waiting = 0
    let logger: Logger
    /// Tests: milliseconds each render waits first (so a test can kill the worker mid-render).
    private var delay = 0
    /// Tests: the page whose render crashes the process (-1: none).
    private var crashPage = -1
    /// Large print's columns, laid out here and kept.
    private let reflows = PageReflow()

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Opens `path` and applies `edits` (those an earlier server applied): the answer to the
    /// open request. The document answers requests only once `finishOpening(preparePage:)` was
    /// called (a failure to open answers them at once).
    func open(path: String, password: String?, edits: [DocumentEdit], limits: WorkerLimits) -> DocumentResponse {
        delay = limits.renderDelayMilliseconds
        crashPage = limits.crashPage
        do throws(PDFError) {
            if crashPage == WorkerLimits.crashesOpening { raise(SIGSEGV) }
            let document = try PDFDocument(path: path, password: password)
            // Each edit succeeded where it was made, so each should here.
            for edit in edits {
                do throws(PDFError) {
                    try edit.apply(to: document)
                } catch {
                    logger.error("cannot apply an earlier edit again: \(error)")
                }
            }
            opened = document
            return .opened(try DocumentSummary(document))
        } catch {
            publish(document: nil, failure: error.description)
            return .openFailed(error)
        }
    }

    /// Interprets `preparePage` (-1: none) so that its first tile only rasterizes, then answers
    /// the requests waiting for the document.
    func finishOpening(preparePage: Int) {
        guard let opened else { return }
        if preparePage >= 0 { try? opened.prepare(page: min(preparePage, opened.pageCount - 1)) }
        publish(document: opened, failure: nil)
    }

    /// How many requests wait for the document to be ready (tests: nothing is answered before
    /// `finishOpening`, which the render worker calls once its seccomp filter is in force).
    var requestsWaiting: Int {
        lock.lock()
        defer { lock.unlock() }
        return waiting
    }

    private func publish(document: PDFDocument?, failure: String?) {
        lock.lock()
        self.document = document
        self.failure = failure
        isOpen = true
        lock.broadcast()
        lock.unlock()
    }

    /// The open document, once it is; else why it did not open.
    private func waitForDocument() -> Result<PDFDocument, WireError> {
        lock.lock()
        defer { lock.unlock() }
        while !isOpen {
            waiting += 1
            lock.wait()
            waiting -= 1
        }
        if let document { return .success(document) }
        return .failure(WireError(failure: failure ?? "the document is not open"))
    }

    /// Answers the encoded `request`, giving each answer to `reply` (false: the reader is gone;
    /// returned). A render draws into the slot `memory` gives for it, and stops when `cookie`
    /// (else the cookie at the start of that slot) is cancelled. A batch's tiles are answered one
    /// by one as each is drawn, tile `i` in `memory(request, i)` with `cookie(i)`; a tile
    /// cancelled before its turn is skipped without drawing. A reflow reads its font from
    /// `descriptor` (borrowed: the caller closes it).
    @discardableResult
    func answer(
        _ request: [UInt8], memory: (DocumentRequest, Int) -> TileSlot?, descriptor: Int32 = -1,
        cookie: (Int) -> RenderCookie? = { _ in nil }, reply: ([UInt8]) -> Bool
    ) -> Bool {
        var reader = WireReader(request)
        let decoded: DocumentRequest
        do throws(WireError) {
            decoded = try DocumentRequest.decode(&reader)
        } catch {
            return reply(Self.encode(.failed(error.description)))
        }
        guard case .renderBatch(let batch) = decoded else {
            return reply(
                Self.encode(respond(to: decoded, slot: memory(decoded, 0), descriptor: descriptor, cookie: cookie(0))))
        }
        let document: PDFDocument
        switch waitForDocument() {
        case .success(let open): document = open
        // One failure ends the batch: the reader asks its other tiles alone.
        case .failure(let error): return reply(Self.encode(.failed(error.description)))
        }
        for (index, tile) in batch.tiles.enumerated() {
            let answer = render(
                tile.key, of: document, stride: tile.stride, into: memory(decoded, index), cookie: cookie(index))
            guard reply(Self.encode(answer)) else { return false }
            // A failure (a tile that does not fit its slot) ends the batch, as the reader reads it.
            if case .failed = answer { break }
        }
        return true
    }

    /// `answer` as a message: a failure instead when it does not fit one.
    static func encode(_ answer: DocumentResponse) -> [UInt8] {
        var writer = WireWriter()
        answer.encode(into: &writer)
        let length = writer.bytes.count
        if length > MessageChannel.maximumMessage {
            writer = WireWriter()
            DocumentResponse.failed("the answer is too long (\(length) bytes)").encode(into: &writer)
        }
        return writer.bytes
    }

    private func respond(
        to request: DocumentRequest, slot: TileSlot?, descriptor: Int32, cookie: RenderCookie?
    ) -> DocumentResponse {
        let document: PDFDocument
        switch waitForDocument() {
        case .success(let open): document = open
        case .failure(let error): return .failed(error.description)
        }
        switch request {
        case .open:
            return .failed("the document is already open")
        case let .render(key, stride, _):
            return render(key, of: document, stride: stride, into: slot, cookie: cookie)
        case .renderBatch:
            return .failed("a batch is answered tile by tile")
        case let .pageText(page):
            return answering { () throws(PDFError) in
                let characters = try document.pageCharacters(page: page).characters
                return .pageText(
                    blocks: try document.textBlocks(page: page), links: try document.links(page: page),
                    characters: Array(characters.prefix(DocumentResponse.maximumCharacters)),
                    tagged: (try? document.taggedElements(page: page)) ?? [])  // a broken tree: the text without it
            }
        case let .edit(edit):
            reflows.forget()
            return answering { () throws(PDFError) in .edited(try edit.apply(to: document)) }
        case let .search(text, page):
            guard let query = SearchQuery(text) else { return .searchHits([]) }
            return answering { () throws(PDFError) in .searchHits(try document.search(query, page: page)) }
        case .pageTree:
            return answering { () throws(PDFError) in .pageCount(try document.readPageTree().pageCount) }
        case let .pageInfos(range):
            return answering { () throws(PDFError) in
                .pageInfos(try document.pageInfos(in: range).map { try? $0.get() })
            }
        case .releasePageObjects:
            document.releasePageObjects()
            _ = trimHeap()
            return .done
        case let .annotations(page):
            return answering { () throws(PDFError) in
                .annotations(try document.annotations(page: page).annotations.map(AnnotationInfo.init))
            }
        case .outline:
            return answering { () throws(PDFError) in .outline(try document.outline()) }
        case let .presentation(page):
            return answering { () throws(PDFError) in .presentation(try document.presentation(page: page)) }
        case let .save(path):
            return answering { () throws(PDFError) in
                try document.saveIncrementally(to: path)
                return .done
            }
        case .documentFacts:
            return answering { () throws(PDFError) in .documentFacts(try document.documentFacts()) }
        case let .pageFacts(page):
            return answering { () throws(PDFError) in .pageFacts(try document.pageFacts(page: page)) }
        case let .reflow(wanted):
            return reflows.answer(wanted, font: descriptor, document: document)
        case let .layout(layout, page, through):
            reflows.forget()
            return answering { () throws(PDFError) in
                let book = try document.layOut(layout, keeping: page, through: through)
                return .laidOut(book, firstPage: try document.pageInfo(at: 0))
            }
        }
    }

    /// Draws tile `key`, `stride` bytes a row, into `slot`, unless `cookie` (else the slot's own)
    /// was cancelled before it began.
    private func render(
        _ key: TileKey, of document: PDFDocument, stride: Int, into slot: TileSlot?, cookie: RenderCookie?
    ) -> DocumentResponse {
        let rect = key.rect
        guard let slot, stride >= rect.width * 4, slot.fits(stride: stride, height: rect.height) else {
            return .failed("\(key) does not fit the tile buffer")
        }
        let cookie = cookie ?? RenderCookie(sharedAt: slot.memory)
        // No longer wanted (a batch's tile, cancelled while the ones before it were drawn).
        if cookie.isCancelled { return .drawn(.cancelled) }
        if key.page == crashPage { raise(SIGSEGV) }
        if delay > 0 { usleep(useconds_t(delay * 1000)) }
        return .drawn(TileContent.draw(key, of: document, into: slot.pixels, stride: stride, cookie: cookie))
    }

    /// `body`'s answer, or the error it threw as a failed one.
    private func answering(_ body: () throws(PDFError) -> DocumentResponse) -> DocumentResponse {
        do throws(PDFError) {
            return try body()
        } catch {
            return .failed(error.description)
        }
    }
}
