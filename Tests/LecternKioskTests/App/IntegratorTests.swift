import Foundation
import LecternCore
import LecternKiosk
import LecternTestSupport
import Logging
import Synchronization
import Testing

/// An integrator changes what gestures do without touching Lectern's code: `KioskApp`
/// runs in this process against the test compositor, which sends it real `wl_touch` events,
/// and the integrator's conditions, callbacks and recognizers are set through
/// `configureInteractions`. Checked by what they record and by the pixels.
@Suite("Integrator hooks through the test compositor")
struct IntegratorTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// The reader on colors-8pages.pdf with `configure` as its integrator hook.
    func running(_ configure: @escaping (InteractionController) -> Void) throws -> KioskHarness {
        try KioskHarness([Self.colors]) { $0.configureInteractions = configure }
    }

    @Test("the policy adds each of its rules once: the conditions on every component, counted")
    func policyConditionsCounted() throws {
        let counts = Mutex<[String: Int]>([:])
        let lectern = try running { controller in
            // The integrator's hook runs after the policy's conditions are in place.
            let components = [
                controller.selectAnnotation, controller.deselectAnnotation, controller.transformAnnotation,
                controller.editAnnotation, controller.openLinkAnnotation, controller.selectText,
                controller.deselectText, controller.fastScroll, controller.smartZoom,
                controller.toggleUserInterface,
            ]
            counts.withLock { table in
                for component in components { table[component.name] = component.activationConditionCount }
            }
        }
        #expect(lectern.settle())
        // One "is this component enabled" rule each; the annotation rules (kinds, authors,
        // locks) add one more to select, transform and edit.
        let expected = [
            "selectAnnotation": 2, "deselectAnnotation": 1, "transformAnnotation": 2, "editAnnotation": 2,
            "openLinkAnnotation": 1, "selectText": 1, "deselectText": 1, "fastScroll": 1, "smartZoom": 1,
            "toggleUserInterface": 1,
        ]
        #expect(counts.withLock { $0 } == expected)
        try lectern.stop()
    }

    @Test("an activation condition returning false blocks its component, and its callbacks do not run")
    func conditionBlocksComponent() throws {
        let log = Mutex<[String]>([])
        let lectern = try running { controller in
            controller.fastScroll.addActivationCondition { context, _, _ in
                log.withLock { $0.append("condition: to spread \(context.targetSpread)") }
                return false
            }
            controller.fastScroll.addActivationCondition { _, _, _ in
                log.withLock { $0.append("second condition") }
                return true
            }
            controller.fastScroll.addActivationCallback { _, _, _ in log.withLock { $0.append("callback") } }
        }
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 1)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 1, "the page did not turn")
        let seen = log.withLock { $0 }
        #expect(seen.first == "condition: to spread 1", "the condition was asked: \(seen)")
        #expect(!seen.contains("second condition"), "evaluation stops at the first false: \(seen)")
        #expect(!seen.contains("callback"), "the callbacks did not run: \(seen)")
        try lectern.stop()
    }

    @Test("activation callbacks run just before the action")
    func callbacksRunBeforeAction() throws {
        let log = Mutex<[String]>([])
        let lectern = try running { controller in
            controller.fastScroll.addActivationCallback { context, point, space in
                log.withLock { $0.append("callback: spread \(context.targetSpread) at \(point.x) in \(space)") }
            }
        }
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 2, "the page turned")
        #expect(log.withLock { $0 } == ["callback: spread 1 at 1240.0 in view"])
        try lectern.stop()
    }

    @Test("a custom recognizer that requires fastScroll to fail fires only when fastScroll failed")
    func customRecognizerRequiresFastScrollToFail() throws {
        let fired = Mutex<[Double]>([])
        let lectern = try running { controller in
            let custom = TapGestureRecognizer(name: "integrator tap")
            custom.require(toFail: controller.fastScroll)
            custom.addAction { recognizer in
                if recognizer.state == .ended { fired.withLock { $0.append(recognizer.location.x) } }
            }
            controller.addGestureRecognizer(custom)
        }
        #expect(lectern.settle())
        // In the edge zone fastScroll recognizes: the page turns, the custom tap does not fire.
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 2)
        #expect(fired.withLock { $0 }.isEmpty, "fastScroll succeeded, so the custom tap failed")
        // In the middle fastScroll fails: the custom tap fires, the page stays.
        lectern.tap(x: 640, y: 360)
        #expect(lectern.settle())
        #expect(fired.withLock { $0 } == [640], "the custom tap fired once fastScroll failed")
        #expect(lectern.page(atX: 640, y: 200) == 2)
        try lectern.stop()
    }

    @Test("after a while without input the reader goes back to the start page")
    func idleReset() throws {
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "1"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        // The page turn starts at the lift and eases out over 0.25 s: the countdown runs from
        // its last frame.
        let lift = lectern.clock.now
        #expect(lectern.status.isAnimating)
        while lectern.status.isAnimating && lectern.clock.now < lift + 1 {
            lectern.clock.advance(by: KioskHarness.frame)
            lectern.turn()
        }
        let turnEnded = lectern.clock.now
        #expect(turnEnded >= lift + DocumentView.pageTurnDuration)
        #expect(lectern.waitForPage(2))
        let deadline = try #require(lectern.status.idleResetDeadline)
        #expect(abs(deadline - (turnEnded + 1)) < 1e-9, "the countdown runs from the page turn's last frame")
        lectern.advance(by: deadline - lectern.clock.now - 0.05)
        #expect(lectern.dominantPage == 2, "still on page 2 just before 1 s without input")
        lectern.advance(by: 0.1)
        #expect(lectern.dominantPage == 1, "back to page 1 after 1 s without input")
        #expect(lectern.page(atX: 640, y: 200) == 1)
        try lectern.stop()
    }
}
