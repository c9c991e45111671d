import Foundation
import LecternCore
import LecternTestSupport
import Testing

/// The attract loop (issue 14, part 4): after the idle reset and a further wait, pages turn by
/// themselves, each for its /Dur (else the interval), coming on with its /Trans; a touch stops
/// it and goes home without acting. presentation-8pages.pdf (make-presentation-fixture): page 2
/// /Dur 2 with a 1-s fade, page 3 no /Dur with a 0.5-s push from the right, page 4 /Dur 1.5
/// with a glitter (a cut here). On the manual clock, by pixels.
@Suite("Attract loop", .serialized)
struct AttractLoopTests {
    static let presentation = LecternHarness.fixture("presentation-8pages.pdf")

    /// The red channel of the pixel at (x, y) of the last commit.
    func red(_ lectern: KioskHarness, x: Int, y: Int) -> Int {
        Int((lectern.lastCommit?.pixel(x: x, y: y) ?? 0) >> 16 & 0xFF)
    }

    /// Moves the clock frame by frame until the loop's next page comes; returns the frames
    /// committed meanwhile (none: nothing is drawn while a page just shows).
    func waitForAdvance(_ lectern: KioskHarness) throws -> Int {
        let deadline = try #require(lectern.status.attractDeadline)
        let frames = lectern.status.framesCommitted
        lectern.advanceWithoutSettling(by: deadline - lectern.clock.now - 0.01)
        let quiet = lectern.status.framesCommitted - frames
        lectern.advanceWithoutSettling(by: 0.02)
        return quiet
    }

    /// A policy on the presentation fixture: the idle reset after 4 s (no countdown), the loop
    /// `after` seconds later, a page every `interval` seconds unless it says otherwise.
    static func policy(after: Int, interval: Int) throws -> PolicyTests.PolicyDirectory {
        try PolicyTests.PolicyDirectory(
            """
            document = "\(Self.presentation)"
            [idle]
            reset = 4
            countdown = 0
            [attract]
            after = \(after)
            interval = \(interval)
            transition = "none"
            """)
    }

    @Test(
        "the attract loop: after the idle reset and 5 s more, pages turn by /Dur (else the interval) with their /Trans; a touch stops it and goes home without turning the page"
    )
    func advancesByDurationAndStopsOnTouch() throws {
        let policy = try Self.policy(after: 5, interval: 3)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        // The idle reset (page 1), then 5 s of nothing drawn.
        lectern.advance(by: 4.1)
        #expect(lectern.dominantPage == 1 && lectern.page(atX: 640, y: 200) == 1)
        #expect(!lectern.status.isAttractRunning)
        let start = try #require(lectern.status.attractDeadline)
        #expect(try waitForAdvance(lectern) == 0, "no frames while waiting")
        let began = lectern.clock.now
        #expect(lectern.status.isAttractRunning)

        // Page 2 fades in (its /Trans, 1 s): halfway, the screen is between red and blue.
        #expect(lectern.wait { lectern.status.transitionProgress != nil })
        lectern.advanceWithoutSettling(by: 0.5)
        let progress = try #require(lectern.status.transitionProgress)
        #expect(abs(progress - 0.5) < 0.1)
        let halfway = red(lectern, x: 640, y: 200)
        #expect(abs(halfway - (0xE5 + 0x1E) / 2) < 30, "a fade: red \(halfway) between page 1's and page 2's")
        #expect(lectern.settle())
        #expect(lectern.status.transitionProgress == nil)
        #expect(lectern.dominantPage == 2 && lectern.page(atX: 640, y: 200) == 2)
        // Page 2 shows for its /Dur, 2 s, after its 1-s fade.
        let second = try #require(lectern.status.attractDeadline)
        #expect(abs(second - (start + 3)) < 0.05, "fade 1 s + /Dur 2 s: \(second - start)")
        #expect(try waitForAdvance(lectern) == 0, "no frames while page 2 just shows")

        // Page 3 is pushed on from the right (/Di 180, 0.5 s).
        #expect(lectern.wait { lectern.status.transitionProgress != nil })
        lectern.advanceWithoutSettling(by: 0.25)
        let push = try #require(lectern.status.transitionProgress)
        #expect(abs(push - 0.5) < 0.1)
        // The page spans x 394...885 at rest; 20 px inside its right and left edges, moved.
        let oldRight = Int(885 - 1280 * push) - 20, newLeft = Int(394 + 1280 * (1 - push)) + 20
        #expect(lectern.page(atX: oldRight, y: 200) == 2, "page 2 moves off to the left")
        #expect(lectern.page(atX: newLeft, y: 200) == 3, "page 3 comes on from the right")
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 3 && lectern.page(atX: 640, y: 200) == 3)
        // Page 3 has no /Dur: the interval, 3 s, after the push.
        let third = try #require(lectern.status.attractDeadline)
        #expect(abs(third - (second + 3.5)) < 0.05, "push 0.5 s + interval 3 s: \(third - second)")
        #expect(try waitForAdvance(lectern) == 0)

        // Page 4's glitter is a cut; it shows for its /Dur, 1.5 s.
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 4 && lectern.page(atX: 640, y: 200) == 4)
        let fourth = try #require(lectern.status.attractDeadline)
        #expect(abs(fourth - (third + 1.5)) < 0.05, "a cut + /Dur 1.5 s: \(fourth - third)")
        #expect(lectern.clock.now - began < 8)

        // A tap on the page-turn zone stops the loop and goes home; it does not turn the page.
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(!lectern.status.isAttractRunning)
        #expect(lectern.status.attractDeadline == nil)
        #expect(lectern.dominantPage == 1 && lectern.page(atX: 640, y: 200) == 1, "home, not page 5")
        // The next tap acts as usual.
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        try lectern.stop()
    }

    /// The reader on the presentation fixture with the chrome on tap, the attract loop running
    /// (idle reset after 4 s, the loop 1 s later, a page every 2 s, cut).
    func runningLoop() throws -> (KioskHarness, PolicyTests.PolicyDirectory) {
        let policy = try Self.policy(after: 1, interval: 2)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        lectern.advance(by: 4.1)
        _ = try waitForAdvance(lectern)
        #expect(lectern.settle())
        #expect(lectern.status.isAttractRunning && lectern.dominantPage == 2)
        #expect(!lectern.status.isUserInterfaceVisible)
        return (lectern, policy)
    }

    @Test("a touch in the middle of the page stops the loop and goes home; it does not open the chrome")
    func touchStopsWithoutChrome() throws {
        let (lectern, policy) = try runningLoop()
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 1)
        #expect(!lectern.status.isAttractRunning)
        #expect(lectern.dominantPage == 1)
        #expect(!lectern.status.isUserInterfaceVisible, "the touch that stopped the loop does nothing else")
        // The next tap acts as usual: it shows the chrome.
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 1)
        #expect(lectern.status.isUserInterfaceVisible)
        try lectern.stop()
        _ = policy
    }

    @Test(
        "a click (a touch panel seen as a pointer: it moves, then presses) stops the loop; it does not open the chrome")
    func clickStopsWithoutChrome() throws {
        let (lectern, policy) = try runningLoop()
        #expect(lectern.compositor.pointerEnter(x: 100, y: 100))
        lectern.turn()
        lectern.click(x: 640, y: 360)
        lectern.advance(by: 1)
        #expect(!lectern.status.isAttractRunning)
        #expect(lectern.dominantPage == 1)
        #expect(!lectern.status.isUserInterfaceVisible, "the click that stopped the loop does nothing else")
        // The next click, where the pointer already is (a compositor sends no motion then: the
        // reader's new interaction controller must still know where the pointer is).
        let c = lectern.compositor
        c.pointerButton(LecternHarness.leftButton, pressed: true)
        c.pointerFrame()
        lectern.advanceWithoutSettling(by: 0.04)
        c.pointerButton(LecternHarness.leftButton, pressed: false)
        c.pointerFrame()
        lectern.advance(by: 1)
        #expect(lectern.status.isUserInterfaceVisible, "the next click acts as usual")
        try lectern.stop()
        _ = policy
    }
}
