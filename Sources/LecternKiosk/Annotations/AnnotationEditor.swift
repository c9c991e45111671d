import LecternCore
import LecternDocuments
import LecternLinux
import LecternPDF
import Logging

/// Every change Lectern makes to a document, and every save, in one place: edits of
/// annotations and form fields, and incremental saves, run in order on a worker of their own
/// (MuPDF regenerating an appearance or writing a file never holds up a frame); each result
/// comes back on the loop's thread with the page's annotations read again.
///
/// The one door to the documents' write API (`ShownDocument.apply` and `saveIncrementally`):
/// with the render worker on, edits are made in the worker and saves in a worker of their own.
final class AnnotationEditor {
    /// A change to one annotation.
    enum Edit: Sendable, Equatable {
        case rect(Rect)
        case contents(String)
        /// A text or choice field's value (after the field's format and validate actions).
        case value(String)
        /// A checkbox or radio button.
        case toggle
    }

    /// What came back from the worker.
    enum Result: Sendable {
        /// The edit was made (or refused: `error`); the page's annotations as they are now.
        case edited(document: ObjectIdentifier, page: Int, annotations: [AnnotationInfo], error: String?)
        /// The reading direction was set (or not: `error`).
        case directionSet(document: ObjectIdentifier, error: String?)
        /// A save finished: where it went, or why it failed.
        case saved(document: ObjectIdentifier, path: String, error: String?)
    }

    /// The worker: edits and saves run on it in order.
    private let worker: BackgroundWork
    private let logger: Logger
    /// Edits made to each open document since it was opened or last saved.
    private var unsaved: [ObjectIdentifier: Int] = [:]
    /// Edits handed to the worker so far (made or refused).
    private(set) var edits = 0
    /// Called on the loop's thread with each result.
    var onResult: ((Result) -> Void)?

    init(loop: EventLoop, logger: Logger) {
        self.logger = logger
        worker = BackgroundWork(label: "lectern.annotations", qos: .userInitiated, loop: loop)
    }

    /// Stops taking results (shutdown; a save under way finishes on its own).
    func close() {
        worker.abandon()
    }

    /// Whether an edit or save is queued or running, or its result not yet delivered.
    var isBusy: Bool { worker.isBusy }

    /// Whether `document` holds edits no save has written.
    func hasUnsavedChanges(_ document: ShownDocument) -> Bool { unsaved[ObjectIdentifier(document)] != nil }

    /// The documents edited (saved or not), which no longer show what their files have.
    private var edited: Set<ObjectIdentifier> = []

    /// Whether `document` was edited since it was opened.
    func wasEdited(_ document: ShownDocument) -> Bool { edited.contains(ObjectIdentifier(document)) }

    /// Forgets the edits of `document` (it is being dropped for a fresh copy of its file).
    func discard(_ document: ShownDocument) { unsaved[ObjectIdentifier(document)] = nil }

    /// Applies `edit` to the annotation `objectNumber` of `page`.
    func apply(_ edit: Edit, objectNumber: Int, page: Int, of document: ShownDocument) {
        let id = ObjectIdentifier(document)
        unsaved[id, default: 0] += 1
        edited.insert(id)
        edits += 1
        // Where the document is: with the render worker on, the edit is made in the worker
        // (and replayed to a worker started after it).
        let change: DocumentEdit =
            switch edit {
            case .rect(let rect): .annotationRect(rect, objectNumber: objectNumber, page: page)
            case .contents(let text): .annotationContents(text, objectNumber: objectNumber, page: page)
            case .value(let value): .fieldValue(value, objectNumber: objectNumber, page: page)
            case .toggle: .toggleField(objectNumber: objectNumber, page: page)
            }
        worker.submit {
            var failure: String?
            if case .failure(let error) = document.apply(change) { failure = error.message }
            let annotations = document.annotationInfos(page: page)
            return Result.edited(document: id, page: page, annotations: annotations, error: failure)
        } then: { [unowned self] in
            delivered($0)
        }
    }

    /// Sets `document`'s reading direction (/ViewerPreferences /Direction), an edit saved or
    /// discarded with the others.
    func setReadingDirection(rightToLeft: Bool, of document: ShownDocument) {
        let id = ObjectIdentifier(document)
        unsaved[id, default: 0] += 1
        edited.insert(id)
        edits += 1
        worker.submit {
            guard case .failure(let error) = document.apply(.readingDirection(rightToLeft: rightToLeft)) else {
                return Result.directionSet(document: id, error: nil)
            }
            return .directionSet(document: id, error: error.message)
        } then: { [unowned self] in
            delivered($0)
        }
    }

    /// Saves `document`'s edits incrementally to `path` (atomically: the file there is either
    /// the last good one or the new one).
    func save(_ document: ShownDocument, to path: String) {
        let id = ObjectIdentifier(document)
        worker.submit {
            do throws(PDFError) {
                try document.saveIncrementally(to: path)
                return Result.saved(document: id, path: path, error: nil)
            } catch {
                return .saved(document: id, path: path, error: error.message)
            }
        } then: { [unowned self] in
            delivered($0)
        }
    }

    private func delivered(_ result: Result) {
        switch result {
        case .edited(let id, let page, _, let error?):
            logger.error("cannot change an annotation on page \(page + 1): \(error)")
            unsaved[id] = unsaved[id].flatMap { $0 > 1 ? $0 - 1 : nil }
        case .directionSet(let id, let error?):
            logger.error("cannot set the reading direction: \(error)")
            unsaved[id] = unsaved[id].flatMap { $0 > 1 ? $0 - 1 : nil }
        case .saved(let id, let path, nil):
            logger.info("saved the visitor's changes to \(path)")
            unsaved[id] = nil
        case .saved(_, let path, let error?):
            logger.error("cannot save the visitor's changes to \(path): \(error) (the file there is unchanged)")
        case .edited, .directionSet:
            break
        }
        onResult?(result)
    }
}
