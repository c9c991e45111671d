import Foundation
import LecternCore
import LecternKiosk
import LecternTestSupport
import Logging
import Synchronization
import Testing

/// An integrator changes what gestures do without touching Lectern's code: `KioskApp`
/// runs in this process (its own thread and Wayland connection), the test compositor sends
/// it real `wl_touch` events, and the integrator's conditions, callbacks and recognizers are
/// set through `configureInteractions`. Checked by what they record and by the pixels.
@Suite("Integrator hooks through the test compositor", .serialized)
struct IntegratorTests {
    /// Lectern on its own thread, against a test compositor driven by this one.
    final class Running: @unchecked Sendable {
        // Sendable: `app` is used from the test thread only through `stop()`, which is thread-safe.
        let compositor: TestCompositor
        let app: KioskApp
        let finished = Mutex<Int32?>(nil)

        init(configure: @escaping (InteractionController) -> Void) throws {
            compositor = try TestCompositor(outputWidth: 1280, outputHeight: 720)
            var configuration = KioskConfiguration(documentPath: LecternHarness.fixture("colors-8pages.pdf"))
            configuration.displayName = compositor.runtimeDirectory.path + "/" + compositor.socketName
            app = KioskApp(
                configuration: configuration,
                logger: Logger(label: "lectern-in-test") { _ in
                    SwiftLogNoOpLogHandler()
                })
            app.configureInteractions = configure
            let thread = Thread { [self] in
                let status = app.run()
                finished.withLock { $0 = status }
            }
            thread.start()
        }

        /// The page of colors-8pages.pdf in the middle of the last frame.
        var pageOnScreen: Int? {
            compositor.commits.last.flatMap { LecternHarness.page(ofColor: $0.pixel(x: 640, y: 200)) }
        }

        func settle() -> Bool {
            guard compositor.wait(timeout: .seconds(15), until: { pageOnScreen != nil }) else { return false }
            while true {
                let count = compositor.commitCount
                if !compositor.wait(timeout: .milliseconds(500), until: { compositor.commitCount != count }) {
                    return true
                }
            }
        }

        func tap(x: Double, y: Double) {
            compositor.touchDown(id: 0, x: x, y: y)
            _ = compositor.wait(timeout: .milliseconds(40)) { false }
            compositor.touchUp(id: 0)
            _ = compositor.wait(timeout: .milliseconds(16)) { false }
        }

        func stop() throws -> Int32? {
            app.stop()
            _ = compositor.wait(timeout: .seconds(10)) { finished.withLock { $0 != nil } }
            try compositor.teardown()
            return finished.withLock { $0 }
        }
    }

    @Test("an activation condition returning false blocks its component, and its callbacks do not run")
    func conditionBlocksComponent() throws {
        let log = Mutex<[String]>([])
        let lectern = try Running { controller in
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
        #expect(lectern.pageOnScreen == 1)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.pageOnScreen == 1, "the page did not turn")
        let seen = log.withLock { $0 }
        #expect(seen.first == "condition: to spread 1", "the condition was asked: \(seen)")
        #expect(!seen.contains("second condition"), "evaluation stops at the first false: \(seen)")
        #expect(!seen.contains("callback"), "the callbacks did not run: \(seen)")
        #expect(try lectern.stop() == 0)
    }

    @Test("activation callbacks run just before the action")
    func callbacksRunBeforeAction() throws {
        let log = Mutex<[String]>([])
        let lectern = try Running { controller in
            controller.fastScroll.addActivationCallback { context, point, space in
                log.withLock { $0.append("callback: spread \(context.targetSpread) at \(point.x) in \(space)") }
            }
        }
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.pageOnScreen == 2, "the page turned")
        #expect(log.withLock { $0 } == ["callback: spread 1 at 1240.0 in view"])
        #expect(try lectern.stop() == 0)
    }

    @Test("a custom recognizer that requires fastScroll to fail fires only when fastScroll failed")
    func customRecognizerRequiresFastScrollToFail() throws {
        let fired = Mutex<[Double]>([])
        let lectern = try Running { controller in
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
        #expect(lectern.pageOnScreen == 2)
        #expect(fired.withLock { $0 }.isEmpty, "fastScroll succeeded, so the custom tap failed")
        // In the middle fastScroll fails: the custom tap fires, the page stays.
        lectern.tap(x: 640, y: 360)
        #expect(lectern.settle())
        #expect(fired.withLock { $0 } == [640], "the custom tap fired once fastScroll failed")
        #expect(lectern.pageOnScreen == 2)
        #expect(try lectern.stop() == 0)
    }

    @Test("after a while without input the reader goes back to the start page")
    func idleReset() throws {
        let lectern = try LecternHarness([LecternHarness.fixture("colors-8pages.pdf"), "--idle-reset", "1"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        #expect(lectern.waitForPage(1, timeout: .seconds(5)), "back to page 1 after 1 s without input")
        #expect(lectern.process.errorOutput.contains("no input for 1 s: back to page 1"))
        #expect(try lectern.stop() == 0)
    }
}
