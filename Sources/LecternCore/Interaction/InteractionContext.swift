/// What an interaction component knows about where it would act; activation conditions
/// and callbacks receive it, with the touch point in `coordinateSpace`.
public protocol InteractionContext: Sendable {
    /// The space the point handed to conditions and callbacks is in.
    var coordinateSpace: CoordinateSpace { get }
}

/// The page under the finger, for the annotation and text components.
public struct PageInteractionContext: InteractionContext, Hashable {
    /// The page index.
    public var page: Int
    /// `.page(page)`: PDF user space of the page.
    public var coordinateSpace: CoordinateSpace { .page(page) }

    /// Creates a context for `page`.
    public init(page: Int) {
        self.page = page
    }
}

/// A link under the finger: its page, and where it goes.
public struct LinkInteractionContext: InteractionContext, Hashable {
    /// The page index.
    public var page: Int
    /// Where the link goes (a page of the document, or an address).
    public var target: LinkTarget
    /// `.page(page)`: PDF user space of the page.
    public var coordinateSpace: CoordinateSpace { .page(page) }

    /// Creates a context for the link to `target` on `page`.
    public init(page: Int, target: LinkTarget) {
        self.page = page
        self.target = target
    }
}

/// Which way a fast-scroll tap turns.
public enum PageTurnDirection: Hashable, Sendable {
    case previous, next
}

/// A tap in an edge zone that turns the spread.
public struct FastScrollContext: InteractionContext, Hashable {
    /// Previous or next, in reading order (mirrored zones under right-edge binding).
    public var direction: PageTurnDirection
    /// The spread the tap turns to.
    public var targetSpread: Int
    /// `.view`.
    public var coordinateSpace: CoordinateSpace { .view }

    /// Creates a fast-scroll context.
    public init(direction: PageTurnDirection, targetSpread: Int) {
        self.direction = direction
        self.targetSpread = targetSpread
    }
}

/// A double tap that zooms in on a text block (or about the finger), or back out.
public struct SmartZoomContext: InteractionContext, Hashable {
    /// The region that will fill the viewport, in view space as the view is now.
    public var targetRect: Rect
    /// The page under the finger, if any.
    public var page: Int?
    /// Whether the double tap zooms back out.
    public var zoomsOut: Bool
    /// `.view`.
    public var coordinateSpace: CoordinateSpace { .view }

    /// Creates a smart-zoom context.
    public init(targetRect: Rect, page: Int?, zoomsOut: Bool) {
        self.targetRect = targetRect
        self.page = page
        self.zoomsOut = zoomsOut
    }
}

/// No context: toggling the user interface does not depend on what is under the finger.
public struct EmptyInteractionContext: InteractionContext, Hashable {
    /// `.view`.
    public var coordinateSpace: CoordinateSpace { .view }

    /// Creates the empty context.
    public init() {}
}

/// A key pressed on the pages, for `keyCommand`.
public struct KeyInteractionContext: InteractionContext, Hashable {
    /// The key.
    public var key: Key
    /// `.view` (the point is the view's centre).
    public var coordinateSpace: CoordinateSpace { .view }

    /// Creates a key context.
    public init(key: Key) { self.key = key }
}

/// A turn of the wheel (or a touchpad's scroll) over the pages, for `wheelScroll`.
public struct WheelInteractionContext: InteractionContext, Hashable {
    /// The motion in view pixels.
    public var delta: Point
    /// The wheel's detents, when it has them.
    public var steps: Point?
    /// `.view` (the point is where the pointer is, else the view's centre).
    public var coordinateSpace: CoordinateSpace { .view }

    /// Creates a wheel context.
    public init(delta: Point, steps: Point?) {
        self.delta = delta
        self.steps = steps
    }
}

/// A control of the app's chrome a press lands on, for `chromeButton`, `thumbnail`, `scrubber`
/// and `pinchToGrid`: the app draws and hit-tests them, and asks the component before it acts.
public struct ChromeInteractionContext: InteractionContext, Hashable {
    /// The control: a title bar button's name ("pages", "contents", "search", "back"), or
    /// "thumbnailBar", "thumbnailGrid", "scrubber", "pinchToGrid".
    public var control: String
    /// The page it goes to, where it goes to one (a thumbnail, the scrubber).
    public var page: Int?
    /// `.view`.
    public var coordinateSpace: CoordinateSpace { .view }

    /// Creates a chrome context.
    public init(control: String, page: Int? = nil) {
        self.control = control
        self.page = page
    }
}

/// The text under the finger, for `selectText` and `deselectText`.
public struct TextInteractionContext: InteractionContext, Hashable {
    /// The page index (nil for `deselectText` on a tap away from every page).
    public var page: Int?
    /// The character under the finger (an index into the page's `PageCharacters`), if any.
    public var characterIndex: Int?
    /// The word `selectText` selects (character indices), if any.
    public var wordRange: ClosedRange<Int>?
    /// The text of that word (for conditions such as "only words longer than three letters").
    public var word: String
    /// The selection's handle a drag grabbed (`selectText` through its handle pan), if any.
    public var handle: TextSelectionHandle?
    /// `.page(page)` on a page (PDF user space), `.view` otherwise.
    public var coordinateSpace: CoordinateSpace { page.map { .page($0) } ?? .view }

    /// Creates a text context.
    public init(
        page: Int?, characterIndex: Int?, wordRange: ClosedRange<Int>?, word: String,
        handle: TextSelectionHandle? = nil
    ) {
        self.page = page
        self.characterIndex = characterIndex
        self.wordRange = wordRange
        self.word = word
        self.handle = handle
    }
}
