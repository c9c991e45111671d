import Testing

@testable import LecternCore

/// Issue 32: what an integrator supplies: a spreading of their own, a layout made from a
/// built-in one, the paging frame's insets, and no bounce.
@Suite("An integrator's layouts and spreads")
struct CustomizationTests {
    /// A fold-out: the cover alone, then the pages three by three, side by side.
    struct FoldOut: SpreadingStrategy {
        func spreadCount(pageCount: Int) -> Int { pageCount == 0 ? 0 : 1 + (pageCount - 1 + 2) / 3 }
        func spreadIndex(forPage page: Int, pageCount: Int) -> Int { page == 0 ? 0 : 1 + (page - 1) / 3 }
        func pageRange(forSpread spread: Int, pageCount: Int) -> Range<Int> {
            spread == 0 ? 0..<1 : (1 + 3 * (spread - 1))..<min(1 + 3 * spread, pageCount)
        }
        var typicalPagesPerSpread: Int { 3 }
    }

    /// Two pages of a spread one above the other.
    struct Stacked: SpreadingStrategy {
        func spreadCount(pageCount: Int) -> Int { SpreadMode.double.spreadCount(pageCount: pageCount) }
        func spreadIndex(forPage page: Int, pageCount: Int) -> Int { page / 2 }
        func pageRange(forSpread spread: Int, pageCount: Int) -> Range<Int> {
            SpreadMode.double.pageRange(forSpread: spread, pageCount: pageCount)
        }
        var typicalPagesPerSpread: Int { 2 }
        func frames(ofPagesSized sizes: [Size]) -> [Rect] {
            var y = 0.0
            return sizes.map { size in
                defer { y += size.height }
                return Rect(x: 0, y: y, width: size.width, height: size.height)
            }
        }
    }

    static let letter = try! PageGeometry(size: Size(width: 612, height: 792))

    func view(_ configuration: ViewConfiguration, pages: Int = 10) -> DocumentView {
        DocumentView(
            pages: PageTable(count: pages, estimate: Self.letter), configuration: configuration,
            viewportSize: Size(width: 1200, height: 800))
    }

    @Test("a custom spreading groups the pages as told, and the two conversions agree")
    func customSpreadingGroupsPages() throws {
        let configuration = ViewConfiguration(
            scrollMode: .continuous, customization: ViewCustomization(name: "fold-out", spreading: FoldOut()))
        var v = view(configuration)
        #expect(v.layout.spreadCount == 4)
        #expect((0..<4).map { v.spreads.pageRange(forSpread: $0) } == [0..<1, 1..<4, 4..<7, 7..<10])
        for page in 0..<10 {
            #expect(v.spreads.pageRange(forSpread: v.spreads.spreadIndex(forPage: page)).contains(page))
            #expect(v.layout.spreadIndex(forPage: page) == v.spreads.spreadIndex(forPage: page))
        }
        // A spread of three pages is three pages wide, and every page of it is on screen.
        try v.goToPage(5)
        let shown = v.visibleLayout().first { $0.spread == 2 }
        #expect(shown?.pages.map(\.page) == [4, 5, 6])
        let size = v.spreads.size(ofSpread: 2, pages: v.pages)
        #expect(abs(size.width - 3 * 612) < 1e-9 && abs(size.height - 792) < 1e-9)
        // A configuration change keeps it: only the scroll mode changed.
        var paged = configuration
        paged.scrollMode = .perSpread
        v.setConfiguration(paged)
        #expect(v.layout.spreadCount == 4)
        #expect(v.dominantPage() == 5)
    }

    @Test("a custom spreading places its pages where it says: one above the other")
    func customPageFrames() {
        let v = view(
            ViewConfiguration(
                scrollDirection: .horizontal, customization: ViewCustomization(name: "stacked", spreading: Stacked())))
        let geometry = v.spreads.geometry(ofSpread: 1, pages: v.pages)
        #expect(geometry.slots.map(\.page) == [2, 3])
        #expect(
            geometry.slots.map(\.frame) == [
                Rect(x: 0, y: 0, width: 612, height: 792), Rect(x: 0, y: 792, width: 612, height: 792),
            ])
        #expect(geometry.size == Size(width: 612, height: 1584))
        #expect(v.spreads.size(ofSpread: 1, pages: v.pages) == geometry.size)
        // In view space too: page 3 sits under page 2, the same width.
        let frames = v.visibleLayout().first { $0.spread == 0 }!.pages.map(\.frame)
        #expect(frames.count == 2)
        #expect(abs(frames[0].maxY - frames[1].minY) < 1e-6 && abs(frames[0].width - frames[1].width) < 1e-6)
    }

    /// Continuous, with every spread moved 40 px to the right: only `frame` changes.
    struct Indented: LayoutDecorator {
        var base = ContinuousScrollingLayout(axis: .vertical, interitemSpacing: 8)
        func frame(forSpread spread: Int) -> Rect { base.frame(forSpread: spread).offsetBy(Point(x: 40, y: 0)) }
    }

    @Test("a layout made from a built-in one changes what it implements and forwards the rest")
    func decoratedLayout() throws {
        let plain = view(ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical, spacing: 8))
        let indented = view(
            ViewConfiguration(
                scrollMode: .continuous, scrollDirection: .vertical, spacing: 8,
                customization: ViewCustomization(name: "indented", layout: { _ in Indented() })))
        #expect(indented.layout is Indented)
        for spread in [0, 3, 9] {
            #expect(
                indented.layout.frame(forSpread: spread)
                    == plain.layout.frame(forSpread: spread).offsetBy(Point(x: 40, y: 0)))
        }
        #expect(indented.layout.contentSize == plain.layout.contentSize)
        #expect(indented.layout.scrollAxis == .vertical && !indented.layout.isPagingEnabled)
    }

    @Test("the paging frame's insets set the gap between spreads", arguments: [0.0, 30, 100])
    func pagingInsetsMoveSpreads(gap: Double) {
        var layout = ScrollPerSpreadLayout(axis: .horizontal, spacing: 20)
        layout.pagingFrameInsets = EdgeInsets(left: -gap / 2, right: -gap / 2)
        let context = LayoutContext(
            viewportSize: Size(width: 1000, height: 700), spreads: Spreads(pageCount: 5, mode: .single),
            pages: PageTable(count: 5, estimate: Self.letter))
        layout.prepare(context)
        #expect(layout.scrollViewFrameInsets.total(along: .horizontal) == -gap)
        for spread in 0..<5 {
            #expect(layout.cell(forSpread: spread).minX == Double(spread) * (1000 + gap))
            #expect(layout.contentOffset(forContinuousSpreadIndex: Double(spread)).x == Double(spread) * (1000 + gap))
        }
        #expect(layout.contentSize.width == 5 * 1000 + 4 * gap)
        // Without insets of its own the gap is the spacing.
        layout.pagingFrameInsets = nil
        layout.prepare(context)
        #expect(layout.cell(forSpread: 1).minX == 1020)
    }

    @Test("content insets move the spreads by the given amounts")
    func contentInsetsMoveSpreads() {
        let plain = view(ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical, spacing: 8))
        let inset = view(
            ViewConfiguration(
                scrollMode: .continuous, scrollDirection: .vertical, spacing: 8,
                contentInsets: EdgeInsets(top: 30, left: 50, bottom: 0, right: 50)))
        let a = plain.layout.frame(forSpread: 0)
        let b = inset.layout.frame(forSpread: 0)
        #expect(b.minX == 50 && b.minY == 30 && b.width == a.width - 100)
    }

    @Test("without bounce a drag past the edge stops there; with it, the page follows with resistance")
    func bounceConfigurable() {
        for bounces in [true, false] {
            var v = view(ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical, bounces: bounces))
            v.beginDrag()
            v.drag(translation: Point(x: 0, y: 300))
            #expect((v.contentOffset.y < 0) == bounces, "bounces: \(bounces), offset \(v.contentOffset.y)")
            v.endDrag(velocity: .zero, at: 0)
        }
    }
}
