import LecternLinux
import LecternPDF

/// How far the document on screen got: opening, open (its reader is `CurrentReader.reader`), or
/// why it cannot be shown.
enum DocumentPhase {
    case opening
    case open
    case failed(DocumentFailure)
}

/// Why the document cannot be shown.
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

    /// What the screen tells a visitor: the file's name and a plain sentence. The full path
    /// and MuPDF's own words ("invalid key in dict") are for the log (`description`).
    var onScreen: String {
        guard case .document(let error) = self else { return "Something went wrong on this kiosk." }
        let name = fileName(error.path)
        let reason =
            switch error.kind {
            case .fileNotFound: "the file is missing."
            case .unreadable: "the file cannot be read."
            case .notAPDF: "it is not a PDF document."
            case .passwordRequired, .wrongPassword: "it is protected by a password."
            case .noPages: "it has no pages."
            default: "the file is damaged."
            }
        return name.isEmpty ? "The document cannot be shown: \(reason)" : "\(name): \(reason)"
    }
}
