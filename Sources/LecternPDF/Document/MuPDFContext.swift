import CMuPDF
import Glibc

/// The process's base MuPDF context: `fz_context` created with `fz_locks_context` (pthread mutexes)
/// and every document handler registered. Documents clone it (`fz_clone_context`), sharing its
/// resource store and locks.
///
/// Owns one `CMuPDF_context`, destroyed in `deinit`. Every `PDFDocument` holds a strong
/// reference to the context it was cloned from, so the base outlives its clones.
///
/// Its allocations are capped (`memoryLimit`): a page that needs more (a two-gigapixel image)
/// fails with an out-of-memory error and shows as an error tile; the reader and the machine go on.
final class MuPDFContext: @unchecked Sendable {
    // Sendable: the base context is only used to clone (which takes MuPDF's own locks).
    let handle: OpaquePointer
    /// The most bytes MuPDF may hold at once in this context and its clones.
    let memoryLimit: Int

    /// Corresponding C function: `CMuPDF_context_new`.
    init(memoryLimit: Int = MuPDFContext.defaultMemoryLimit) throws(PDFError) {
        MuPDFLog.install()
        var error = CMuPDF_error()
        guard let handle = CMuPDF_context_new(max(0, memoryLimit), &error) else {
            throw PDFError(.unreadable, path: "", message: "cannot start MuPDF: \(error.text)")
        }
        self.handle = handle
        self.memoryLimit = memoryLimit
    }

    deinit { CMuPDF_context_drop(handle) }

    /// The bytes MuPDF holds now. Corresponding C function: `CMuPDF_context_memory_in_use`.
    var memoryInUse: Int { CMuPDF_context_memory_in_use(handle) }

    /// 384 MiB, or a quarter of the machine's memory when that is less: no document may take
    /// a kiosk's memory (a 1 KB file can ask MuPDF for 450 MB: Tests/Fixtures/make-huge-image),
    /// and ordinary pages never come near it (a 12-megapixel photo decodes into 48 MB; MuPDF's
    /// store of decoded images and fonts gets half of the cap).
    static var defaultMemoryLimit: Int {
        let physical = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
        return physical > 0 ? min(384 << 20, physical / 4) : 384 << 20
    }

    private static let sharedResult = Result { () throws(PDFError) -> MuPDFContext in try MuPDFContext() }

    /// The one base context of the process, made on first use.
    static func shared() throws(PDFError) -> MuPDFContext { try sharedResult.get() }
}

extension CMuPDF_error {
    /// The message MuPDF (or the shim) wrote.
    var text: String {
        withUnsafeBytes(of: message) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
