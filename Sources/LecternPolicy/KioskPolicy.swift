import LecternCore

/// What the operator's policy file decides beyond the document and its layout: the chrome, the
/// interaction components and their declarative conditions, links, the idle countdown, the
/// attract loop, QR codes and document reload. A value: a new policy replaces the old whole.
public struct KioskPolicy: Equatable, Sendable {
    /// When the title bar and page scrubber show.
    public enum ChromeMode: String, Sendable, CaseIterable {
        /// Never: a single tap does nothing.
        case never
        /// A single tap shows or hides them (the default).
        case onTap = "on-tap"
        /// Always shown; a single tap does not hide them.
        case always
    }

    /// What a tap on a link does.
    public enum LinkMode: String, Sendable, CaseIterable {
        /// Links do nothing.
        case none
        /// Links to pages of the document work; web links do nothing.
        case `internal`
        /// Links to pages work; a web link shows its address and a QR code (the default).
        case qr
        /// Like `qr`, but only web links matching one of `allowedLinks` (glob patterns).
        case allowList = "allow-list"
    }

    /// Whether a second output gets the presenter mirror.
    public enum MirrorMode: String, Sendable, CaseIterable {
        /// A second output shows the page aspect-fit (the default).
        case auto
        /// No mirror.
        case off
    }

    public var chrome = ChromeMode.onTap
    /// The presenter mirror on a second output.
    public var mirror = MirrorMode.auto
    /// The interaction components the policy turned off (by name: `fastScroll`, …).
    public var disabledComponents: Set<String> = []
    /// The largest zoom scale pinch and double tap reach (1: no zoom).
    public var maximumZoom = 8.0
    /// A double tap zooms (`smartZoom`).
    public var doubleTapZoom = true
    /// The width of each page-turn tap zone at the screen's sides, as a fraction of its width.
    public var edgeWidth = 0.2
    public var links = LinkMode.qr
    /// Glob patterns (fnmatch) of the web links `allow-list` shows.
    public var allowedLinks: [String] = []
    /// Seconds of notice before the idle reset, counted down on screen (0: none).
    public var idleCountdownSeconds = 10
    /// The countdown's text; `{seconds}` becomes the seconds left.
    public var idleNotice = "Returning to the start in {seconds} s — touch to stay"
    /// Seconds a web link's QR code stays on screen (a touch hides it sooner).
    public var qrSeconds = 30
    /// Follow the documents' files and show a new version when one is replaced.
    public var reloadsDocuments = true
    /// Seconds after the idle reset before pages advance by themselves (0: no attract loop).
    public var attractAfterSeconds = 0
    /// Seconds per page in the attract loop when the page has no /Dur.
    public var attractPageSeconds = 8.0
    /// How the attract loop brings on a page that has no /Trans (a push comes from the right,
    /// /Di 180, as a page turned forward does).
    public var attractTransition = PageTransition(style: .fade, duration: 1, direction: 180)
    /// What visitors may do with annotations and form fields, and what becomes of their edits.
    public var annotations = AnnotationRules()

    public init() {}

    /// Whether the policy lets the component named `name` act.
    public func enables(_ name: String) -> Bool { !disabledComponents.contains(name) }
}
