/// What the operator chose on the command line (later: a config file).
public struct KioskConfiguration: Sendable {
    /// The document to show.
    public var documentPath: String
    /// The password for an encrypted document, if any.
    public var password: String?
    /// Where to write a PNG of every committed frame (rate-limited) and of the last one on exit.
    public var frameDumpPath: String?
    /// Margin around a fitted page, in surface pixels.
    public var pageMargin = 12

    public init(documentPath: String, password: String? = nil, frameDumpPath: String? = nil) {
        self.documentPath = documentPath
        self.password = password
        self.frameDumpPath = frameDumpPath
    }
}
