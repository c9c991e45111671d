import Testing

@testable import LecternCore

/// Issue 32: keys and the wheel on the pages are interaction components, with conditions and
/// callbacks like the gesture ones.
@Suite("Keys and the wheel as components")
struct KeyWheelComponentTests {
    @Test("a condition on keyCommand sees the key and can refuse it; disabled, no key acts")
    func keyCommandConditions() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        var seen: [Key] = []
        controller.keyCommand.addActivationCondition { context, _, _ in context.key != .end }
        controller.keyCommand.addActivationCallback { context, _, _ in seen.append(context.key) }
        controller.key(.end, at: 0)
        #expect(host.documentView.currentSpread == 0, "End refused")
        controller.key(.right, at: 0.1)
        #expect(host.documentView.destinationSpread == 1, "the arrow allowed")
        #expect(seen == [.right], "the callback ran for the key that acted")
        host.settle(from: 0.1)
        controller.keyCommand.isEnabled = false
        controller.key(.right, at: 2)
        #expect(!host.documentView.isAnimating && host.documentView.currentSpread == 1)
    }

    @Test("a condition on wheelScroll refuses the wheel; the point is where the pointer is")
    func wheelScrollConditions() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        var allow = false
        var points: [Point] = []
        controller.wheelScroll.addActivationCondition { _, point, _ in
            points.append(point)
            return allow
        }
        controller.handle(InputEvent(.pointerEnter(location: Point(x: 120, y: 80)), time: 0))
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 10), at: 0.1)
        #expect(!host.documentView.isAnimating && host.documentView.currentSpread == 0, "refused")
        allow = true
        controller.wheel(steps: Point(x: 0, y: 1), delta: Point(x: 0, y: 10), at: 0.2)
        #expect(host.documentView.destinationSpread == 1, "a detent turns the page per spread")
        #expect(points == [Point(x: 120, y: 80), Point(x: 120, y: 80)])
    }

    @Test("a chrome component asks isEnabled and its conditions, runs its callbacks, and lets the app act")
    func chromeComponentGate() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        var called: [String] = []
        controller.thumbnail.addActivationCondition { context, _, _ in context.page != 3 }
        controller.thumbnail.addActivationCallback { context, _, _ in called.append("page \(context.page ?? -1)") }
        let point = Point(x: 100, y: 200)
        #expect(
            controller.thumbnail.activate(ChromeInteractionContext(control: "thumbnailBar", page: 2), atView: point))
        #expect(
            !controller.thumbnail.activate(ChromeInteractionContext(control: "thumbnailBar", page: 3), atView: point))
        controller.thumbnail.isEnabled = false
        #expect(
            !controller.thumbnail.activate(ChromeInteractionContext(control: "thumbnailGrid", page: 2), atView: point))
        #expect(called == ["page 2"])
        #expect(!controller.thumbnail.canActivate(at: point, in: .view), "no precondition of its own to ask at a point")
    }
}
