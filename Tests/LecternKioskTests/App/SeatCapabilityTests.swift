import Foundation
import LecternTestSupport
import Testing

/// The seat's capabilities change while Lectern runs (a touchscreen unplugged and plugged back).
@Suite("Seat capabilities at runtime")
struct SeatCapabilityTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")

    @Test(
        "losing touch mid-touch and getting it back keeps Lectern running, and a later tap works",
        arguments: LecternHarness.seatVersions)
    func touchRemovedMidTouch(seatVersion: Int32) throws {
        let lectern = try KioskHarness([colors], seatVersion: seatVersion)
        #expect(lectern.settle())
        let c = lectern.compositor
        #expect(c.touchResourceCount == 1)
        // A finger down and moving (a pan has begun), then the touchscreen goes.
        lectern.drag(from: (900, 360), to: (760, 360), steps: 4, release: false)
        c.setSeatCapabilities([.pointer])
        #expect(lectern.wait { c.touchResourceCount == 0 }, "Lectern releases its wl_touch")
        #expect(lectern.settle())
        #expect(!lectern.status.isStopping)
        #expect(lectern.dominantPage == 1, "the pan ended and the page settled back: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 640, y: 200) == 1)

        c.setSeatCapabilities([.touch, .pointer])
        #expect(lectern.wait { c.touchResourceCount == 1 }, "Lectern takes the new wl_touch")
        lectern.tap(x: 1240, y: 360, id: 0)
        #expect(lectern.waitForPage(2), "a tap after the touchscreen came back: \(lectern.viewState ?? "none")")
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 200) == 2)
        #expect(!lectern.status.isStopping)
        try lectern.stop()
    }

    @Test(
        "losing touch with a finger down (no motion yet) leaves no stuck touch", arguments: LecternHarness.seatVersions)
    func touchRemovedAfterDown(seatVersion: Int32) throws {
        let lectern = try KioskHarness([colors], seatVersion: seatVersion)
        #expect(lectern.settle())
        let c = lectern.compositor
        c.touchDown(id: 0, x: 1240, y: 360)
        lectern.pump(.milliseconds(40))
        c.setSeatCapabilities([.pointer])
        #expect(lectern.wait { c.touchResourceCount == 0 })
        lectern.pump(.milliseconds(500))
        #expect(lectern.settle())
        #expect(!lectern.status.isStopping)
        #expect(lectern.dominantPage == 1, "the cancelled touch is no tap: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 640, y: 200) == 1)
        c.setSeatCapabilities([.touch, .pointer])
        #expect(lectern.wait { c.touchResourceCount == 1 })
        // The same touch id again: Lectern must not think it is still down.
        lectern.tap(x: 1240, y: 360, id: 0)
        #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
        #expect(!lectern.status.isInteracting, "no stale touch point")
        try lectern.stop()
    }
}
