import Testing

@testable import LecternCore

/// Issue 10: a page tree that claims more (or fewer) pages than it holds. Once the tree is
/// walked the real count wins, and the reader must not see the page on screen jump.
@Suite("The real page count replaces the claimed one")
struct PageCountTests {
    static let claimed = SparseLayoutTests.claimed
    static let viewport = SparseLayoutTests.viewport
    static let configurations = SparseLayoutTests.configurations

    /// Right-to-left horizontal layouts place spreads from the far end of the content, about
    /// 1e12 px away for 1.4 billion pages, where doubles round to 1e-4 px.
    static func tolerance(_ configuration: ViewConfiguration) -> Double {
        configuration.pageBinding == .rightEdge && configuration.scrollDirection == .horizontal ? 1e-3 : 1e-6
    }

    func view(_ configuration: ViewConfiguration, count: Int = claimed) -> DocumentView {
        DocumentView(
            pages: PageTable(count: count, estimate: page(612, 792)), configuration: configuration,
            viewportSize: Self.viewport)
    }

    @Test("the page on screen stays where it is when the count drops from 1.4 billion", arguments: configurations)
    func shrinkingKeepsThePageInPlace(configuration: ViewConfiguration) throws {
        var v = view(configuration)
        try v.goToPage(3)
        if configuration.scrollMode == .continuous { v.scroll(by: Point(x: 90, y: 90)) }
        let dominant = v.dominantPage()
        let frames = visiblePages(v).map { ($0, viewFrame(of: $0, in: v)) }
        v.setPageCount(8)
        #expect(v.pages.count == 8)
        #expect(v.layout.spreadCount == v.spreads.spreadCount)
        #expect(v.dominantPage() == dominant)
        for (p, frame) in frames where p < 8 {
            #expect(cornerDistance(viewFrame(of: p, in: v), frame) < Self.tolerance(configuration), "page \(p) moved")
        }
        // And the view is what a document of 8 pages shows there.
        var fresh = view(configuration, count: 8)
        try fresh.goToPage(3)
        if configuration.scrollMode == .continuous { fresh.scroll(by: Point(x: 90, y: 90)) }
        #expect(
            cornerDistance(viewFrame(of: dominant, in: fresh), viewFrame(of: dominant, in: v))
                < Self.tolerance(configuration))
        #expect(fresh.layout.contentSize == v.layout.contentSize)
    }

    @Test("the first page shown at open stays put", arguments: configurations)
    func theFirstPageStays(configuration: ViewConfiguration) throws {
        var v = view(configuration)
        let before = viewFrame(of: 0, in: v)
        let state = v.viewState()
        v.setPageCount(8)
        #expect(cornerDistance(viewFrame(of: 0, in: v), before) < Self.tolerance(configuration))
        #expect(v.viewState() == state)
        // A single page is shown as a one-page document shows it (centred, when the content
        // is smaller than the screen).
        v.setPageCount(1)
        let fresh = view(configuration, count: 1)
        #expect(cornerDistance(viewFrame(of: 0, in: v), viewFrame(of: 0, in: fresh)) < 1e-6)
        #expect(visiblePages(v) == [0])
    }

    @Test("a page past the real end gives way to the last page", arguments: configurations)
    func pastTheEndShowsTheLastPage(configuration: ViewConfiguration) throws {
        var v = view(configuration)
        try v.goToPage(100)
        v.setPageCount(8)
        #expect(v.dominantPage() == 7)
        var fresh = view(configuration, count: 8)
        try fresh.goToPage(7)
        #expect(v.contentOffset == fresh.contentOffset)
        #expect(cornerDistance(viewFrame(of: 7, in: fresh), viewFrame(of: 7, in: v)) < 1e-6)
    }

    @Test("more pages than claimed: the page on screen stays, the new ones follow", arguments: configurations)
    func growingKeepsThePageInPlace(configuration: ViewConfiguration) throws {
        var v = view(configuration, count: 4)
        try v.goToPage(2)
        let frame = viewFrame(of: 2, in: v)
        v.setPageCount(12)
        #expect(v.dominantPage() == 2)
        #expect(cornerDistance(viewFrame(of: 2, in: v), frame) < 1e-6)
        try v.goToPage(11)
        #expect(v.dominantPage() == 11)
    }

    @Test("zoomed in, the viewport stays on the same part of the page")
    func zoomedInKeepsTheViewport() throws {
        var v = view(ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical, spacing: 8))
        try v.goToPage(5)
        v.zoom(to: 3, about: Point(x: 400, y: 300))
        let state = v.viewState()
        v.setPageCount(10)
        let after = v.viewState()
        #expect(after.pageIndex == state.pageIndex)
        #expect(cornerDistance(try #require(after.viewport), try #require(state.viewport)) < 1e-6)
    }

    /// A page turn from `from` to `to`, `elapsed` seconds under way when the count becomes `count`.
    func turn(from: Int, to: Int, elapsed: Double, count: Int, clock: ManualClock) throws -> DocumentView {
        var v = view(ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal, spacing: 20))
        try v.goToPage(from)
        try v.goToPage(to, animated: true, at: clock.now)
        clock.advance(by: elapsed)
        v.advanceAnimations(clock: clock)
        v.setPageCount(count)
        return v
    }

    @Test("a page turn under way still ends on its page; one heading past the end stops")
    func pageTurnsInFlight() throws {
        let clock = ManualClock()
        var v = try turn(from: 4, to: 5, elapsed: 0.1, count: 8, clock: clock)
        clock.advance(by: 1)
        v.advanceAnimations(clock: clock)
        #expect(!v.isAnimating)
        #expect(v.viewState() == ViewState(pageIndex: 5))

        let w = try turn(from: 6, to: 40, elapsed: 0.01, count: 8, clock: clock)
        #expect(!w.isAnimating)
        #expect(w.dominantPage() < 8)
        #expect(w.documentOffsetBounds().contains(w.contentOffset))
    }

    @Test("a drag in progress carries on")
    func aDragCarriesOn() throws {
        var v = view(ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical, spacing: 8))
        try v.goToPage(3)
        v.beginDrag()
        v.drag(translation: Point(x: 0, y: -100))
        let before = viewFrame(of: 3, in: v)
        v.setPageCount(6)
        v.drag(translation: Point(x: 0, y: -110))
        #expect(abs(viewFrame(of: 3, in: v).minY - (before.minY - 10)) < 1e-6, "the page follows the finger")
        v.endDrag(velocity: .zero, at: 0)
    }

    @Test("the page table forgets pages past the end and estimates new ones")
    func pageTableCount() throws {
        var table = PageTable(count: Self.claimed, estimate: page(612, 792))
        try table.setGeometry(page(792, 612), forPage: 2)
        try table.setGeometry(page(100, 100), forPage: 1_000_000_000)
        table.setCount(5)
        #expect(table.count == 5)
        #expect(table.recordedPages == [2])
        table.setCount(9)
        #expect(table[8] == table.estimate && !table.isKnown(8))
        #expect(table[2].displaySize == Size(width: 792, height: 612))

        var all = PageTable([page(100, 100), page(200, 100), page(100, 100)])
        all.setCount(4)
        #expect(all.isKnown(2) && !all.isKnown(3))
        #expect(all.knownPages == [1])
    }
}
