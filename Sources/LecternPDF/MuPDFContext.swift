import CMuPDF

/// The process's base MuPDF context: `fz_context` created with `fz_locks_context` (pthread mutexes)
/// and every document handler registered. Documents clone it (`fz_clone_context`), sharing its
/// resource store and locks.
///
/// Owns one `CMuPDF_context`, destroyed in `deinit`. Every `PDFDocument` holds a strong
/// reference to the context it was cloned from, so the base outlives its clones.
final class MuPDFContext: @unchecked Sendable {
    // Sendable: the base context is only used to clone (which takes MuPDF's own locks).
    let handle: OpaquePointer

    /// Corresponding C function: `CMuPDF_context_new`.
    init() throws(PDFError) {
        MuPDFLog.install()
        var error = CMuPDF_error()
        guard let handle = CMuPDF_context_new(&error) else {
            throw PDFError(.unreadable, path: "", message: "cannot start MuPDF: \(error.text)")
        }
        self.handle = handle
    }

    deinit { CMuPDF_context_drop(handle) }

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
