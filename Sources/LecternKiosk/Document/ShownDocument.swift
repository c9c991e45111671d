import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import LecternRenderProcess
import Synchronization

/// The document a reader shows: the document service's client (`DocumentClient`) over its
/// transport, to a server in the render worker process or in this process
/// (`--render-process off`), so the reader never parses the file itself in the first case and
/// runs the same code in both. It keeps what the server said of the document when it opened
/// (page count, page 1, labels, direction), and asks the server for the rest.
///
/// The properties are read on the main thread and answer at once; the methods wait for the
/// server: call them off the main thread.
final class ShownDocument: Sendable {
    let client: DocumentClient
    let path: String
    let summary: DocumentSummary
    /// Held while the document is: its worker is stopped once it is gone (`DocumentBackend`).
    let claim: WorkerClaim
    private let known: Mutex<(pageCount: Int, isRightToLeft: Bool)>

    init(client: DocumentClient, summary: DocumentSummary, claim: WorkerClaim) {
        self.client = client
        path = client.documentPath
        self.summary = summary
        self.claim = claim
        known = Mutex((summary.pageCount, summary.isRightToLeft))
    }

    /// MuPDF had to repair the file.
    var wasRepaired: Bool { summary.wasRepaired }
    /// The page count the file claims until the page sizes were read, then the page tree's.
    var pageCount: Int { known.withLock { $0.pageCount } }
    /// /ViewerPreferences /Direction is /R2L (as the file says, or as an edit set it).
    var isRightToLeft: Bool { known.withLock { $0.isRightToLeft } }

    func label(forPage index: Int) -> String? { summary.labels?.label(forPage: index) }

    func pageIndex(forLabel label: String) -> Int? {
        summary.labels?.page(forLabel: label, pageCount: pageCount)
    }

    /// Page 1's geometry, the estimate for every page until the sizes are read.
    func firstPageInfo() -> PageInfo { summary.firstPage }
    /// /Info /Title (nil: none, or it cannot be read).
    var title: String? { summary.title }

    /// Draws tile `key` (render threads); nil when `cookie` cancelled it.
    func renderTile(_ key: TileKey, cookie: RenderCookie) -> TileContent? { client.render(key, cookie: cookie) }

    /// The page tree's page count and the geometries that differ from `estimate`; nil when
    /// `cookie` was cancelled.
    func readPageSizes(differingFrom estimate: PageGeometry, cookie: RenderCookie) -> PageSizes? {
        defer { client.releasePageObjects() }
        let sizes = PageSizes.read(
            differingFrom: estimate, cookie: cookie,
            pageTree: { (try? client.pageTree().get()) ?? pageCount },
            infos: { range in try? client.pageInfos(in: range).get() })
        if let sizes { known.withLock { $0.pageCount = sizes.pageCount } }
        return sizes
    }

    /// The text blocks, links, characters and annotations of `pages` (a page's first
    /// `WorkerResponse.maximumCharacters` characters; nothing of a page whose text cannot be read).
    func readPageText(pages: [Int]) -> [Int: PageText] {
        var result: [Int: PageText] = [:]
        for page in pages {
            let (blocks, links, characters) = (try? client.pageText(page: page).get()) ?? ([], [], [])
            result[page] = PageText(
                blocks: blocks, links: links.map(Reader.linkTarget),
                characters: PageCharacters(readingOrder: characters), annotations: annotationInfos(page: page))
        }
        return result
    }

    /// A page's annotations and form fields (none when they cannot be read).
    func annotationInfos(page: Int) -> [AnnotationInfo] { (try? client.annotations(page: page).get()) ?? [] }

    /// Where `query` is found on `page` (nothing when the page cannot be searched).
    func find(_ query: SearchQuery, page: Int) -> [SearchHit] { (try? client.search(query, page: page).get()) ?? [] }

    func outline() throws(PDFError) -> [OutlineEntry] {
        try client.outline().mapError { damaged("cannot read the outline of \(path)", $0) }.get()
    }

    func presentation(page: Int) throws(PDFError) -> PagePresentation {
        try client.presentation(page: page).mapError { damaged("cannot read page \(page + 1) of \(path)", $0) }.get()
    }

    /// Applies `edit` (later renders show it); the field's value afterwards for field edits.
    func apply(_ edit: DocumentEdit) -> Result<String?, PDFError> {
        let result = client.edit(edit).mapError {
            PDFError(.editRefused, path: path, message: "cannot edit \(path): \($0.description)")
        }
        if case .readingDirection(let rightToLeft) = edit, case .success = result {
            known.withLock { $0.isRightToLeft = rightToLeft }
        }
        return result
    }

    /// Saves the edits made so far incrementally to `target` (atomically).
    func saveIncrementally(to target: String) throws(PDFError) {
        if case .failure(let error) = client.save(to: target) {
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
