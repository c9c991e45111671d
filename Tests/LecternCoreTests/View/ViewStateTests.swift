import Foundation
import Testing

@testable import LecternCore

@Suite("View state")
struct ViewStateTests {
    /// Six US-letter pages, some rotated, in a landscape viewport.
    func view(
        _ config: ViewConfiguration = ViewConfiguration(spacing: 10), size: Size = Size(width: 1200, height: 800)
    ) -> DocumentView {
        DocumentView(
            pages: PageTable([
                page(612, 792), page(612, 792, rotation: 90), page(792, 612), page(612, 792),
                page(612, 792, rotation: 180), page(612, 792),
            ]),
            configuration: config, viewportSize: size)
    }

    @Test func notZoomedInMeansNoViewport() throws {
        var v = view()
        try v.goToPage(2)
        #expect(v.viewState() == ViewState(pageIndex: 2))
    }

    @Test func theDominantPageIsTheMostVisibleOne() throws {
        var v = view()
        try v.goToPage(0)
        // Scroll so page 0's bottom fifth and most of page 1 (landscape, 1200 × 926) show.
        let page0Height = 1200.0 * 792 / 612
        v.scroll(by: Point(x: 0, y: page0Height - 100))
        #expect(v.dominantPage() == 1)
        v.scroll(by: Point(x: 0, y: -500))
        #expect(v.dominantPage() == 0)
    }

    @Test func zoomedInStateHasAViewportInPageCoordinates() throws {
        var v = view()
        try v.goToPage(0)
        v.zoom(to: 2, about: .zero)
        let state = v.viewState()
        let viewport = try #require(state.viewport)
        // Zoom 2 at the top-left: the viewport is the top-left 1200/2400 of the page width.
        #expect(state.pageIndex == 0)
        #expect(abs(viewport.width - 306) < 1e-9 && abs(viewport.height - 204) < 1e-9)
        #expect(abs(viewport.minX) < 1e-9 && abs(viewport.maxY - 792) < 1e-9, "PDF space: y up, top edge at 792")
    }

    @Test func viewportHonoursRotation() throws {
        var v = view()
        try v.goToPage(1)  // 612 × 792 rotated 90°: displayed 792 × 612
        v.zoom(to: 2, about: v.convert(Point(x: 0, y: 0), from: .page(1), to: .view))
        let state = v.viewState()
        let viewport = try #require(state.viewport)
        // The displayed width (792 → 1200 px) is the page's PDF height: zoom 2 shows 396 of it.
        #expect(state.pageIndex == 1)
        #expect(abs(viewport.height - 396) < 1e-9, "display width maps to PDF height under /Rotate 90")
        var other = view()
        try other.restore(state)
        #expect(abs(other.zoomScale - 2) < 1e-9)
        #expect(cornerDistance(viewFrame(of: 1, in: other), viewFrame(of: 1, in: v)) < 0.5)
    }

    @Test func viewportMayExtendPastThePage() throws {
        var v = view(ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal))
        try v.goToPage(0)
        v.zoom(to: 1.2, about: Point(x: 600, y: 400))
        let viewport = try #require(v.viewState().viewport)
        #expect(viewport.minX < 0 && viewport.maxX > 612, "the letterboxed margins are part of the viewport")
        var other = view(ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal))
        try other.restore(v.viewState())
        #expect(abs(other.currentZoomScale - 1.2) < 1e-9)
    }

    @Test func restoringWithoutViewportEqualsGoingToThePage() throws {
        var a = view()
        var b = view()
        a.zoom(to: 3, about: Point(x: 500, y: 500))
        try a.restore(ViewState(pageIndex: 4))
        try b.goToPage(4)
        #expect(a.contentOffset == b.contentOffset && a.zoomScale == b.zoomScale)
        #expect(throws: DocumentViewError.pageOutOfRange(page: 6, pageCount: 6)) {
            try a.restore(ViewState(pageIndex: 6))
        }
        #expect(throws: DocumentViewError.self) { try a.restore(ViewState(pageIndex: 0, viewport: .zero)) }
    }

    @Test func resizeKeepsTheViewportCentreAndWidth() throws {
        var v = view()
        try v.goToPage(3)
        v.zoom(to: 3, about: Point(x: 600, y: 400))
        let before = try #require(v.viewState().viewport)
        v.setViewportSize(Size(width: 800, height: 1200))  // rotate the screen
        let after = try #require(v.viewState().viewport)
        #expect(abs(after.midX - before.midX) < 1e-6 && abs(after.midY - before.midY) < 1e-6, "same centre")
        #expect(abs(after.width - before.width) < 1e-6, "same width")
        #expect(after.height > before.height, "a narrower screen shows more height")
        v.setViewportSize(Size(width: 1200, height: 800))
        let back = try #require(v.viewState().viewport)
        #expect(cornerDistance(back, before) < 1e-6, "rotating and rotating back is a no-op")
    }

    @Test func resizeWithoutZoomKeepsTheScrollPosition() throws {
        var v = view()
        try v.goToPage(2)
        v.scroll(by: Point(x: 0, y: 123))
        let index = v.layout.continuousSpreadIndex(forContentOffset: v.contentOffset)
        v.setViewportSize(Size(width: 700, height: 1000))
        #expect(close(v.layout.continuousSpreadIndex(forContentOffset: v.contentOffset), index, 1e-9))
    }

    @Test func userInputBetweenResizesStartsAFreshCapture() throws {
        var v = view()
        try v.goToPage(3)
        v.zoom(to: 3, about: Point(x: 600, y: 400))
        v.setViewportSize(Size(width: 800, height: 1200))
        v.scroll(by: Point(x: 0, y: 200))
        let moved = try #require(v.viewState().viewport)
        v.setViewportSize(Size(width: 1200, height: 800))
        let after = try #require(v.viewState().viewport)
        #expect(abs(after.midY - moved.midY) < 1e-6, "the scroll after the first resize is kept")
    }

    @Test func mirrorStateIsAspectFit() throws {
        let portrait = page(612, 792)
        let state = ViewState(pageIndex: 0, viewport: Rect(x: 100, y: 100, width: 200, height: 200))
        let wider = state.aspectFitMirrorState(page: portrait, mirrorAspectRatio: 2)
        #expect(wider.viewport == Rect(x: 0, y: 100, width: 400, height: 200), "width grows about the centre")
        #expect(
            state.aspectFitMirrorState(page: portrait, mirrorAspectRatio: 0.5) == state,
            "a taller mirror already shows more")

        // On a page rotated 90°, the displayed width is the PDF height.
        let rotated = page(612, 792, rotation: 90)
        let turned = state.aspectFitMirrorState(page: rotated, mirrorAspectRatio: 2)
        #expect(turned.viewport == Rect(x: 100, y: 0, width: 200, height: 400))
        #expect(
            ViewState(pageIndex: 3).aspectFitMirrorState(page: portrait, mirrorAspectRatio: 2)
                == ViewState(pageIndex: 3))

        // Restored on a mirror of the other aspect ratio, everything the presenter sees shows.
        var presenter = view(size: Size(width: 800, height: 1200))
        try presenter.goToPage(0)
        presenter.zoom(to: 3, about: Point(x: 400, y: 600))
        let shown = try #require(presenter.viewState().viewport)
        var mirror = view(size: Size(width: 1600, height: 900))
        try mirror.restore(mirror.aspectFitMirrorState(presenter.viewState(), mirrorViewportSize: mirror.viewportSize))
        let mirrored = try #require(mirror.viewState().viewport)
        #expect(mirrored.minX <= shown.minX + 1e-6 && mirrored.maxX >= shown.maxX - 1e-6)
        #expect(mirrored.minY <= shown.minY + 1e-6 && mirrored.maxY >= shown.maxY - 1e-6)
        #expect(abs(mirrored.height - shown.height) < 1e-6, "fit: no more than needed")
    }

    @Test func pageCurlKeepsOnlyThePage() throws {
        var v = view(ViewConfiguration(pageTransition: .curl))
        try v.goToPage(3)
        v.zoom(to: 2, about: Point(x: 600, y: 400))
        #expect(v.viewState() == ViewState(pageIndex: 3))
    }

    @Test func viewStateIsCodable() throws {
        let state = ViewState(pageIndex: 7, viewport: Rect(x: -10.5, y: 20, width: 300.25, height: 100))
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(ViewState.self, from: data) == state)
        let bare = try JSONDecoder().decode(ViewState.self, from: Data(#"{"pageIndex":2}"#.utf8))
        #expect(bare == ViewState(pageIndex: 2))
    }

    @Test func configurationChangeKeepsThePlace() throws {
        var v = view()
        try v.goToPage(4)
        var config = v.configuration
        config.spreadMode = .cover
        config.scrollMode = .perSpread
        config.scrollDirection = .horizontal
        v.setConfiguration(config)
        #expect(v.currentSpread == 2 && v.visibleLayout().flatMap { $0.pages.map(\.page) } == [3, 4])
    }

    @Test func coordinateSpacesRoundTrip() throws {
        var v = view(
            ViewConfiguration(
                spreadMode: .double, pageBinding: .rightEdge, scrollMode: .perSpread, scrollDirection: .horizontal))
        try v.goToPage(3)
        v.zoom(to: 2.5, about: Point(x: 300, y: 300))
        let p = Point(x: 123, y: 456)
        let spaces: [CoordinateSpace] = [.view, .content, .spread(1), .page(3), .page(2)]
        for a in spaces {
            for b in spaces {
                let there = v.convert(p, from: a, to: b)
                #expect(v.convert(there, from: b, to: a).distance(to: p) < 1e-6, "\(a) ↔ \(b)")
            }
        }
        // Under right-edge binding page 3 is the left page of spread 1.
        #expect(
            v.convert(Point(x: 0, y: 0), from: .page(3), to: .spread(1)).x
                < v.convert(Point(x: 0, y: 0), from: .page(2), to: .spread(1)).x)
        // The page-space origin is the bottom-left corner of page 3's displayed frame.
        let frame = v.visibleLayout().flatMap(\.pages).first { $0.page == 3 }!.frame
        #expect(
            v.convert(Point(x: 0, y: 0), from: .page(3), to: .view).distance(to: Point(x: frame.minX, y: frame.maxY))
                < 1e-9)
    }
}

@Suite("Page-curl view state")
struct PageCurlTests {
    func view(
        _ transition: ViewConfiguration.PageTransition, size: Size = Size(width: 1200, height: 800)
    )
        -> DocumentView
    {
        DocumentView(
            pages: PageTable((0..<6).map { _ in page(612, 792) }),
            configuration: ViewConfiguration(spreadMode: .double, pageTransition: transition), viewportSize: size)
    }

    @Test func restoringAViewportInCurlModeGoesToThePage() throws {
        var scrolled = view(.scroll)
        try scrolled.goToPage(3)
        scrolled.zoom(to: 3, about: Point(x: 500, y: 300))
        let state = scrolled.viewState()
        #expect(state.viewport != nil)
        var curl = view(.curl)
        try curl.restore(state)
        var reference = view(.curl)
        try reference.goToPage(state.pageIndex)
        #expect(curl.currentZoomScale == 1 && curl.contentOffset == reference.contentOffset)
        #expect(curl.viewState() == ViewState(pageIndex: state.pageIndex))
    }

    @Test func switchingToCurlAndResizingKeepOnlyThePage() throws {
        var v = view(.scroll)
        try v.goToPage(3)
        v.zoom(to: 3, about: Point(x: 900, y: 300))
        let page = v.viewState().pageIndex
        var config = v.configuration
        config.pageTransition = .curl
        v.setConfiguration(config)
        #expect(v.viewState() == ViewState(pageIndex: page) && v.currentZoomScale == 1)
        v.zoom(to: 2, about: Point(x: 600, y: 400))
        v.setViewportSize(Size(width: 800, height: 1200))
        #expect(v.viewState() == ViewState(pageIndex: page) && v.currentZoomScale == 1, "a resize keeps the page only")
        #expect(v.layout.isPagingEnabled && v.layout.scrollAxis == .horizontal, "curl pages horizontally")
    }
}
