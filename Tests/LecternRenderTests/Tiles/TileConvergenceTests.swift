import LecternCore
import LecternPDF
import LecternRender
import Testing

/// The tile loop at rest, in every layout, zoom, screen size and cache budget: what the
/// screen shows is rendered once, stays cached, and matches MuPDF; nothing is asked for again.
///
/// Tiles arrive one at a time and the view is planned again after each, as the kiosk's frame
/// loop does: the order in which an undersized cache used to evict one visible tile to keep
/// another, and ask for it again, forever.
@Suite("Tiles at rest")
struct TileConvergenceTests {
    /// How the reader zoomed before the view came to rest.
    enum Zoom: String, CaseIterable, Sendable {
        case none
        /// A double tap on a text block: zoomed to fit the block.
        case smart
        /// A double tap where there is no text block (the gutter of a double spread): 2×
        /// about the finger.
        case fallback
        /// A pinch about a point off the centre, let go at a scale of no special value.
        case pinch
        /// `+` twice.
        case keys
    }

    /// Where the view rests.
    enum Position: String, Sendable {
        /// At the start page.
        case atPage
        /// Scrolled 0.6 screens on from it (continuous: a page boundary mid-screen).
        case between
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var spreads: SpreadMode
        var scroll: ViewConfiguration.ScrollMode
        var direction: Axis
        var zoom: Zoom = .none
        var position: Position = .atPage
        var width = 1280
        var height = 720
        /// The cache budget in MiB, or nil for the automatic one.
        var cacheMiB: Int? = nil
        /// Rotate the screen (swap width and height) after zooming, and back.
        var rotate = false

        var testDescription: String {
            "\(spreads) \(scroll) \(direction), zoom \(zoom.rawValue), \(position.rawValue), \(width)×\(height)"
                + (cacheMiB.map { ", \($0) MiB" } ?? "") + (rotate ? ", rotated and back" : "")
        }
    }

    static let document = Fixture.path("letter-6pages.pdf")

    /// Every layout, unzoomed, at rest on a page and between two pages.
    static let layouts: [Case] = [SpreadMode.single, .double, .cover].flatMap { spreads in
        [ViewConfiguration.ScrollMode.perSpread, .continuous].flatMap { scroll in
            [Axis.horizontal, .vertical].flatMap { direction in
                let atPage = Case(spreads: spreads, scroll: scroll, direction: direction)
                var between = atPage
                between.position = .between
                return scroll == .continuous ? [atPage, between] : [atPage]
            }
        }
    }

    /// Each way of zooming, on the layouts that show two pages at once.
    static let zooms: [Case] = Zoom.allCases.filter { $0 != .none }.flatMap { zoom in
        [
            Case(spreads: .double, scroll: .perSpread, direction: .horizontal, zoom: zoom),
            Case(spreads: .cover, scroll: .continuous, direction: .horizontal, zoom: zoom),
            Case(spreads: .single, scroll: .continuous, direction: .vertical, zoom: zoom, position: .between),
        ]
    }

    /// Other screens, rotations, and budgets from the smallest the command line accepts.
    static let otherScreens: [Case] =
        [(1280, 800), (1920, 1080)].flatMap { size in
            [
                Case(spreads: .double, scroll: .perSpread, direction: .horizontal, width: size.0, height: size.1),
                Case(
                    spreads: .single, scroll: .continuous, direction: .vertical, position: .between, width: size.0,
                    height: size.1),
            ]
        }
        + [
            Case(spreads: .double, scroll: .perSpread, direction: .horizontal, zoom: .fallback, rotate: true),
            Case(spreads: .single, scroll: .continuous, direction: .vertical, position: .between, rotate: true),
            Case(spreads: .cover, scroll: .continuous, direction: .horizontal, zoom: .keys, rotate: true),
        ]
        + [1, 2, 4, 8].flatMap { mib in
            [
                Case(spreads: .single, scroll: .perSpread, direction: .horizontal, cacheMiB: mib),
                Case(spreads: .double, scroll: .perSpread, direction: .horizontal, cacheMiB: mib),
                Case(
                    spreads: .single, scroll: .continuous, direction: .vertical, position: .between,
                    cacheMiB: mib),
                Case(spreads: .double, scroll: .perSpread, direction: .horizontal, zoom: .fallback, cacheMiB: mib),
            ]
        }

    @Test("every layout comes to rest: each visible tile rendered once, then nothing asked for", arguments: layouts)
    func layout(_ c: Case) throws { try check(c) }

    @Test("zoomed two-page views come to rest and match MuPDF", arguments: zooms)
    func zoomed(_ c: Case) throws { try check(c) }

    @Test("other screens, rotations and small budgets come to rest and match MuPDF", arguments: otherScreens)
    func screensAndBudgets(_ c: Case) throws { try check(c) }

    /// Brings the view of `c` to rest, then checks that the loop converged, stays converged,
    /// and shows every visible page as MuPDF draws it.
    func check(_ c: Case) throws {
        let document = try PDFDocument(path: Self.document)
        let configuration = ViewConfiguration(
            spreadMode: c.spreads, pageBinding: .leftEdge, scrollMode: c.scroll, scrollDirection: c.direction,
            spacing: 12, contentInsets: EdgeInsets(all: 12))
        let size = Size(width: Double(c.width), height: Double(c.height))
        var view = try documentView(of: document, configuration: configuration, viewport: size)
        try view.goToPage(2)
        if c.position == .between {
            let step = 0.6 * size.extent(along: c.direction)
            view.scroll(by: c.direction == .vertical ? Point(x: 0, y: step) : Point(x: step, y: 0))
        }
        try zoom(&view, c.zoom, document: document)
        var pipeline = Pipeline(
            document: document, view: view, budget: c.cacheMiB.map { .bytes($0 << 20) } ?? .automatic)
        try expectAtRest(&pipeline, c)
        if c.rotate {
            for rotated in [Size(width: size.height, height: size.width), size] {
                pipeline.resize(to: rotated)
                try expectAtRest(&pipeline, c)
            }
        }
    }

    func expectAtRest(_ pipeline: inout Pipeline, _ c: Case) throws {
        let settled = pipeline.settleOneAtATime()
        let renderedTwice = Dictionary(grouping: settled.renders, by: { $0 }).filter { $0.value.count > 1 }.keys
        #expect(renderedTwice.isEmpty, "\(c): rendered more than once: \(renderedTwice.prefix(4))")
        #expect(settled.plan.wanted.isEmpty, "\(c): still wanted after \(settled.renders.count) renders")
        #expect(settled.plan.isSharp, "\(c): not every visible page is sharp")
        // At rest: frame after frame, nothing is asked for and nothing leaves the cache.
        let cached = Set(pipeline.cache.keysByRecency)
        for frame in 1...3 {
            let plan = pipeline.plan()
            #expect(plan.wanted.isEmpty, "\(c): frame \(frame) at rest asks for \(plan.wanted.prefix(4))")
        }
        #expect(Set(pipeline.cache.keysByRecency) == cached, "\(c): the cache changed at rest")

        let visiblePages = pipeline.view.visibleLayout().flatMap(\.pages).map(\.page)
        let buffer = pipeline.compose(settled.plan)
        let pages = try pipeline.differences(buffer, threshold: 8)
        #expect(Set(pages.map(\.page)) == Set(visiblePages), "\(c): pages compared")
        for (page, box, difference) in pages {
            // Sharp tiles are MuPDF's renders copied 1:1 on whole pixels; only MuPDF's own
            // rounding per tile region differs (the compositing tests measure max 4). A white,
            // missing or misplaced page is off by more than 100 on its text.
            #expect(
                difference.max <= 8 && difference.mean < 0.2,
                "\(c): page \(page + 1) at \(box) differs from MuPDF: \(difference)")
        }
        let screen = pipeline.viewport
        #expect(inkPixels(buffer, screen) > 1_000, "\(c): the screen shows text, not blank paper")
    }

    /// Zooms the view as the reader's gesture `zoom` would.
    func zoom(_ view: inout DocumentView, _ zoom: Zoom, document: PDFDocument) throws {
        let centre = view.viewBounds.center
        switch zoom {
        case .none:
            return
        case .smart:
            let page = view.dominantPage()
            let block = try #require(try document.textBlocks(page: page).first, "page \(page + 1) has text")
            let rect = Rect(
                x: block.minX, y: block.minY, width: block.maxX - block.minX, height: block.maxY - block.minY)
            view.zoom(toRect: view.pageToContent(page: page).apply(to: rect).inset(by: EdgeInsets(all: -8)))
        case .fallback:
            view.zoom(to: 2, about: centre)
        case .pinch:
            let focal = Point(x: centre.x + 37, y: centre.y - 21)
            view.beginPinch(focal: focal)
            view.pinch(scale: 1.37, focal: Point(x: focal.x + 5, y: focal.y + 3))
            view.endPinch()
        case .keys:
            view.zoom(to: view.currentZoomScale * 1.5, about: centre)
            view.zoom(to: view.currentZoomScale * 1.5, about: centre)
        }
        #expect(view.currentZoomScale > 1.01, "zoomed in by \(zoom)")
    }
}
