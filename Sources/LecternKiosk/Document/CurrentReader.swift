/// The reader of the document on screen: nil while the first document opens or when it cannot
/// be shown. The session puts each one here (the first, a new version, another document); the
/// parts that draw on it, search it, select in it or move its view read it here when they act,
/// and need nothing else of the session.
final class CurrentReader {
    /// The reader on screen (the session sets it).
    var reader: Reader? {
        didSet {
            if let reader { onOpen?(reader) }
        }
    }
    /// Called when a reader comes on screen (the document opened, a new version, another one).
    var onOpen: ((Reader) -> Void)?
}
