/// The document on screen, read only: which file, how far it got, whether its first page is
/// late, how many documents opened so far. The document session keeps these; the parts that
/// draw or report them (the frame, status, metrics, the control socket's answers) read them
/// here and can change nothing. Its reader is `CurrentReader`'s.
protocol DocumentOnScreen: AnyObject {
    /// The document shown, or being opened.
    var documentPath: String { get }
    var phase: DocumentPhase { get }
    /// The first page takes long enough to come that "Opening…" is worth showing.
    var isFirstFrameLate: Bool { get }
    /// Documents opened so far (first opens, reloads and documents chosen on the shelf).
    var documentsOpened: Int { get }
}

/// The way to put another document, or a new version of this one, on screen: what the shelf,
/// the control socket and the annotations' discard ask for. The document session implements it.
protocol DocumentShowing: DocumentOnScreen {
    /// Opens the document at `path` in place of the one shown, on `page` (0-based; nil: the page
    /// on screen now); the one shown stays until the new one's page is drawn.
    func show(path: String, page: Int?)
    /// Opens the document shown again, on `page` (nil: the page on screen now).
    func reload(page: Int?)
    /// Another document asked for could not be shown: the one on screen, `path`, goes on.
    func keepShowing(_ path: String)
}
