import PropertyBased
import Synchronization
import Testing

@testable import LecternCore

/// After a size change the viewport's centre and width are kept, checked at the new size
/// itself (a fresh capture there), not only after coming back, and without the cache of
/// the state captured before a run of resizes.
@Suite("Resizing keeps the viewport's centre and width")
struct ResizeTests {
    /// What `view` shows, in `page`'s displayed frame (points, y down, /Rotate applied).
    func shown(_ view: DocumentView, onPage page: Int) -> Rect {
        view.pages[page].pageToDisplay.apply(to: view.convert(view.viewBounds, from: .view, to: .page(page)))
    }

    /// Compares what `b` shows with what `a` shows, both in `page`'s displayed frame.
    func expectSameCentreAndWidth(
        _ a: DocumentView, _ b: DocumentView, page: Int, tolerance: Double = 1e-6,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = shown(a, onPage: page)
        let after = shown(b, onPage: page)
        #expect(
            before.center.distance(to: after.center) < tolerance, "centre \(before.center) → \(after.center)",
            sourceLocation: sourceLocation)
        #expect(
            abs(before.width - after.width) < tolerance, "width \(before.width) → \(after.width)",
            sourceLocation: sourceLocation)
        // The height follows the new aspect ratio: a narrower screen shows more of it.
        let expectedHeight = after.width * b.viewportSize.height / b.viewportSize.width
        #expect(
            abs(after.height - expectedHeight) < tolerance, "height \(after.height), expected \(expectedHeight)",
            sourceLocation: sourceLocation)
    }

    static let pages = [
        page(612, 792), page(612, 792, rotation: 90), page(792, 612), page(612, 792, rotation: 270),
        try! PageGeometry(
            mediaBox: Rect(x: -50, y: 30, width: 700, height: 900),
            cropBox: Rect(x: 20, y: 100, width: 560, height: 700), rotation: 180),
        page(612, 792),
    ]

    static let configurations: [ViewConfiguration] = [
        ViewConfiguration(spacing: 10),
        ViewConfiguration(spreadMode: .double, scrollDirection: .horizontal, spacing: 10),
        ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal, spacing: 20),
        ViewConfiguration(spreadMode: .cover, scrollMode: .perSpread, scrollDirection: .vertical),
    ]

    @Test(arguments: 0..<6, 0..<4)
    func theStateAtTheNewSizeKeepsCentreAndWidth(pageIndex: Int, configIndex: Int) throws {
        let config = Self.configurations[configIndex]
        let a = Size(width: 1200, height: 800)
        var v = DocumentView(pages: PageTable(Self.pages), configuration: config, viewportSize: a)
        try v.goToPage(pageIndex)
        // Zoom in far enough that nothing clamps at either size, about the page's middle.
        let middle = v.convert(v.pages[pageIndex].cropBox.center, from: .page(pageIndex), to: .view)
        v.zoom(to: 5, about: middle)
        let original = v
        let state = v.viewState()
        #expect(state.pageIndex == pageIndex && state.viewport != nil)

        // Rotate the screen: the width is kept, so more height shows.
        v.setViewportSize(a.transposed)
        expectSameCentreAndWidth(original, v, page: pageIndex)
        #expect(shown(v, onPage: pageIndex).height > shown(original, onPage: pageIndex).height)
        #expect(v.viewState().pageIndex == pageIndex)

        // A wider screen shows less height.
        let wide = Size(width: 1500, height: 900)
        v.setViewportSize(wide)
        expectSameCentreAndWidth(original, v, page: pageIndex)
        #expect(shown(v, onPage: pageIndex).height < shown(original, onPage: pageIndex).height)

        // The same, restoring the state into views built at those sizes (no resize cache).
        for size in [a.transposed, wide] {
            var fresh = DocumentView(pages: PageTable(Self.pages), configuration: config, viewportSize: size)
            try fresh.restore(state)
            expectSameCentreAndWidth(original, fresh, page: pageIndex)
        }

        v.setViewportSize(a)
        for p in visiblePages(original) {
            #expect(cornerDistance(viewFrame(of: p, in: original), viewFrame(of: p, in: v)) < 1e-6)
        }
    }

    @Test(arguments: 0..<6, 0..<4)
    func rotatingAndRotatingBackWithoutTheCacheIsTheIdentity(pageIndex: Int, configIndex: Int) throws {
        let config = Self.configurations[configIndex]
        let a = Size(width: 1200, height: 800)
        var v = DocumentView(pages: PageTable(Self.pages), configuration: config, viewportSize: a)
        try v.goToPage(pageIndex)
        let middle = v.convert(v.pages[pageIndex].cropBox.center, from: .page(pageIndex), to: .view)
        v.zoom(to: 5, about: middle + Point(x: 37, y: -21))
        var atB = DocumentView(pages: PageTable(Self.pages), configuration: config, viewportSize: a.transposed)
        try atB.restore(v.viewState())
        var back = DocumentView(pages: PageTable(Self.pages), configuration: config, viewportSize: a)
        try back.restore(atB.viewState())
        #expect(visiblePages(back) == visiblePages(v))
        for p in visiblePages(v) {
            let d = cornerDistance(viewFrame(of: p, in: v), viewFrame(of: p, in: back))
            #expect(d <= 0.5, "page \(p) moved by \(d) px")
        }
    }

    /// Counts the property cases that reached the assertions, so that the test cannot pass
    /// by skipping them all.
    final class Tally: Sendable {
        let counts = Mutex((checked: 0, roundTrips: 0, total: 0))
    }

    @Test("at the new size the viewport keeps centre and width unless a bound clamps it; B → A without the cache")
    func resizeWithoutCacheProperty() async {
        let tally = Tally()
        await propertyCheck(
            count: 300, input: Generators.document(), Gen.double(in: 0...1), Gen.double(in: 1.5...7),
            zip(Gen.double(in: 0.25...0.75), Gen.double(in: 0.25...0.75)), Gen.int(in: 0...2)
        ) { doc, pageFraction, zoom, focal, shape in
            var a = doc.makeView()
            let page = min(doc.pages.count - 1, Int(pageFraction * Double(doc.pages.count)))
            try a.goToPage(page)
            a.zoom(to: zoom, about: Point(x: focal.0 * doc.viewport.width, y: focal.1 * doc.viewport.height))
            let state = a.viewState()
            let viewport = try #require(state.viewport)
            let sizeB: Size =
                switch shape {
                case 0: doc.viewport.transposed
                case 1: Size(width: doc.viewport.width * 1.5, height: doc.viewport.height)
                default: Size(width: doc.viewport.width, height: doc.viewport.height * 1.5)
                }
            var b = doc.makeView(viewport: sizeB)
            try b.restore(state)
            tally.counts.withLock { $0.total += 1 }
            guard !isClamped(b, page: state.pageIndex) else { return }
            tally.counts.withLock { $0.checked += 1 }
            // What B shows, in the captured page's displayed frame, against the viewport.
            let geometry = b.pages[state.pageIndex]
            let expected = geometry.pageToDisplay.apply(to: viewport)
            let got = shown(b, onPage: state.pageIndex)
            let tolerance = 1e-6 * max(1, abs(expected.midX), abs(expected.midY), expected.width)
            #expect(got.center.distance(to: expected.center) < tolerance, "centre \(expected) → \(got)")
            #expect(abs(got.width - expected.width) < tolerance, "width \(expected) → \(got)")
            #expect(abs(got.height - got.width * sizeB.height / sizeB.width) < tolerance)

            // Back to A from a fresh capture at B. When B's dominant page is another one, the
            // pixel spacing between spreads does not scale with the zoom, so only the same
            // page comes back exactly.
            let stateB = b.viewState()
            guard stateB.pageIndex == state.pageIndex else { return }
            tally.counts.withLock { $0.roundTrips += 1 }
            var back = doc.makeView()
            try back.restore(stateB)
            for p in visiblePages(a) {
                let d = cornerDistance(viewFrame(of: p, in: a), viewFrame(of: p, in: back))
                #expect(d <= 0.5, "page \(p) moved by \(d) px; \(state) → \(stateB)")
            }
        }
        let counts = tally.counts.withLock { $0 }
        #expect(counts.checked * 2 > counts.total, "most cases must reach the checks: \(counts)")
        #expect(counts.roundTrips * 3 > counts.total, "\(counts)")
    }

    /// Whether restoring into `view` had to clamp the zoom or the offset of `page`'s target.
    func isClamped(_ view: DocumentView, page: Int) -> Bool {
        let config = view.configuration
        let spread = view.spreads.spreadIndex(forPage: page)
        let scale: Double
        let offset: Point
        let bounds: OffsetBounds
        if view.layout.spreadBasedZooming {
            guard let zoom = view.spreadZooms[spread] else { return true }
            scale = zoom.scale
            offset = zoom.offset
            bounds = view.spreadOffsetBounds(spread: spread, scale: scale)
        } else {
            scale = view.zoomScale
            offset = view.contentOffset
            bounds = view.documentOffsetBounds()
        }
        let margin = 1e-6
        func inside(_ x: Double, _ lo: Double, _ hi: Double) -> Bool {
            x > lo + margin * max(1, abs(lo)) && x < hi - margin * max(1, abs(hi))
        }
        return
            !(inside(scale, config.minimumZoomScale, config.maximumZoomScale)
            && inside(offset.x, bounds.lower.x, bounds.upper.x) && inside(offset.y, bounds.lower.y, bounds.upper.y))
    }
}
