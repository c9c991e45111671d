import CMuPDF
import Glibc
import LecternCore
import LecternLinux
import Synchronization

/// An open PDF file: page count, page geometry and labels, tile rendering, text blocks and links.
///
/// Owns one `CMuPDF_document`, destroyed in `deinit`. Thread safe, and built for parallel
/// rendering: the shim serializes what touches the `fz_document` (opening pages, recording display
/// lists, page objects) behind one lock, and rasterizes each tile on a context of its own without
/// that lock, so two threads render tiles of the same document at the same time.
public final class PDFDocument: @unchecked Sendable {
    // Sendable: `handle` is thread safe (the shim locks); the other stored properties are immutable.
    /// The shim's document (its extensions in other files use it too).
    let handle: OpaquePointer
    private let context: MuPDFContext
    /// The page labels read at open (nil: the document has none).
    public let labels: PageLabels?

    /// The path the document was opened from.
    public let path: String
    /// What the file holds, told by its first bytes: a PDF, or another format MuPDF opens (EPUB,
    /// FB2, XHTML, XPS, CBZ, an image), which has no annotations, forms, labels or structure tree.
    public let format: DocumentFormat
    /// The password it was opened with (nil: none given), to open it again elsewhere.
    public let password: String?
    /// The number of pages (always at least 1: a document without pages does not open). Until the
    /// page tree is walked (`readPageTree(cookie:)`) this is the count the file claims, unless the
    /// claim was not believable (see `claimedPageCount`); afterwards it is the number of pages the
    /// tree holds. Any thread.
    public var pageCount: Int { Int(CMuPDF_document_known_page_count(handle)) }
    /// The page count the root page tree node claims (its /Count), as written in the file: a file
    /// may lie, and 9,999,999,999 does not fit MuPDF's int. A claim that does not fit an Int32, or
    /// is more than one page per 50 bytes of file, is not believed: the page tree is walked when the
    /// document opens and `pageCount` starts as the real count.
    public let claimedPageCount: Int
    /// True when MuPDF had to repair the file (a truncated or damaged file was recovered);
    /// some pages may then fail to render. Corresponding C function: `pdf_was_repaired`.
    public let wasRepaired: Bool
    /// True when /ViewerPreferences /Direction is /R2L (right-edge binding): as the file says, or
    /// as `setReadingDirection(rightToLeft:)` last set it. Any thread.
    public var isRightToLeft: Bool { direction.load(ordering: .relaxed) }
    /// The binding direction (true: right-to-left); written by `setReadingDirection(rightToLeft:)`.
    let direction: Atomic<Bool>

    /// Opens the PDF at `path`, unlocking it with `password` when it is encrypted.
    ///
    /// - Parameters:
    ///   - path: a file path.
    ///   - password: the user or owner password, for encrypted files.
    /// - Throws: `PDFError` of kind `.fileNotFound`, `.unreadable`, `.notAPDF`, `.damaged`,
    ///   `.passwordRequired`, `.wrongPassword` or `.noPages`.
    public convenience init(path: String, password: String? = nil) throws(PDFError) {
        let context: MuPDFContext
        do {
            context = try MuPDFContext.shared()
        } catch {
            throw PDFError.open(.unreadable, path, error.message)
        }
        try self.init(path: path, password: password, context: context)
    }

    /// Opens `path` with a MuPDF context of its own, capped at `memoryLimit` bytes (documents
    /// opened with `init(path:password:)` share one capped at `MuPDFContext.defaultMemoryLimit`).
    public convenience init(path: String, password: String? = nil, memoryLimit: Int) throws(PDFError) {
        let context: MuPDFContext
        do {
            context = try MuPDFContext(memoryLimit: memoryLimit)
        } catch {
            throw PDFError.open(.unreadable, path, error.message)
        }
        try self.init(path: path, password: password, context: context)
    }

    /// Opens `path` with a context cloned from `context`.
    init(path: String, password: String? = nil, context: MuPDFContext) throws(PDFError) {
        let (fileSize, format) = try Self.checkReadableDocument(path)
        var error = CMuPDF_error()
        guard let handle = CMuPDF_document_open(context.handle, path, format.magic, &error) else {
            let reason = format.isPDF ? "the file is damaged and could not be repaired" : "the file is damaged"
            throw PDFError.open(.damaged, path, "\(reason) (MuPDF: \(error.text))")
        }
        // From here on `handle` is ours: every failure path below must drop it.
        func fail(_ kind: PDFError.Kind, _ reason: String) -> PDFError {
            CMuPDF_document_drop(handle)
            return PDFError.open(kind, path, reason)
        }

        switch CMuPDF_document_needs_password(handle, &error) {
        case 0:
            break
        case 1:
            guard let password else {
                throw fail(.passwordRequired, "the file is encrypted and no password was configured")
            }
            switch CMuPDF_document_authenticate(handle, password, &error) {
            case 1: break
            case 0: throw fail(.wrongPassword, "the file is encrypted and the configured password is wrong")
            default: throw fail(.damaged, "the file's encryption could not be read (MuPDF: \(error.text))")
            }
        default:
            throw fail(.damaged, "the file is damaged (MuPDF: \(error.text))")
        }

        var count: Int32 = 0
        // A book claims the pages of its first chapter until they are all counted (the page tree's
        // walk): its whole text is laid out only once, at the reader's size (`layOut`).
        guard CMuPDF_document_count_pages_through(handle, 0, &count, &error) == 0 else {
            throw fail(.damaged, "the file is damaged: its pages cannot be found (MuPDF: \(error.text))")
        }
        var claimed = Int64(count)
        if CMuPDF_document_claimed_page_count(handle, &claimed, &error) != 0 || claimed < 0 {
            claimed = Int64(count)
        }
        if format.isPDF && !Self.isBelievable(claimedPages: claimed, fileSize: fileSize) {
            // No file of this size holds that many pages (or the count does not fit MuPDF's int,
            // which then holds a wrapped value): count the pages the tree holds before anything
            // is laid out. Cheap: the tree of a file this small is small.
            do throws(PDFError) {
                let tree = try Self.walkPageTree(handle, path: path, cookie: nil)
                MuPDFLog.logger.warning(
                    "\(path) claims \(claimed) pages in \(fileSize) bytes; its page tree holds \(tree.pageCount)")
            } catch {
                throw fail(.damaged, "the file is damaged: its page tree cannot be read (\(error.message))")
            }
        }
        guard CMuPDF_document_known_page_count(handle) > 0 else {
            throw fail(.noPages, "the document has no pages")
        }

        var rtl: Int32 = 0
        if CMuPDF_document_is_right_to_left(handle, &rtl, &error) != 0 {
            MuPDFLog.logger.warning("\(path): cannot read /ViewerPreferences, assuming left-to-right: \(error.text)")
            rtl = 0
        }

        self.handle = handle
        self.context = context
        self.labels = PageLabels.read(from: handle, path: path)
        self.path = path
        self.format = format
        self.password = password
        self.claimedPageCount = Int(claimed)
        self.wasRepaired = CMuPDF_document_was_repaired(handle) != 0
        self.direction = Atomic(rtl != 0)
    }

    deinit { CMuPDF_document_drop(handle) }

    /// The geometry and label of page `index` (0-based), read from the page object without loading
    /// the page. Until the page tree was read (`readPageTree(cookie:)`), finding page `index` walks
    /// the tree as far as that page, which is slow for late pages of big documents: lay out with
    /// estimates until then.
    /// Corresponding C function: `CMuPDF_page_get_info`.
    public func pageInfo(at index: Int) throws(PDFError) -> PageInfo {
        try checkIndex(index)
        var info = CMuPDF_page_info()
        var error = CMuPDF_error()
        guard CMuPDF_page_get_info(handle, Int32(index), &info, &error) == 0 else {
            throw damagedPage(index, error.text)
        }
        return pageInfo(index, info)
    }

    /// The label of page `index` (/PageLabels: "iv", "A-3", "Cover"), or nil when the document has
    /// none for it. A binary search over the label ranges: cheap enough for every frame.
    public func label(forPage index: Int) -> String? {
        labels?.label(forPage: index)
    }

    /// The first page (0-based) whose label is `label` ("iv", "A-7"; an exact match, else one
    /// ignoring case), or nil when no page has it. Reads no page (the labels were read at open), and
    /// looks at each label range once: O(label ranges), whatever the page count.
    public func pageIndex(forLabel label: String) -> Int? {
        labels?.page(forLabel: label, pageCount: pageCount)
    }

    /// The geometry and labels of the pages in `range`, for refining every page size at once
    /// (after `readPageTree(cookie:)`). A page whose info cannot be read is a `.damaged` failure of its own;
    /// the others are still returned. Takes the document lock in chunks, so renders of new pages
    /// are not held up for the whole range.
    ///
    /// - Throws: `.pageOutOfRange` when `range` is not inside `0..<pageCount`.
    /// Corresponding C function: `CMuPDF_page_get_infos`.
    public func pageInfos(in range: Range<Int>) throws(PDFError) -> [Result<PageInfo, PDFError>] {
        guard !range.isEmpty else { return [] }
        try checkIndex(range.lowerBound)
        try checkIndex(range.upperBound - 1)
        var results: [Result<PageInfo, PDFError>] = []
        results.reserveCapacity(range.count)
        var chunk = [CMuPDF_page_info](repeating: CMuPDF_page_info(), count: min(range.count, 512))
        var start = range.lowerBound
        while start < range.upperBound {
            let count = min(chunk.count, range.upperBound - start)
            var error = CMuPDF_error()
            let status = chunk.withUnsafeMutableBufferPointer {
                CMuPDF_page_get_infos(handle, Int32(start), Int32(count), $0.baseAddress, &error)
            }
            guard status == 0 else { throw damagedPage(start, error.text) }
            for offset in 0..<count {
                let index = start + offset
                if chunk[offset].status == 0 {
                    results.append(.success(pageInfo(index, chunk[offset])))
                } else {
                    // Rare: ask again for this page alone to get MuPDF's message.
                    results.append(Result { () throws(PDFError) in try pageInfo(at: index) })
                }
            }
            start += count
        }
        return results
    }

    /// Walks the whole page tree (page lookups walk it only as far as their page), so that
    /// `pageCount` becomes the number of pages the tree holds and later lookups are a table read.
    /// Call after the first frame, on a worker: it reads every page object (tens of milliseconds
    /// for 15,000 pages). It holds the document lock in slices, so renders go on meanwhile, and
    /// stops between slices when `cookie` is cancelled (`.cancelled`; a later call resumes).
    /// Thread safe; logs how long it took, and a warning when the tree holds another count than
    /// it claims.
    ///
    /// Unlike MuPDF's own page map, the walk never trusts /Count: a root that claims 1.4 billion
    /// pages costs nothing, a lying intermediate /Count cannot misplace a page, and /Kids that
    /// loop back to an ancestor are skipped.
    /// Corresponding C function: `CMuPDF_document_walk_page_tree`.
    public func readPageTree(cookie: RenderCookie? = nil) throws(PDFError) -> PageTree {
        try Self.walkPageTree(handle, path: path, cookie: cookie)
    }

    /// Walks the whole page tree (see `readPageTree(cookie:)`); kept for callers that only need to
    /// know whether the tree could be read.
    ///
    /// - Returns: false when the tree cannot be read (lookups still walk it as far as they can).
    @discardableResult
    public func loadPageTree() -> Bool {
        (try? readPageTree()) != nil
    }

    /// Frees the page dictionaries that reading every page's info kept in MuPDF's object cache
    /// (about 0.7 KB a page); they are read again when a page needs them. The page map the tree
    /// walk built stays (12 bytes a page). Call once all sizes were read.
    /// Corresponding C function: `CMuPDF_document_release_page_objects` (`pdf_clear_xref`).
    public func releasePageObjects() {
        CMuPDF_document_release_page_objects(handle)
    }

    /// Whether a file of `fileSize` bytes could hold `claimedPages` pages: a count that does not fit
    /// MuPDF's int is a lie (MuPDF keeps a wrapped value), and so is more than one page per 50 bytes
    /// (the smallest page object and its entry in the cross-reference table take more).
    static func isBelievable(claimedPages: Int64, fileSize: Int64) -> Bool {
        claimedPages > 0 && claimedPages <= Int64(Int32.max) && claimedPages <= max(1, fileSize / 50)
    }

    /// How long to pause between slices of the page tree walk, for tests that signal Lectern while
    /// it walks (`LECTERN_TEST_PAGE_TREE_DELAY_MS`); nil in normal use. The walk then reads one kid
    /// per slice.
    private static let testSliceDelayMilliseconds: Int? = getenv("LECTERN_TEST_PAGE_TREE_DELAY_MS")
        .flatMap { Int(String(cString: $0)) }

    private static func walkPageTree(
        _ handle: OpaquePointer, path: String, cookie: RenderCookie?
    ) throws(PDFError)
        -> PageTree
    {
        let clock = ContinuousClock()
        let start = clock.now
        MuPDFLog.logger.debug("\(path): reading the page tree")
        var tree = CMuPDF_page_tree()
        let slice: Int32 = testSliceDelayMilliseconds == nil ? 4096 : 1
        repeat {
            if cookie?.isCancelled == true {
                throw PDFError(.cancelled, path: path, message: "reading the page tree of \(path) was cancelled")
            }
            var error = CMuPDF_error()
            guard CMuPDF_document_walk_page_tree(handle, slice, &tree, &error) == 0 else {
                throw PDFError(
                    .damaged, path: path, message: "cannot read the page tree of \(path) (MuPDF: \(error.text))")
            }
            if let delay = testSliceDelayMilliseconds, tree.done == 0 {
                for _ in 0..<max(1, delay / 10) where cookie?.isCancelled != true { usleep(10_000) }
            }
        } while tree.done == 0
        let elapsed = clock.now - start
        let ms = elapsed.seconds * 1000
        MuPDFLog.logger.info(
            "\(path): page tree of \(tree.pages) pages read in \((ms * 10).rounded() / 10) ms\(tree.skipped > 0 ? " (\(tree.skipped) kids skipped: cycles, repeats or not pages)" : "")"
        )
        return PageTree(pageCount: Int(tree.pages), skippedKids: Int(tree.skipped))
    }

    private func pageInfo(_ index: Int, _ info: CMuPDF_page_info) -> PageInfo {
        let media = info.media_box
        let crop = info.crop_box
        let bounds = info.bounds
        return PageInfo(
            index: index,
            mediaBox: Rect(corners: media),
            cropBox: Rect(corners: crop),
            rotation: Int(info.rotation),
            displaySize: Size(width: Double(bounds.2 - bounds.0), height: Double(bounds.3 - bounds.1)),
            label: labels?.label(forPage: index)
        )
    }

    func damagedPage(_ index: Int, _ reason: String) -> PDFError {
        PDFError(
            .damaged, path: path,
            message: "cannot read page \(index + 1) of \(path): the page is damaged (MuPDF: \(reason))")
    }

    /// Renders the rectangle `region` (device pixels, in the rotated page scaled by `scale`) into
    /// caller-owned premultiplied BGRA memory (pixman a8r8g8b8 on little endian) on a white background.
    ///
    /// Pixels of `region` outside the page stay white. When the page content is damaged this throws
    /// `.renderIncomplete` (MuPDF skipped bad operators; `pixels` hold the rest of the page, fit to show)
    /// or `.renderFailed` (MuPDF gave up on the page).
    ///
    /// - Parameters:
    ///   - index: the page (0-based).
    ///   - scale: device pixels per PDF point.
    ///   - region: the part of the scaled page to draw; `pixels` holds `region.width` x `region.height`.
    ///   - pixels: at least `stride * region.height` bytes, written only during the call.
    ///   - stride: bytes per row, at least `4 * region.width`.
    ///   - cookie: cancels the render from another thread.
    /// - Throws: `.pageOutOfRange`, `.renderFailed`, `.renderIncomplete` or `.cancelled`.
    /// Corresponding C function: `CMuPDF_page_render`.
    public func render(
        page index: Int, scale: Double, region: PixelBox, into pixels: UnsafeMutableRawPointer,
        stride: Int, cookie: RenderCookie? = nil
    ) throws(PDFError) {
        try checkIndex(index)
        guard region.width > 0, region.height > 0, stride >= region.width * 4, scale > 0, scale.isFinite,
            stride <= Int(Int32.max), region.width <= Int(Int32.max) / 4, region.height <= Int(Int32.max)
        else {
            throw PDFError(
                .renderFailed, path: path,
                message:
                    "cannot render page \(index + 1) of \(path): invalid region \(region), stride \(stride) or scale \(scale)"
            )
        }
        var error = CMuPDF_error()
        let status = CMuPDF_page_render(
            handle, Int32(index), Float(scale), Int32(clamping: region.x),
            Int32(clamping: region.y), Int32(region.width), Int32(region.height),
            pixels.assumingMemoryBound(to: UInt8.self), stride, cookie?.handle, &error)
        switch Int(status) {
        case 0:
            return
        case Int(CMUPDF_ERROR_ABORT.rawValue):
            throw PDFError(.cancelled, path: path, message: "rendering page \(index + 1) of \(path) was cancelled")
        case Int(CMUPDF_ERROR_CONTENT.rawValue):
            throw PDFError(
                .renderIncomplete, path: path,
                message: "page \(index + 1) of \(path) is damaged and is drawn incomplete: \(error.text)")
        default:
            throw PDFError(
                .renderFailed, path: path,
                message: "cannot render page \(index + 1) of \(path): \(error.text)")
        }
    }

    /// Interprets page `index` now and keeps its display list, so that its first `render` only
    /// rasterizes: for the first page, on a worker, while the window is still being set up.
    /// Damage in the page content is reported by the renders, not here.
    /// - Throws: `.pageOutOfRange`, or `.renderFailed` when MuPDF cannot interpret the page.
    /// Corresponding C function: `CMuPDF_page_prepare`.
    public func prepare(page index: Int) throws(PDFError) {
        try checkIndex(index)
        var error = CMuPDF_error()
        guard CMuPDF_page_prepare(handle, Int32(index), &error) == 0 else {
            throw PDFError(
                .renderFailed, path: path, message: "cannot render page \(index + 1) of \(path): \(error.text)")
        }
    }

    /// Tests only: page info read the old way, by loading the page.
    func pageInfoByLoadingForTesting(at index: Int) throws(PDFError) -> PageInfo {
        try checkIndex(index)
        var info = CMuPDF_page_info()
        var error = CMuPDF_error()
        guard CMuPDF_page_get_info_by_loading_for_testing(handle, Int32(index), &info, &error) == 0 else {
            throw damagedPage(index, error.text)
        }
        return pageInfo(index, info)
    }

    /// Tests only: runs `body` while this thread holds the lock that guards the `fz_document`.
    func withDocumentLockHeldForTesting<T>(_ body: () throws -> T) rethrows -> T {
        CMuPDF_document_hold_lock_for_testing(handle, 1)
        defer { CMuPDF_document_hold_lock_for_testing(handle, 0) }
        return try body()
    }

    func checkIndex(_ index: Int) throws(PDFError) {
        guard index >= 0, index < pageCount else {
            throw PDFError(
                .pageOutOfRange, path: path,
                message: "\(path) has \(pageCount) page\(pageCount == 1 ? "" : "s"); there is no page \(index + 1)")
        }
    }

    /// Checks in Swift, before MuPDF, that `path` is a readable file starting like a document
    /// Lectern opens (`DocumentFormat`), so the common mistakes get a clear message instead of a
    /// MuPDF parser error. Returns its size and its format.
    private static func checkReadableDocument(_ path: String) throws(PDFError) -> (Int64, DocumentFormat) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw PDFError.open(.fileNotFound, path, "no such file")
            }
            throw PDFError.open(.unreadable, path, errnoText(code))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw PDFError.open(.unreadable, path, "it is a directory, not a PDF file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PDFError.open(.unreadable, path, errnoText(errno))
        }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while filled < head.count {
            let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PDFError.open(.unreadable, path, errnoText(errno))
            }
            if n == 0 { break }
            filled += n
        }
        if filled == 0 {
            throw PDFError.open(.notAPDF, path, "the file is empty")
        }
        guard let format = DocumentFormat.sniff(head[0..<filled]) else {
            throw PDFError.open(
                .notAPDF, path,
                "the file is not a PDF (it does not start with %PDF-), nor an EPUB, FB2, XHTML, XPS, CBZ or image")
        }
        return (Int64(info.st_size), format)
    }
}
