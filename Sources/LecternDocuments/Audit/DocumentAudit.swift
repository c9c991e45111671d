import LecternCore
import LecternPDF
import LecternRender

/// The screen an audit measures against: a page is drawn fitted to it, as the reader shows it.
public struct AuditScreen: Codable, Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// The screen's width in millimetres.
    public var widthMillimetres: Double

    /// A screen of 96 pixels an inch (0.2646 mm a pixel) when its millimetres are not known.
    public init(width: Int, height: Int, widthMillimetres: Double? = nil) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.widthMillimetres = widthMillimetres ?? Double(self.width) * 25.4 / 96
    }

    /// Pixels a point of a page of `size` points, fitted to the screen.
    public func scale(for size: Size) -> Double {
        min(Double(width) / max(1, size.width), Double(height) / max(1, size.height))
    }

    /// The whole page `page` of `size` points fitted to the screen: the key of its one render.
    public func fittedKey(page: Int, size: Size) -> TileKey {
        let scale = scale(for: size)
        return TileKey(
            page: page, pageWidth: max(1, Int((size.width * scale).rounded())),
            pageHeight: max(1, Int((size.height * scale).rounded())), kind: .preview)
    }

    /// How tall `points` of a page of `size` points are on the screen, in millimetres.
    public func millimetres(_ points: Double, onPageOf size: Size) -> Double {
        points * scale(for: size) * widthMillimetres / Double(width)
    }
}

/// One page's findings.
public struct PageAudit: Codable, Equatable, Sendable {
    /// The page, counting from 1.
    public var page: Int
    /// What its render at the screen's size cost: the worker's CPU time, which is what it takes
    /// on an idle kiosk (nil: not drawn, see `renderFailure`).
    public var renderMilliseconds: Double?
    /// The render took longer than the budget (or did not end by the deadline).
    public var isSlow: Bool
    /// Why it was not drawn: it overran the deadline, or MuPDF failed on it.
    public var renderFailure: String?
    /// Whether the page has text (none: a scan, or pictures only).
    public var hasText: Bool
    public var characterCount: Int
    /// The smallest text, in points and in millimetres on the screen (nil: no text).
    public var smallestTextPoints: Double?
    public var smallestTextMillimetres: Double?
    /// The fonts drawn by a substitute (not embedded).
    public var substitutedFonts: [String]
    public var annotations: Int
    public var fields: Int
    public var figures: Int
    public var figuresWithoutAlt: Int
    /// Why the page's facts could not be read (nil: they were).
    public var error: String?

    init(page: Int, facts: PageFacts?, screen: AuditScreen) {
        self.page = page + 1
        renderMilliseconds = nil
        isSlow = false
        renderFailure = nil
        characterCount = facts?.characterCount ?? 0
        hasText = characterCount > 0
        smallestTextPoints = facts?.smallestTextSize
        smallestTextMillimetres = facts.flatMap { facts in
            facts.smallestTextSize.map { (screen.millimetres($0, onPageOf: facts.size) * 100).rounded() / 100 }
        }
        substitutedFonts = facts?.substitutedFonts ?? []
        annotations = facts?.annotationCount ?? 0
        fields = facts?.fieldCount ?? 0
        figures = facts?.figureCount ?? 0
        figuresWithoutAlt = facts?.figuresWithoutAlt ?? 0
        error = nil
    }
}

/// What an audit found in one document.
public struct DocumentAudit: Codable, Equatable, Sendable {
    public var path: String
    /// Why it could not be audited (it did not open); the rest is empty then.
    public var error: String?
    public var tagged = false
    /// The catalog's /Lang (nil: none).
    public var language: String?
    public var encrypted = false
    public var repairedXref = false
    public var claimedPageCount = 0
    public var pageCount = 0
    public var screen: AuditScreen
    public var budgetMilliseconds: Double
    /// The pages audited (all, or a sample), in order.
    public var pages: [PageAudit] = []
    /// How long the audit took, in milliseconds.
    public var auditMilliseconds = 0.0

    public init(path: String, screen: AuditScreen, budgetMilliseconds: Double) {
        self.path = path
        self.screen = screen
        self.budgetMilliseconds = budgetMilliseconds
    }

    /// Pages (from 1) over the budget.
    public var slowPages: [Int] { pages.filter(\.isSlow).map(\.page) }
    /// Pages (from 1) without text.
    public var pagesWithoutText: [Int] { pages.filter { !$0.hasText && $0.error == nil }.map(\.page) }
    public var figuresWithoutAlt: Int { pages.reduce(0) { $0 + $1.figuresWithoutAlt } }
    /// Every substituted font, once, in the order met.
    public var substitutedFonts: [String] {
        var seen: Set<String> = []
        return pages.flatMap(\.substitutedFonts).filter { seen.insert($0).inserted }
    }
    /// The smallest text of the document on the screen, in millimetres (nil: no text).
    public var smallestTextMillimetres: Double? { pages.compactMap(\.smallestTextMillimetres).min() }
}
