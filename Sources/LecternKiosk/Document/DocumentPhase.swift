import LecternLinux
import LecternPDF

/// How far the document on screen got: opening, open (its reader is `CurrentReader.reader`), or
/// why it cannot be shown.
enum DocumentPhase {
    case opening
    case open
    case failed(DocumentFailure)
}

/// Why the document cannot be shown (what the visitor reads: `onScreen`, beside the card in
/// `ReaderScene`).
enum DocumentFailure: Error, CustomStringConvertible {
    case document(PDFError)
    /// The reader could not get what it needs from the system (a descriptor).
    case system(SystemError)

    var description: String {
        switch self {
        case .document(let error): error.description
        case .system(let error): "cannot show the document: \(error)"
        }
    }
}
