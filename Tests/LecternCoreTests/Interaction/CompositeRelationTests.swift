import Testing

@testable import LecternCore

/// Issue 32: relations set on a composite reach every member, with an integrator's own
/// recognizer; failure requirements decided when the gesture happens.
@Suite("Composite relations and dynamic failure requirements")
struct CompositeRelationTests {
    @Test("allInteractions waits for a custom recognizer to fail: recognized, no component acts")
    func compositeRequiresCustomToFail() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        let custom = TapGestureRecognizer(name: "custom")
        var customWants = true
        custom.shouldBegin = { _ in customWants }
        controller.allInteractions.require(toFail: custom)
        controller.addGestureRecognizer(custom)
        #expect(controller.fastScroll.gestureRecognizers.allSatisfy { $0.requiredToFail.contains { $0 === custom } })
        #expect(controller.toggleUserInterface.gestureRecognizers[0].requiredToFail.contains { $0 === custom })
        // The custom tap takes the edge tap: no page turn; later, no chrome toggled.
        let chrome = host.isUserInterfaceVisible
        controller.tap(390, 150, at: 0)
        controller.tick(now: 1)
        #expect(custom.state == .ended && !host.documentView.isAnimating && host.isUserInterfaceVisible == chrome)
        // It declines: fast scroll turns the page.
        customWants = false
        controller.tap(390, 150, at: 2)
        #expect(custom.state == .failed && host.documentView.destinationSpread == 1)
    }

    @Test("a custom recognizer simultaneous with allInteractions fires with fast scroll; without, one of them does")
    func compositeSimultaneousWithCustom() {
        for simultaneous in [false, true] {
            let host = TestHost.paged()
            let controller = InteractionController(host: host)
            let custom = TapGestureRecognizer(name: "custom")
            var fired = 0
            custom.addAction { _ in fired += 1 }
            if simultaneous { controller.allInteractions.allowSimultaneousRecognition(with: custom) }
            controller.addGestureRecognizer(custom)
            controller.tap(390, 150, at: 0)
            let turned = host.documentView.destinationSpread == 1
            if simultaneous {
                #expect(turned && fired == 1, "both: turned \(turned), custom fired \(fired)")
            } else {
                #expect(turned != (fired == 1), "one of them: turned \(turned), custom fired \(fired)")
            }
        }
    }

    @Test("a failure requirement decided when the tap lands: fast scroll waits for the custom tap only while told to")
    func dynamicFailureRequirement() {
        let host = TestHost.paged()
        let controller = InteractionController(host: host)
        let custom = TapGestureRecognizer(name: "custom")
        var fired = 0
        custom.addAction { _ in fired += 1 }
        var waitsForCustom = true
        controller.fastScroll.requireFailure { $0 === custom && waitsForCustom }
        controller.addGestureRecognizer(custom)
        #expect(
            !controller.fastScroll.gestureRecognizers[0].requiredToFail.contains { $0 === custom },
            "nothing fixed in advance")
        controller.tap(390, 150, at: 0)
        #expect(fired == 1 && !host.documentView.isAnimating, "fast scroll waited, and the custom tap won")
        waitsForCustom = false
        controller.tap(390, 150, at: 2)
        #expect(host.documentView.destinationSpread == 1, "no longer waiting: fast scroll turns")
        #expect(fired == 1, "and the custom tap, added after it, was excluded")
    }
}
