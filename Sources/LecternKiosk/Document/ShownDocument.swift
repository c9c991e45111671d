import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import LecternRenderProcess
import Synchronization

/// The document a reader shows, wherever MuPDF runs on it: in this process (`PDFDocument`,
/// with `render.process = "off"`) or in its render worker process (`WorkerDocument`), where
/// the reader never parses the file itself.
///
/// The properties are read on the main thread and answer at once (the worker sent them when it
/// opened the file); the methods do MuPDF work and wait for it: call them off the main thread.
protocol ShownDocument: AnyObject, Sendable {
    var path: String { get }
    /// The page count the file claims until the page sizes were read, then the page tree's.
    var pageCount: Int { get }
    /// MuPDF had to repair the file.
    var wasRepaired: Bool { get }
    /// /ViewerPreferences /Direction is /R2L (as the file says, or as an edit set it).
    var isRightToLeft: Bool { get }
    func label(forPage index: Int) -> String?
    func pageIndex(forLabel label: String) -> Int?

    /// Page 1's geometry, the estimate for every page until the sizes are read.
    func firstPageInfo() throws(PDFError) -> PageInfo
    /// /Info /Title (nil: none, or it cannot be read).
    var title: String? { get }
    /// Interprets `page` so its first tile only rasterizes (a worker prepares its start page
    /// itself).
    func prepareStartPage(_ page: Int)
    /// Draws tile `key` (render threads); nil when `cookie` cancelled it.
    func renderTile(_ key: TileKey, cookie: RenderCookie) -> TileContent?
    /// The page tree's page count and the geometries that differ from `estimate`; nil when
    /// `cookie` was cancelled.
    func readPageSizes(differingFrom estimate: PageGeometry, cookie: RenderCookie) -> PageSizes?
    /// The text blocks, links, characters and annotations of `pages`.
    func readPageText(pages: [Int]) -> [Int: PageText]
    /// A page's annotations and form fields (none when they cannot be read).
    func annotationInfos(page: Int) -> [AnnotationInfo]
    /// Where `query` is found on `page` (nothing when the page cannot be searched).
    func find(_ query: SearchQuery, page: Int) -> [SearchHit]
    func outline() throws(PDFError) -> [OutlineEntry]
    func presentation(page: Int) throws(PDFError) -> PagePresentation
    /// Applies `edit` (later renders show it); the field's value afterwards for field edits.
    func apply(_ edit: DocumentEdit) -> Result<String?, PDFError>
    /// Saves the edits made so far incrementally to `path` (atomically).
    func saveIncrementally(to path: String) throws(PDFError)
}

extension PDFDocument: ShownDocument {
    func firstPageInfo() throws(PDFError) -> PageInfo { try pageInfo(at: 0) }
    var title: String? { try? title() }

    func prepareStartPage(_ page: Int) { try? prepare(page: min(page, pageCount - 1)) }

    func renderTile(_ key: TileKey, cookie: RenderCookie) -> TileContent? {
        TileContent.render(key, of: self, cookie: cookie)
    }

    func readPageSizes(differingFrom estimate: PageGeometry, cookie: RenderCookie) -> PageSizes? {
        defer {
            releasePageObjects()
            _ = trimHeap()
        }
        return PageSizes.read(
            differingFrom: estimate, cookie: cookie,
            pageTree: { () -> Int? in
                do throws(PDFError) {
                    return try readPageTree(cookie: cookie).pageCount
                } catch {
                    // A broken tree: what lookups found is all there is.
                    return error.kind == .cancelled ? nil : pageCount
                }
            },
            infos: { range in (try? pageInfos(in: range))?.map { try? $0.get() } })
    }

    func readPageText(pages: [Int]) -> [Int: PageText] {
        var result: [Int: PageText] = [:]
        for page in pages {
            result[page] = PageText(
                blocks: (try? textBlocks(page: page)) ?? [],
                links: ((try? links(page: page)) ?? []).map(Reader.linkTarget),
                characters: (try? pageCharacters(page: page)) ?? .empty, annotations: annotationInfos(page: page))
        }
        return result
    }

    func find(_ query: SearchQuery, page: Int) -> [SearchHit] { (try? search(query, page: page)) ?? [] }

    func apply(_ edit: DocumentEdit) -> Result<String?, PDFError> {
        Result { () throws(PDFError) in try edit.apply(to: self) }
    }
}

/// A document opened in its render worker process: the reader keeps what the worker said of it
/// when it opened (page count, page 1, labels, direction), and asks the worker for the rest.
final class WorkerDocument: ShownDocument {
    let process: RenderProcess
    let path: String
    let summary: DocumentSummary
    /// Held while the document is: its worker is stopped once it is gone (`WorkerBackend`).
    let claim: WorkerClaim
    private let known: Mutex<(pageCount: Int, isRightToLeft: Bool)>

    init(process: RenderProcess, summary: DocumentSummary, claim: WorkerClaim) {
        self.process = process
        path = process.documentPath
        self.summary = summary
        self.claim = claim
        known = Mutex((summary.pageCount, summary.isRightToLeft))
    }

    var wasRepaired: Bool { summary.wasRepaired }
    var pageCount: Int { known.withLock { $0.pageCount } }
    var isRightToLeft: Bool { known.withLock { $0.isRightToLeft } }

    func label(forPage index: Int) -> String? { summary.labels?.label(forPage: index) }

    func pageIndex(forLabel label: String) -> Int? {
        summary.labels?.page(forLabel: label, pageCount: pageCount)
    }

    func firstPageInfo() -> PageInfo { summary.firstPage }
    var title: String? { summary.title }

    func prepareStartPage(_ page: Int) {}

    func renderTile(_ key: TileKey, cookie: RenderCookie) -> TileContent? { process.render(key, cookie: cookie) }

    func readPageSizes(differingFrom estimate: PageGeometry, cookie: RenderCookie) -> PageSizes? {
        defer { process.releasePageObjects() }
        let sizes = PageSizes.read(
            differingFrom: estimate, cookie: cookie,
            pageTree: { (try? process.pageTree().get()) ?? pageCount },
            infos: { range in try? process.pageInfos(in: range).get() })
        if let sizes { known.withLock { $0.pageCount = sizes.pageCount } }
        return sizes
    }

    func readPageText(pages: [Int]) -> [Int: PageText] {
        var result: [Int: PageText] = [:]
        for page in pages {
            let (blocks, links, characters) = (try? process.pageText(page: page).get()) ?? ([], [], [])
            result[page] = PageText(
                blocks: blocks, links: links.map(Reader.linkTarget),
                characters: PageCharacters(readingOrder: characters), annotations: annotationInfos(page: page))
        }
        return result
    }

    func annotationInfos(page: Int) -> [AnnotationInfo] { (try? process.annotations(page: page).get()) ?? [] }

    func find(_ query: SearchQuery, page: Int) -> [SearchHit] { (try? process.search(query, page: page).get()) ?? [] }

    func outline() throws(PDFError) -> [OutlineEntry] {
        try process.outline().mapError { damaged("cannot read the outline of \(path)", $0) }.get()
    }

    func presentation(page: Int) throws(PDFError) -> PagePresentation {
        try process.presentation(page: page).mapError { damaged("cannot read page \(page + 1) of \(path)", $0) }.get()
    }

    func apply(_ edit: DocumentEdit) -> Result<String?, PDFError> {
        let result = process.edit(edit).mapError {
            PDFError(.editRefused, path: path, message: "cannot edit \(path): \($0.description)")
        }
        if case .readingDirection(let rightToLeft) = edit, case .success = result {
            known.withLock { $0.isRightToLeft = rightToLeft }
        }
        return result
    }

    func saveIncrementally(to target: String) throws(PDFError) {
        if case .failure(let error) = process.save(to: target) {
            throw PDFError(.writeFailed, path: target, message: error.description)
        }
    }

    private func damaged(_ what: String, _ error: WireError) -> PDFError {
        PDFError(.damaged, path: path, message: "\(what): \(error.description)")
    }
}

/// What keeps a render worker's document claimed: the document holds it (the opener, until the
/// document opens), the backend only a weak reference.
final class WorkerClaim: Sendable {}

/// The real page count and page sizes of a document, read on the worker once its first page
/// is on screen (until then the view lays out the count the file claims, every page the size
/// of page 1).
struct PageSizes: Sendable {
    /// The number of pages the page tree holds (the file may claim another).
    var pageCount: Int
    /// The pages whose size differs from page 1's.
    var updates: [(page: Int, geometry: PageGeometry)]
    /// Pages whose size could not be read (they keep the estimate).
    var failures: Int
    var milliseconds: Int64

    /// Walks the page tree (`pageTree`: its page count, nil when cancelled), then reads the
    /// pages' geometry 512 at a time (`infos`: nil for a page that cannot be read, or for a
    /// chunk), keeping those that differ from `estimate` (page 1), so a uniform document stores
    /// nothing per page. Nil when `cookie` was cancelled meanwhile.
    static func read(
        differingFrom estimate: PageGeometry, cookie: RenderCookie, pageTree: () -> Int?,
        infos: (Range<Int>) -> [PageInfo?]?
    ) -> PageSizes? {
        let start = ContinuousClock.now
        guard let pageCount = pageTree() else { return nil }
        var updates: [(page: Int, geometry: PageGeometry)] = []
        var failures = 0
        var next = 0
        while next < pageCount {
            if cookie.isCancelled { return nil }
            let range = next..<min(pageCount, next + 512)
            next = range.upperBound
            guard let infos = infos(range), infos.count == range.count else {
                failures += range.count
                continue
            }
            for (page, info) in zip(range, infos) {
                guard let info, let geometry = try? Reader.geometry(of: info) else {
                    failures += 1
                    continue
                }
                if geometry != estimate { updates.append((page, geometry)) }
            }
        }
        return PageSizes(
            pageCount: pageCount, updates: updates, failures: failures,
            milliseconds: (ContinuousClock.now - start).milliseconds)
    }
}
