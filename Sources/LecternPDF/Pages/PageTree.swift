/// What walking a document's page tree found (`PDFDocument.readPageTree(cookie:)`).
public struct PageTree: Sendable, Equatable {
    /// The number of pages the tree holds: its leaf page objects reachable from the root, each
    /// counted once, whatever the /Count entries say.
    public var pageCount: Int
    /// The /Kids entries left out: met before (a loop back to an ancestor, or a page listed twice),
    /// not a page, nested too deep, or unreadable.
    public var skippedKids: Int

    public init(pageCount: Int, skippedKids: Int) {
        self.pageCount = pageCount
        self.skippedKids = skippedKids
    }
}
