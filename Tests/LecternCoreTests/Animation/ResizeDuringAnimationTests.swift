import Testing

@testable import LecternCore

/// A resize during an animation lands where the animation was going, at the new size (a
/// page turn tapped just before a rotation is not lost half-way), on the manual clock.
@Suite("Resizing during an animation")
struct ResizeDuringAnimationTests {
    /// colors-8pages.pdf as the kiosk shows it: 8 pages of 420 × 595, 12-px margins.
    static func colors(_ spreadMode: SpreadMode, scrollMode: ViewConfiguration.ScrollMode = .perSpread) -> DocumentView
    {
        DocumentView(
            pages: PageTable((0..<8).map { _ in page(420, 595) }),
            configuration: ViewConfiguration(
                spreadMode: spreadMode, pageBinding: .leftEdge, scrollMode: scrollMode, scrollDirection: .horizontal,
                spacing: 12, contentInsets: EdgeInsets(all: 12)),
            viewportSize: Size(width: 1280, height: 720))
    }

    @Test(arguments: [0.0, 0.01, 0.1, 0.2])
    func aPageTurnLandsOnItsSpreadAtTheNewSize(elapsed: Double) throws {
        let clock = ManualClock(start: 100)
        var view = Self.colors(.double)
        try view.goToPage(4)  // pages 5–6
        try view.goToPage(6, animated: true, at: clock.now)  // a tap: on to pages 7–8
        clock.advance(by: elapsed)
        view.advanceAnimations(clock: clock)
        #expect(view.isAnimating, "the turn is under way")

        let full = Size(width: 1920, height: 1080)
        view.setViewportSize(full)
        #expect(!view.isAnimating)
        #expect(view.viewState() == ViewState(pageIndex: 6), "page 7, not a page in between")
        #expect(view.visibleLayout().map(\.spread) == [3])
        #expect(view.visibleLayout().first?.pages.map(\.page) == [6, 7])
        var fresh = DocumentView(pages: view.pages, configuration: view.configuration, viewportSize: full)
        try fresh.goToPage(6)
        #expect(view.contentOffset == fresh.contentOffset, "where pages 7–8 rest at 1920 × 1080")

        view.setViewportSize(Size(width: 1280, height: 720))
        #expect(view.viewState() == ViewState(pageIndex: 6), "and back again")
        #expect(view.contentOffset == view.restingOffset(forSpread: 3))
    }

    /// Animations of every kind, started on `view` at time 0.
    static let animations: [(name: String, start: @Sendable (inout DocumentView) throws -> Void)] = [
        ("page turn", { try $0.goToPage(5, animated: true, at: 0) }),
        ("page turn back", { try $0.goToPage(0, animated: true, at: 0) }),
        ("zoom to a rect", { $0.zoom(toRect: Rect(x: 600, y: 100, width: 300, height: 200), animated: true, at: 0) }),
        (
            "snap after a drag",
            {
                $0.beginDrag()
                $0.drag(translation: Point(x: -500, y: 0))
                $0.endDrag(velocity: .zero, at: 0)
            }
        ),
    ]

    @Test(arguments: 0..<4, [SpreadMode.single, .double])
    func resizingMidwayIsFinishingThenResizing(animation: Int, spreadMode: SpreadMode) throws {
        for scrollMode in ViewConfiguration.ScrollMode.allCases {
            var view = Self.colors(spreadMode, scrollMode: scrollMode)
            try view.goToPage(2)
            try Self.animations[animation].start(&view)
            let (name, size) = (Self.animations[animation].name, Size(width: 900, height: 1400))
            guard view.isAnimating else {
                // A drag within a continuous strip rests where it is let go.
                #expect(name == "snap after a drag" && scrollMode == .continuous, "\(name), \(scrollMode)")
                continue
            }
            var finished = view
            finished.advanceAnimations(to: 1000)
            finished.setViewportSize(size)
            view.advanceAnimations(to: 0.1)
            view.setViewportSize(size)
            let label = "\(name), \(spreadMode), \(scrollMode)"
            #expect(view.viewState() == finished.viewState(), "\(label)")
            #expect(view.contentOffset == finished.contentOffset, "\(label)")
            #expect(view.zoomScale == finished.zoomScale && view.spreadZooms == finished.spreadZooms, "\(label)")
        }
    }
}
