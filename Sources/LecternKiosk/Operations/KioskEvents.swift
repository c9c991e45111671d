import FoundationEssentials
import LecternCore

/// One thing that happened in the kiosk, as an integrator's observer (`KioskApp.events`) and
/// `lectern ctl events` (a JSON object per line) get it.
public struct KioskEvent: Codable, Equatable, Sendable {
    /// What happened.
    public enum Name: String, Codable, CaseIterable, Sendable {
        /// A document (or a new version of it) opened: `document`, `pages`.
        case documentLoaded = "document-loaded"
        /// A document could not be opened: `document`, `detail` (why).
        case documentFailed = "document-failed"
        /// A frame showed a spread the view settled on: `spread` (from 0), `pages` (from 1).
        case spreadShown = "spread-shown"
        /// The page on screen (the dominant page) changed: `page` (from 1).
        case pageChanged = "page-changed"
        /// The zoom changed and came to rest: `zoom` (1: the page fitted).
        case zoomChanged = "zoom-changed"
        /// The reader started on the view saved before a restart: `page`.
        case viewStateRestored = "view-state-restored"
        /// An interaction component acted (after its conditions): `component`, `page`.
        case componentActivated = "component-activated"
        /// A visitor tapped an annotation (a link, a note, a field): `component`, `page`.
        case annotationTapped = "annotation-tapped"
        /// A visitor selected text: `page`.
        case textSelected = "text-selected"
        /// Nobody used the kiosk for a while: back to the start.
        case idleReset = "idle-reset"
        /// The attract loop started turning the pages.
        case attractStarted = "attract-started"
    }

    public var event: Name
    /// When, on the kiosk's loop clock (seconds).
    public var time: Double
    public var document: String?
    /// A page, counting from 1.
    public var page: Int?
    /// A spread's pages, or a document's page count (`pages` of `document-loaded` holds one number).
    public var pages: [Int]?
    public var spread: Int?
    public var zoom: Double?
    public var component: String?
    public var detail: String?

    public init(
        _ event: Name, time: Double, document: String? = nil, page: Int? = nil, pages: [Int]? = nil,
        spread: Int? = nil, zoom: Double? = nil, component: String? = nil, detail: String? = nil
    ) {
        self.event = event
        self.time = time
        self.document = document
        self.page = page
        self.pages = pages
        self.spread = spread
        self.zoom = zoom
        self.component = component
        self.detail = detail
    }

    /// The event as `lectern ctl events` sends it: compact JSON and a newline.
    public func line() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }
}

/// The kiosk's events, delivered on the loop's thread to each observer that asked for their
/// names, in order. An observer must be quick (a frame waits for it); `lectern ctl events`
/// subscribers are written to without blocking, and one whose socket is full is dropped.
public final class KioskEvents {
    /// An observer's registration: `cancel(_:)` ends it.
    public struct Token: Hashable, Sendable {
        fileprivate let id: Int
    }

    private var observers: [(id: Int, names: Set<KioskEvent.Name>?, handler: (KioskEvent) -> Void)] = []
    private var nextID = 0

    public init() {}

    /// Calls `handler` with every event named in `names` (nil: every event) from now on.
    @discardableResult
    public func observe(_ names: Set<KioskEvent.Name>? = nil, _ handler: @escaping (KioskEvent) -> Void) -> Token {
        nextID += 1
        observers.append((nextID, names, handler))
        return Token(id: nextID)
    }

    /// Ends an observer's registration.
    public func cancel(_ token: Token) {
        observers.removeAll { $0.id == token.id }
    }

    /// Observers registered now.
    public var observerCount: Int { observers.count }

    func emit(_ event: KioskEvent) {
        for observer in observers where observer.names?.contains(event.event) ?? true { observer.handler(event) }
    }
}
