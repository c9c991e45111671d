import Testing

@testable import LecternCore

/// Issue 32: `restore(_:animated:at:)` moves to a view state over time and lands where
/// `restore(_:)` does.
@Suite("Animated view-state restore")
struct AnimatedRestoreTests {
    static let configurations: [ViewConfiguration] = [
        ViewConfiguration(scrollMode: .continuous, scrollDirection: .vertical),
        ViewConfiguration(spreadMode: .double, scrollMode: .perSpread, scrollDirection: .horizontal),
        ViewConfiguration(scrollMode: .perSpread, scrollDirection: .horizontal, pageTransition: .curl),
    ]

    static func view(_ configuration: ViewConfiguration) -> DocumentView {
        DocumentView(
            pages: PageTable(count: 12, estimate: page(612, 792)), configuration: configuration,
            viewportSize: Size(width: 1280, height: 720))
    }

    @Test("lands where an immediate restore does, moving in between", arguments: configurations)
    func landsWhereRestoreDoes(configuration: ViewConfiguration) throws {
        // The states: page 7 zoomed into its upper half, then page 7's own spread zoomed elsewhere.
        let states = [
            ViewState(pageIndex: 7, viewport: Rect(x: 100, y: 400, width: 300, height: 200)),
            ViewState(pageIndex: 6, viewport: Rect(x: 50, y: 100, width: 200, height: 150)),
            ViewState(pageIndex: 2),
        ]
        var animated = Self.view(configuration)
        var immediate = Self.view(configuration)
        var now = 10.0
        for state in states {
            try immediate.restore(state)
            let before = animated.visibleLayout().map(\.frame)
            try animated.restore(state, animated: true, at: now)
            #expect(animated.isAnimating, "\(state)")
            animated.advanceAnimations(to: now + DocumentView.restoreDuration / 2)
            let halfway = animated.visibleLayout().map(\.frame)
            #expect(halfway != before && halfway != immediate.visibleLayout().map(\.frame), "moving: \(state)")
            now += 1
            let stillRunning = animated.advanceAnimations(to: now)
            #expect(!stillRunning)
            #expect(animated.viewState().pageIndex == immediate.viewState().pageIndex, "\(state)")
            let a = animated.visibleLayout().map(\.frame)
            let b = immediate.visibleLayout().map(\.frame)
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) {
                #expect(abs(x.minX - y.minX) < 1e-6 && abs(x.minY - y.minY) < 1e-6 && abs(x.width - y.width) < 1e-6)
            }
        }
    }

    @Test("not animated, it is restore(_:)")
    func notAnimated() throws {
        var v = Self.view(Self.configurations[0])
        try v.restore(
            ViewState(pageIndex: 4, viewport: Rect(x: 0, y: 0, width: 306, height: 396)), animated: false, at: 0)
        #expect(!v.isAnimating)
        #expect(v.viewState().pageIndex == 4)
    }
}
