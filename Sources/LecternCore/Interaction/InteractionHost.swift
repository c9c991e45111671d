/// What the interaction controller acts on: the app's document view, the text layout
/// smart zoom aims at, and the chrome. The app implements it (LecternKiosk), tests use a
/// plain class.
public protocol InteractionHost: AnyObject {
    /// The document view the gestures, keys and wheel move.
    var documentView: DocumentView { get set }
    /// The text blocks of `page` (MuPDF structured-text blocks), in page space: PDF user
    /// space like `DocumentView`'s `.page(page)`. Empty when unknown (smart zoom then
    /// zooms about the finger).
    func textBlocks(onPage page: Int) -> [Rect]
    /// Whether the chrome (title, page label, controls) is shown.
    var isUserInterfaceVisible: Bool { get set }
    /// The link under `point` (page space of `page`), if any. Default: no links.
    func link(at point: Point, onPage page: Int) -> LinkTarget?
    /// Follows a link the visitor tapped (what a web address does on a kiosk is the app's
    /// choice). Default: goes to the page of an internal link.
    func follow(_ link: LinkTarget)
    /// Whether the chrome follows a finger or the pointer's button itself (dragging a page
    /// scrubber): input the controller never sees, which keeps the reader from being idle
    /// (`InteractionController.isUserInteracting`). Default: false.
    var isChromeTrackingInput: Bool { get }
    /// The characters of `page` in reading order (for text selection), or nil when not read
    /// yet (`selectText` then does not activate there). Default: nil.
    func pageCharacters(onPage page: Int) -> PageCharacters?
    /// The text selection changed (nil: cleared). `isSettled` is false while a handle is being
    /// dragged (the selection changes with every motion) and true when it came to rest: a long
    /// press, a cleared selection, the lift that ends a handle drag. Default: nothing.
    func textSelectionDidChange(_ selection: TextSelection?, isSettled: Bool)
    /// The annotations and form fields of `page`, in page space, in the page's order. Empty
    /// when unknown. Default: none (the annotation components never act).
    func annotations(onPage page: Int) -> [AnnotationInfo]
    /// The selected annotation, whose frame and handles the host draws. Default: none, and
    /// setting it does nothing.
    var annotationSelection: AnnotationSelection? { get set }
    /// Edits `annotation` (`editAnnotation`): a keyboard for a text field or a note, a picker
    /// for a choice, a toggle for a checkbox or radio button. Default: nothing.
    func edit(_ annotation: AnnotationInfo, onPage page: Int)
    /// Moves or resizes `annotation` to `rect` (page space): a transform's finger lifted.
    /// Default: nothing.
    func setRect(_ rect: Rect, of annotation: AnnotationInfo, onPage page: Int)
}

/// Where a link leads.
public enum LinkTarget: Hashable, Sendable {
    /// A page of this document (0-based).
    case page(Int)
    /// An address outside the document.
    case uri(String)
}

extension InteractionHost {
    public func link(at point: Point, onPage page: Int) -> LinkTarget? { nil }

    public var isChromeTrackingInput: Bool { false }

    public func pageCharacters(onPage page: Int) -> PageCharacters? { nil }

    public func textSelectionDidChange(_ selection: TextSelection?, isSettled: Bool) {}

    public func annotations(onPage page: Int) -> [AnnotationInfo] { [] }

    public var annotationSelection: AnnotationSelection? {
        get { nil }
        set {}
    }

    public func edit(_ annotation: AnnotationInfo, onPage page: Int) {}

    public func setRect(_ rect: Rect, of annotation: AnnotationInfo, onPage page: Int) {}

    public func follow(_ link: LinkTarget) {
        guard case .page(let page) = link else { return }
        try? documentView.goToPage(page)
    }
}

/// Tunables of the interaction controller.
public struct InteractionConfiguration: Hashable, Sendable {
    /// The width of each fast-scroll edge zone, as a fraction of the view width.
    public var fastScrollEdgeFraction = 0.2
    /// The margin smart zoom keeps around a text block, in page points.
    public var smartZoomMargin = 8.0
    /// The zoom scale smart zoom uses about the finger when no text block is under it.
    public var smartZoomFallbackScale = 2.0
    /// A zoom scale above `1 + zoomedInTolerance` counts as zoomed in.
    public var zoomedInTolerance = 0.01
    /// How far an arrow key scrolls, in view pixels.
    public var keyboardScrollStep = 48.0
    /// The factor `+` zooms in by (and `−` out by).
    public var keyboardZoomFactor = 1.5
    /// How much smooth (detent-less) scrolling turns one spread in per-spread mode (and at
    /// a zoomed spread's edge), in view pixels: smooth scrolling's equivalent of a detent.
    public var wheelPageTurnDistance = 120.0
    /// How far one wheel detent scrolls, as a fraction of the viewport along the motion:
    /// 0.1 is 108 px on a 1080-pixel-high screen, ten detents a screenful on any screen.
    /// Desktop readers move about as much (GTK 3, under Evince, scrolls page^(2/3): 105 px
    /// for a 1080-pixel view), where the 15 px of `wl_pointer.axis` took over 100 detents
    /// per page. A fraction rather than lines of text: a PDF's lines have no fixed size on
    /// screen. High-resolution wheels (`axis_value120`) scroll the same per 120 units;
    /// smooth (touchpad) scrolling moves by its own pixels.
    public var wheelDetentFraction = 0.1
    /// How long the wheel must rest after panning a zoomed spread (per-spread mode) to its
    /// edge before more wheel motion there turns the spread, in seconds: a flick that
    /// overshoots the edge stops there rather than turning the page, and the next, after
    /// a pause, turns it (one detent or `wheelPageTurnDistance`). Wheel events closer
    /// together than this belong to one flick, like a browser's wheel transaction.
    public var wheelEdgePause = 0.3

    /// Creates the default configuration.
    public init() {}
}
