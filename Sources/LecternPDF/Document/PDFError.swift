/// Why a PDF could not be opened, read, rendered or written, with a message a kiosk operator can act on.
public struct PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code that reacts differently to different failures.
    public enum Kind: String, Sendable, Equatable {
        /// The path does not exist.
        case fileNotFound
        /// The path exists but cannot be read (permissions, a directory, an I/O error).
        case unreadable
        /// The file is not a PDF (no `%PDF-` header) nor another format Lectern opens (`DocumentFormat`),
        /// or is empty.
        case notAPDF
        /// The file is a PDF that MuPDF cannot parse or repair.
        case damaged
        /// The file is encrypted and no password was configured.
        case passwordRequired
        /// The file is encrypted and the configured password does not open it.
        case wrongPassword
        /// The document has no pages.
        case noPages
        /// A page index outside `0..<pageCount`.
        case pageOutOfRange
        /// MuPDF failed to draw a page (damaged content it cannot get past, out of memory, a bad
        /// argument). The pixels are unspecified (white or partly drawn).
        case renderFailed
        /// MuPDF drew the page but skipped content it could not understand. The pixels hold what
        /// MuPDF could draw, usually nearly all of the page: show them, and log the message.
        case renderIncomplete
        /// A render was cancelled with its `RenderCookie`.
        case cancelled
        /// An output file (PNG, a saved PDF) could not be written.
        case writeFailed
        /// An edit the document or the input does not allow: a locked or read-only annotation, a
        /// read-only or signature field, a value the field does not take, a rect that is not finite.
        case editRefused
        /// The page has no annotation with the object number an edit names.
        case annotationNotFound
    }

    /// What went wrong.
    public var kind: Kind
    /// The file concerned.
    public var path: String
    /// The whole sentence for logs and the on-screen error, e.g.
    /// "cannot open /srv/kiosk/menu.pdf: the file is encrypted and no password was configured".
    public var message: String

    public init(_ kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String { message }

    /// True for both password kinds.
    public var isEncrypted: Bool { kind == .passwordRequired || kind == .wrongPassword }

    static func open(_ kind: Kind, _ path: String, _ reason: String) -> PDFError {
        PDFError(kind, path: path, message: "cannot open \(path): \(reason)")
    }
}
