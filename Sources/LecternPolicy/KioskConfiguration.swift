import LecternCore

/// What the operator chose: the policy file (`PolicyFile`), then the command line on top.
public struct KioskConfiguration: Sendable {
    /// The document to show (with a shelf: the one open, or to open first).
    public var documentPath: String
    /// The documents on the shelf (policy `documents`, or several paths on the command line):
    /// with two or more, the home screen shows their covers and a tap opens one.
    public var shelfPaths: [String] = []
    /// The policy file, followed while the app runs (nil: none; the options here stand).
    public var policyPath: String?
    /// The command line's settings by policy key: they override the file's (`PolicyFile`).
    public var overrides: [String: PolicyValue] = [:]
    /// What the policy decides beyond the document and its layout.
    public var policy = KioskPolicy()
    /// The view state across restarts, the control socket, the metrics file.
    public var operations = OperationsPolicy()
    /// The password for an encrypted document, if any.
    public var password: String?
    /// Where to write a PNG of every committed frame (rate-limited) and of the last one on exit.
    public var frameDumpPath: String?
    /// Margin around the pages, in surface pixels.
    public var pageMargin = 12
    /// How pages are grouped into spreads.
    public var spreadMode: SpreadMode = .single
    /// Continuous scrolling or one spread at a time.
    public var scrollMode: ViewConfiguration.ScrollMode = .perSpread
    /// The scroll direction.
    public var scrollDirection: Axis = .horizontal
    /// The binding edge; nil reads it from the PDF (/ViewerPreferences /Direction).
    public var pageBinding: PageBinding?
    /// How a page turn looks in horizontal per-spread paging.
    public var transition = PageTurnTransition.slide
    /// The Wayland display to connect to (a socket name or an absolute path); nil: `$WAYLAND_DISPLAY`.
    public var displayName: String?
    /// The page shown first (0-based).
    public var startPage = 0
    /// Seconds without input after which the reader goes back to `startPage`, zoomed out
    /// (0: never).
    public var idleResetSeconds = 120
    /// The tile cache's budget in bytes; nil means about three screens.
    public var cacheBudget: Int?
    /// Where MuPDF draws: in process or in the render worker process (`render.*`).
    public var renderProcess = RenderProcessPolicy()

    public init(documentPath: String, password: String? = nil, frameDumpPath: String? = nil) {
        self.documentPath = documentPath
        self.password = password
        self.frameDumpPath = frameDumpPath
    }

    /// Whether page turns curl: asked for, and the layout pages horizontally (in any other
    /// layout the option does nothing).
    public var curls: Bool { transition == .curl && scrollMode == .perSpread && scrollDirection == .horizontal }

    /// Whether the home screen is the shelf.
    public var hasShelf: Bool { shelfPaths.count > 1 }

    /// The document view's configuration for a document whose PDF says `rightToLeft`.
    public func viewConfiguration(rightToLeft: Bool) -> ViewConfiguration {
        ViewConfiguration(
            spreadMode: spreadMode, pageBinding: pageBinding ?? (rightToLeft ? .rightEdge : .leftEdge),
            scrollMode: scrollMode, scrollDirection: scrollDirection,
            pageTransition: curls ? .curl : .scroll, spacing: Double(pageMargin),
            contentInsets: EdgeInsets(all: Double(pageMargin)), maximumZoomScale: policy.maximumZoom)
    }
}

/// How one spread gives way to the next in per-spread paging (`page-turn.transition`).
public enum PageTurnTransition: String, Sendable, CaseIterable {
    /// The spreads slide side by side, following the finger (the default).
    case slide
    /// The page curls like paper, following the finger (horizontal paging only).
    case curl
    /// The page changes at once; nothing moves.
    case none
}
