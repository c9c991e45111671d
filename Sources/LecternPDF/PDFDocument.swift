import CMuPDF
import Foundation

/// An open PDF file: page count, page geometry and tile rendering.
///
/// Owns one `lectern_mupdf_document` (an `fz_document` with its own context cloned from the base
/// context), destroyed in `deinit`. Every call takes the document's lock, so a document may be used
/// from any thread, one call at a time; different documents render in parallel.
public final class PDFDocument: @unchecked Sendable {
    // Sendable: `handle` is only used with `lock` held; the other stored properties are immutable.
    private let handle: OpaquePointer
    private let lock = NSLock()
    private let context: MuPDFContext

    /// The path the document was opened from.
    public let path: String
    /// The number of pages (always at least 1: a document without pages does not open).
    public let pageCount: Int
    /// True when MuPDF had to repair the file (a truncated or damaged file was recovered);
    /// some pages may then fail to render. Corresponding C function: `pdf_was_repaired`.
    public let wasRepaired: Bool
    /// True when /ViewerPreferences /Direction is /R2L (right-edge binding).
    public let isRightToLeft: Bool

    /// Opens the PDF at `path`, unlocking it with `password` when it is encrypted.
    ///
    /// - Parameters:
    ///   - path: a file path.
    ///   - password: the user or owner password, for encrypted files.
    /// - Throws: `PDFError` of kind `.fileNotFound`, `.unreadable`, `.notAPDF`, `.damaged`,
    ///   `.passwordRequired`, `.wrongPassword` or `.noPages`.
    public init(path: String, password: String? = nil) throws(PDFError) {
        try Self.checkReadablePDF(path)
        let context: MuPDFContext
        do {
            context = try MuPDFContext.shared()
        } catch {
            throw PDFError.open(.unreadable, path, error.message)
        }
        var error = lectern_mupdf_error()
        guard let handle = lectern_mupdf_document_open(context.handle, path, &error) else {
            throw PDFError.open(.damaged, path, "the file is damaged and could not be repaired (MuPDF: \(error.text))")
        }
        // From here on `handle` is ours: every failure path below must drop it.
        func fail(_ kind: PDFError.Kind, _ reason: String) -> PDFError {
            lectern_mupdf_document_drop(handle)
            return PDFError.open(kind, path, reason)
        }

        switch lectern_mupdf_document_needs_password(handle, &error) {
        case 0:
            break
        case 1:
            guard let password else {
                throw fail(.passwordRequired, "the file is encrypted and no password was configured")
            }
            switch lectern_mupdf_document_authenticate(handle, password, &error) {
            case 1: break
            case 0: throw fail(.wrongPassword, "the file is encrypted and the configured password is wrong")
            default: throw fail(.damaged, "the file's encryption could not be read (MuPDF: \(error.text))")
            }
        default:
            throw fail(.damaged, "the file is damaged (MuPDF: \(error.text))")
        }

        var count: Int32 = 0
        guard lectern_mupdf_document_count_pages(handle, &count, &error) == 0 else {
            throw fail(.damaged, "the file is damaged: its pages cannot be found (MuPDF: \(error.text))")
        }
        guard count > 0 else {
            throw fail(.noPages, "the document has no pages")
        }

        var rtl: Int32 = 0
        if lectern_mupdf_document_is_right_to_left(handle, &rtl, &error) != 0 {
            MuPDFLog.logger.warning("\(path): cannot read /ViewerPreferences, assuming left-to-right: \(error.text)")
            rtl = 0
        }

        self.handle = handle
        self.context = context
        self.path = path
        self.pageCount = Int(count)
        self.wasRepaired = lectern_mupdf_document_was_repaired(handle) != 0
        self.isRightToLeft = rtl != 0
    }

    deinit { lectern_mupdf_document_drop(handle) }

    /// The geometry of page `index` (0-based).
    /// Corresponding C function: `lectern_mupdf_page_get_info`.
    public func pageInfo(at index: Int) throws(PDFError) -> PageInfo {
        try checkIndex(index)
        var info = lectern_mupdf_page_info()
        var error = lectern_mupdf_error()
        let status = withLock { lectern_mupdf_page_get_info(handle, Int32(index), &info, &error) }
        guard status == 0 else {
            throw PDFError(
                .damaged, path: path,
                message: "cannot read page \(index + 1) of \(path): the page is damaged (MuPDF: \(error.text))")
        }
        let media = info.media_box
        let crop = info.crop_box
        let bounds = info.bounds
        return PageInfo(
            index: index,
            mediaBox: PDFRect(x0: Double(media.0), y0: Double(media.1), x1: Double(media.2), y1: Double(media.3)),
            cropBox: PDFRect(x0: Double(crop.0), y0: Double(crop.1), x1: Double(crop.2), y1: Double(crop.3)),
            rotation: Int(info.rotation),
            displaySize: PDFSize(width: Double(bounds.2 - bounds.0), height: Double(bounds.3 - bounds.1))
        )
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
    /// Corresponding C function: `lectern_mupdf_page_render`.
    public func render(
        page index: Int, scale: Double, region: PixelRect, into pixels: UnsafeMutableRawPointer,
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
        var error = lectern_mupdf_error()
        let status = withLock {
            lectern_mupdf_page_render(
                handle, Int32(index), Float(scale), Int32(clamping: region.x),
                Int32(clamping: region.y), Int32(region.width), Int32(region.height),
                pixels.assumingMemoryBound(to: UInt8.self), stride, cookie?.handle, &error)
        }
        switch Int(status) {
        case 0:
            return
        case Int(LECTERN_MUPDF_ERROR_ABORT.rawValue):
            throw PDFError(.cancelled, path: path, message: "rendering page \(index + 1) of \(path) was cancelled")
        case Int(LECTERN_MUPDF_ERROR_CONTENT.rawValue):
            throw PDFError(
                .renderIncomplete, path: path,
                message: "page \(index + 1) of \(path) is damaged and is drawn incomplete: \(error.text)")
        default:
            throw PDFError(
                .renderFailed, path: path,
                message: "cannot render page \(index + 1) of \(path): \(error.text)")
        }
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func checkIndex(_ index: Int) throws(PDFError) {
        guard index >= 0, index < pageCount else {
            throw PDFError(
                .pageOutOfRange, path: path,
                message: "\(path) has \(pageCount) page\(pageCount == 1 ? "" : "s"); there is no page \(index + 1)")
        }
    }

    /// Checks in Swift, before MuPDF, that `path` is a readable file starting like a PDF, so the
    /// common mistakes get a clear message instead of a MuPDF parser error.
    private static func checkReadablePDF(_ path: String) throws(PDFError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw PDFError.open(.fileNotFound, path, "no such file")
            }
            throw PDFError.open(.unreadable, path, String(cString: strerror(code)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw PDFError.open(.unreadable, path, "it is a directory, not a PDF file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PDFError.open(.unreadable, path, String(cString: strerror(errno)))
        }
        defer { close(fd) }
        // The PDF header may follow up to 1 KiB of junk (PDF 1.7, Annex H).
        var head = [UInt8](repeating: 0, count: 1024)
        var filled = 0
        while filled < head.count {
            let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PDFError.open(.unreadable, path, String(cString: strerror(errno)))
            }
            if n == 0 { break }
            filled += n
        }
        if filled == 0 {
            throw PDFError.open(.notAPDF, path, "the file is empty")
        }
        let signature: [UInt8] = Array("%PDF-".utf8)
        let found =
            filled >= signature.count
            && (0...(filled - signature.count)).contains { head[$0..<$0 + signature.count].elementsEqual(signature) }
        if !found {
            throw PDFError.open(.notAPDF, path, "the file is not a PDF (it does not start with %PDF-)")
        }
    }
}
