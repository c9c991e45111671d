/// What the navigation overlays show (`KioskStatus.navigation`), for tests and diagnostics.
public struct NavigationStatus: Sendable, Equatable {
    /// The thumbnail bar is on screen (with the chrome).
    public var isThumbnailBarShown = false
    public var isGridOpen = false
    /// The document has an outline (the title bar then has a Contents button).
    public var hasOutline = false
    public var isOutlineOpen = false
    /// The outline's entries a visitor can see (the panel scrolls), two spaces of indent a level.
    public var outline: [String] = []
    /// The thumbnails the last frame laid out (bar or grid): what is on screen, never the document.
    public var thumbnailsInFrame = 0
    /// Their pages, left to right (row by row in the grid).
    public var thumbnailPages: [Int] = []
    /// How far the thumbnail bar, the grid and the outline panel are scrolled, in screen units.
    public var barOffset = 0.0
    public var gridOffset = 0.0
    public var outlineOffset = 0.0
    /// The search, while the search bar is open.
    public var search: SearchStatus?
    /// The on-screen keyboard's keys as written on them, in order (empty while it is hidden).
    public var keyboardKeys: [String] = []
    /// The title bar's buttons, as written on them (after the back button).
    public var titleButtons: [String] = []

    public init() {}
}

/// Where a search is (`NavigationStatus.search`).
public struct SearchStatus: Sendable, Equatable {
    public var query: String
    /// The hits found so far.
    public var hitCount: Int
    /// The hit next/previous is on (0-based, in document order), nil when none.
    public var currentHit: Int?
    /// The page of that hit (0-based).
    public var currentPage: Int?
    /// The pages searched so far, of `pageCount`.
    public var pagesSearched: Int
    public var pageCount: Int
    /// The search is still running.
    public var isSearching: Bool
    public var isKeyboardShown: Bool

    public init(
        query: String, hitCount: Int, currentHit: Int?, currentPage: Int?, pagesSearched: Int, pageCount: Int,
        isSearching: Bool, isKeyboardShown: Bool
    ) {
        self.query = query
        self.hitCount = hitCount
        self.currentHit = currentHit
        self.currentPage = currentPage
        self.pagesSearched = pagesSearched
        self.pageCount = pageCount
        self.isSearching = isSearching
        self.isKeyboardShown = isKeyboardShown
    }
}
