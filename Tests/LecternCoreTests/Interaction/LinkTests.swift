import Testing

@testable import LecternCore

/// openLinkAnnotation: a tap on a link follows it, before fast scroll and the chrome toggle.
@Suite("Links")
struct LinkTests {
    /// Page 0 (shown 300 × 300 at x 50 in a 400 × 300 cell, 3 px per point) has a link to page
    /// 2 in its middle and one to a web address over its right edge zone.
    func host() -> (TestHost, InteractionController) {
        let host = TestHost.paged()
        host.isUserInterfaceVisible = false
        host.links[0] = [
            (Rect(x: 40, y: 40, width: 20, height: 20), .page(2)),
            (Rect(x: 90, y: 40, width: 10, height: 20), .uri("https://example.org")),
        ]
        return (host, InteractionController(host: host))
    }

    @Test func aTapOnALinkFollowsIt() {
        let (host, controller) = host()
        // Page point (50, 50) is view (50 + 150, 300 − 150) = (200, 150).
        controller.tap(200, 150, at: 1)
        #expect(host.followed == [.page(2)])
        #expect(host.documentView.dominantPage() == 2)
        controller.tick(now: 2)
        #expect(!host.isUserInterfaceVisible, "the tap was the link's, not the chrome's")
    }

    @Test func aLinkInTheEdgeZoneWinsOverFastScroll() {
        let (host, controller) = host()
        // Page point (95, 50) is view (335, 150): inside the right edge zone (x > 320).
        controller.tap(335, 150, at: 1)
        #expect(host.followed == [.uri("https://example.org")])
        #expect(host.documentView.destinationSpread == 0, "no page turn")
    }

    @Test func awayFromLinksTheOtherComponentsAct() {
        let (host, controller) = host()
        controller.tap(390, 150, at: 1)  // right edge zone, no link: fast scroll
        #expect(host.followed.isEmpty)
        #expect(host.documentView.destinationSpread == 1)
    }

    @Test func aFalseConditionOnOpenLinkLetsTheTapThrough() {
        let (host, controller) = host()
        var asked = 0
        controller.openLinkAnnotation.addActivationCondition { context, point, space in
            asked += 1
            #expect(context.page == 0 && context.target == .page(2) && space == .page(0), "the link is in the context")
            #expect(abs(point.x - 50) < 0.5 && abs(point.y - 50) < 0.5, "the condition sees page space: \(point)")
            return false
        }
        controller.tap(200, 150, at: 1)
        controller.tick(now: 2)
        #expect(asked == 1)
        #expect(host.followed.isEmpty)
        #expect(host.isUserInterfaceVisible, "the single tap fell through to the chrome toggle")
    }
}
