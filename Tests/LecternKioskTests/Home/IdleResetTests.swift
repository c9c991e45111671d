import Foundation
import LecternCore
import LecternTestSupport
import Testing

/// The idle reset waits while the visitor holds a finger or a button down, or the page still
/// moves, and counts from when that ends (issue 11). `KioskApp` in process, on the manual
/// clock.
@Suite("Idle reset while held", .serialized)
struct IdleResetTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// The x of page `page` (1-based) on the scrubber's track at 1280 px wide (x 32...1248,
    /// page 1 to 8), and the track's y.
    func scrubberX(page: Int) -> Double { 32 + 1216 * Double(page - 1) / 7 }
    let scrubberY = 688.0

    @Test("a finger held still on the page scrubber for longer than the idle time: no reset until it lifts")
    func fingerHeldOnScrubber() throws {
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "2"])
        #expect(lectern.settle())
        // A single tap in the middle shows the chrome (once the double-tap window closed).
        lectern.tap(x: 640, y: 200)
        lectern.advance(by: 0.4)
        #expect(lectern.status.isUserInterfaceVisible)
        #expect(lectern.page(atX: 640, y: Int(scrubberY)) == nil, "the scrubber's bar covers the page's foot")
        let c = lectern.compositor
        c.touchDown(id: 0, x: scrubberX(page: 5), y: scrubberY)
        #expect(lectern.waitForPage(5), "view state: \(lectern.viewState ?? "none")")
        // Held still for 3.5 s, longer than the 2-s idle time.
        lectern.advance(by: 3.5)
        #expect(lectern.status.isInteracting)
        #expect(lectern.dominantPage == 5, "no reset while the finger is down")
        #expect(lectern.page(atX: 640, y: 200) == 5)
        // The finger moves on: the scrubber still follows it.
        c.touchMotion(id: 0, x: scrubberX(page: 7), y: scrubberY)
        #expect(lectern.waitForPage(7), "the held finger still scrubs: \(lectern.viewState ?? "none")")
        c.touchUp(id: 0)
        lectern.turn()
        let lift = lectern.clock.now
        #expect(!lectern.status.isInteracting)
        #expect(lectern.status.idleResetDeadline == lift + 2, "the countdown starts at the lift")
        lectern.advance(by: 1.95)
        #expect(lectern.dominantPage == 7)
        #expect(lectern.page(atX: 640, y: 200) == 7)
        lectern.advance(by: 0.1)
        #expect(lectern.dominantPage == 1, "two seconds after the lift, back to page 1")
        #expect(lectern.page(atX: 640, y: 200) == 1)
        try lectern.stop()
    }

    @Test("a mouse button held on the page for longer than the idle time: no reset until it is released")
    func buttonHeldOnPage() throws {
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "2"])
        #expect(lectern.settle())
        let c = lectern.compositor
        c.pointerEnter(x: 640, y: 200)
        c.pointerFrame()
        lectern.click(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
        c.pointerMotion(x: 640, y: 200)
        c.pointerFrame()
        c.pointerButton(LecternHarness.leftButton, pressed: true)
        c.pointerFrame()
        lectern.advance(by: 3.5)
        #expect(lectern.status.isInteracting)
        #expect(lectern.dominantPage == 2, "no reset while the button is down")
        #expect(lectern.page(atX: 640, y: 200) == 2)
        c.pointerButton(LecternHarness.leftButton, pressed: false)
        c.pointerFrame()
        lectern.turn()
        #expect(lectern.status.idleResetDeadline == lectern.clock.now + 2, "the countdown starts at the release")
        lectern.advance(by: 2.05)
        #expect(lectern.dominantPage == 1)
        #expect(lectern.page(atX: 640, y: 200) == 1)
        try lectern.stop()
    }

    @Test("a fling that outlasts the idle time is not cut short; the countdown starts when it stops")
    func flingOutlastsIdleTime() throws {
        let lectern = try KioskHarness(
            [Self.colors, "--scroll", "continuous", "--direction", "vertical", "--idle-reset", "1"], width: 600,
            height: 1200)
        #expect(lectern.settle())
        // A quick flick up: 400 px in 80 ms, 5000 px/s, slowing down for over two seconds.
        lectern.drag(from: (300, 900), to: (300, 500), steps: 4, interval: .milliseconds(20))
        let lift = lectern.clock.now
        #expect(lectern.status.isAnimating, "a fling")
        var stopped = lift
        while lectern.status.isAnimating && lectern.clock.now < lift + 10 {
            lectern.clock.advance(by: KioskHarness.frame)
            lectern.turn()
            stopped = lectern.clock.now
        }
        // An idle reset stops the fling where it is: this one ran its course.
        #expect(stopped > lift + 1.5, "the fling ran longer than the 1-s idle time: \(stopped - lift) s")
        let deadline = try #require(lectern.status.idleResetDeadline)
        #expect(abs(deadline - (stopped + 1)) < 1e-9, "the countdown runs from the fling's last frame")
        lectern.advance(by: 0.9)
        let page = try #require(lectern.dominantPage)
        #expect(page > 1, "the fling carried the reader on: \(lectern.viewState ?? "none")")
        lectern.advance(by: 0.2)
        #expect(lectern.dominantPage == 1)
        try lectern.stop()
    }

    @Test("a tap 1.5 s into a 2-s idle time starts it over: no reset at 2.5 s, a reset 2 s after the tap")
    func inputPostponesTheReset() throws {
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "2", "--page", "3"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(4))
        let first = try #require(lectern.status.idleResetDeadline)
        // 1.5 s into the countdown, a tap in the middle (it only shows the chrome).
        lectern.advance(by: first - 0.5 - lectern.clock.now)
        lectern.tap(x: 640, y: 200)
        let tap = lectern.clock.now
        let second = try #require(lectern.status.idleResetDeadline)
        #expect(abs(second - (tap + 2)) < 1e-9, "the countdown starts over at the tap")
        lectern.advance(by: first + 0.5 - lectern.clock.now)
        #expect(lectern.dominantPage == 4, "no reset when the first countdown would have run out")
        #expect(lectern.page(atX: 640, y: 200) == 4)
        lectern.advance(by: second + 0.05 - lectern.clock.now)
        #expect(lectern.dominantPage == 3, "2 s after the tap, back to the start page")
        #expect(lectern.page(atX: 640, y: 200) == 3)
        try lectern.stop()
    }
}

/// The idle reset's countdown notice (issue 14): shown the last seconds before the reset,
/// counting down, taken away by a touch; the reset when nobody touches.
@Suite("Idle countdown", .serialized)
struct IdleCountdownTests {
    @Test("the countdown shows 20 s before the reset, counts down, a touch cancels it, and untouched it resets")
    func countdown() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("colors-8pages.pdf"), "--idle-reset", "30"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        let bottom = DamageRect(x: 0, y: 680, width: 1280, height: 40)
        let quiet = try #require(lectern.lastCommit).darkFraction(in: bottom)
        let start = try #require(lectern.status.idleResetDeadline) - 30
        lectern.advance(by: start + 9.9 - lectern.clock.now)
        #expect(lectern.status.notice == nil, "no notice until 20 s before the reset")
        lectern.advance(by: 0.2)
        #expect(lectern.status.notice == "Returning to the start in 20 s — touch to stay")
        #expect(try #require(lectern.lastCommit).darkFraction(in: bottom) != quiet, "the notice is on screen")
        lectern.advance(by: 5)
        #expect(lectern.status.notice == "Returning to the start in 15 s — touch to stay", "it counts down")
        // A touch in the middle (a chrome toggle at most) takes it away and starts the wait over.
        lectern.tap(x: 640, y: 360)
        #expect(lectern.status.notice == nil, "a touch cancels the countdown")
        let restarted = try #require(lectern.status.idleResetDeadline) - 30
        lectern.advance(by: restarted + 9.5 - lectern.clock.now)
        #expect(lectern.dominantPage == 2, "no reset after the touch")
        #expect(lectern.status.notice == nil)
        lectern.advance(by: 1)
        #expect(lectern.status.notice?.hasPrefix("Returning to the start in") == true)
        lectern.advance(by: restarted + 30.5 - lectern.clock.now)
        #expect(lectern.dominantPage == 1, "untouched, the reset goes back to the start")
        #expect(lectern.page(atX: 500, y: 360) == 1)
        #expect(lectern.status.notice == nil, "and the notice goes with it")
        #expect(!lectern.status.isUserInterfaceVisible)
        try lectern.stop()
    }

    @Test("the touch that takes the countdown away does nothing else: an edge tap does not turn the page")
    func touchToStayOnlyStays() throws {
        let lectern = try KioskHarness([LecternHarness.fixture("colors-8pages.pdf"), "--idle-reset", "30"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline - 5 - lectern.clock.now)
        #expect(lectern.status.notice?.hasPrefix("Returning to the start in") == true)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(lectern.status.notice == nil, "the touch took the countdown away")
        #expect(lectern.dominantPage == 2, "and did not turn the page")
        #expect(lectern.page(atX: 500, y: 360) == 2)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(3), "the next tap acts again")
        try lectern.stop()
    }
}
