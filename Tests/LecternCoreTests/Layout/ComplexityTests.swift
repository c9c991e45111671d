import Synchronization
import Testing

@testable import LecternCore

/// Nothing the renderer or the input path calls per frame may look at every spread: a
/// layout that counts the calls made to it shows that each such call asks about a handful
/// of spreads, for 300,000 pages as for 10.
@Suite("Per-frame work does not grow with the page count")
struct ComplexityTests {
    final class Calls: Sendable {
        let count = Mutex(0)
        func reset() { count.withLock { $0 = 0 } }
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// Forwards to a real layout and counts every per-spread question.
    struct CountingLayout: DocumentViewLayout {
        var inner: any DocumentViewLayout
        let calls: Calls

        var scrollAxis: Axis { inner.scrollAxis }
        var isPagingEnabled: Bool { inner.isPagingEnabled }
        var spreadBasedZooming: Bool { inner.spreadBasedZooming }
        var scrollViewFrameInsets: EdgeInsets { inner.scrollViewFrameInsets }
        var spreads: Spreads { inner.spreads }
        var contentSize: Size { inner.contentSize }
        mutating func prepare(_ context: LayoutContext) { inner.prepare(context) }
        mutating func invalidateSpreads(_ changed: [Int], context: LayoutContext) {
            inner.invalidateSpreads(changed, context: context)
        }
        func frame(forSpread spread: Int) -> Rect {
            calls.add()
            return inner.frame(forSpread: spread)
        }
        func zoomCell(forSpread spread: Int) -> Rect {
            calls.add()
            return inner.zoomCell(forSpread: spread)
        }
        func visibleSpreads(in rect: Rect) -> [Int] {
            calls.add()
            let result = inner.visibleSpreads(in: rect)
            for _ in result { calls.add() }
            return result
        }
        func continuousSpreadIndex(forContentOffset offset: Point) -> Double {
            calls.add()
            return inner.continuousSpreadIndex(forContentOffset: offset)
        }
        func contentOffset(forContinuousSpreadIndex index: Double) -> Point {
            calls.add()
            return inner.contentOffset(forContinuousSpreadIndex: index)
        }
    }

    @Test(arguments: [ViewConfiguration.ScrollMode.continuous, .perSpread], [SpreadMode.single, .cover])
    func perFrameCallsAreBounded(scrollMode: ViewConfiguration.ScrollMode, spreadMode: SpreadMode) throws {
        let calls = Calls()
        let config = ViewConfiguration(
            spreadMode: spreadMode, scrollMode: scrollMode, scrollDirection: .horizontal, spacing: 10)
        var v = DocumentView(
            pages: PageTable(count: 300_000, estimate: page(612, 792)), configuration: config,
            viewportSize: Size(width: 1920, height: 1080))
        v.setCustomLayout(CountingLayout(inner: config.derivedLayout(), calls: calls))
        try v.goToPage(150_001)
        let clock = ManualClock()
        var budgets: [String: Int] = [:]
        func measure(_ name: String, _ body: (inout DocumentView) throws -> Void) throws {
            calls.reset()
            try body(&v)
            budgets[name] = calls.value
        }
        try measure("visibleLayout") { #expect(!$0.visibleLayout().isEmpty) }
        try measure("dominantPage") { #expect($0.dominantPage() == 150_001) }
        try measure("currentSpread") { _ = $0.currentSpread }
        try measure("zoom") { $0.zoom(to: 3, about: Point(x: 500, y: 500)) }
        try measure("viewState") { #expect($0.viewState().viewport != nil) }
        try measure("restore") { try $0.restore($0.viewState()) }
        try measure("pinch") {
            $0.beginPinch(focal: Point(x: 900, y: 500))
            $0.pinch(scale: 1.2, focal: Point(x: 910, y: 505))
            $0.endPinch()
        }
        try measure("drag") {
            $0.beginDrag()
            $0.drag(translation: Point(x: -40, y: 0))
            $0.endDrag(velocity: Point(x: -2500, y: 0), at: clock.now)
        }
        try measure("animation frame") {
            clock.advance(by: 1.0 / 60)
            $0.advanceAnimations(clock: clock)
        }
        try measure("page turn") {
            $0.showNextSpread(at: clock.now)
            clock.advance(by: 0.1)
            $0.advanceAnimations(clock: clock)
        }
        try measure("convert") { _ = $0.convert(Point(x: 1, y: 2), from: .view, to: .page(150_003)) }
        try measure("refine") { try $0.updatePageGeometry(page(842, 595), forPage: 150_000) }
        for (name, count) in budgets {
            #expect(count < 100, "\(name) asked the layout \(count) questions")
        }
    }
}
