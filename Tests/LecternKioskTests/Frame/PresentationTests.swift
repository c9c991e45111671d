import Foundation
import LecternTestSupport
import Testing

/// `wp_presentation` feedback through the test compositor, which presents a frame when it
/// answers its frame callback, at the manual clock's time (as it stamps input): the time from a
/// touch or a key to the frame that shows what it did, in the status and the metrics file.
@Suite("Input to present", .serialized)
struct PresentationTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// Turns the app until it committed a frame (at most 50 turns).
    private func turnUntilCommitted(_ lectern: KioskHarness) -> Bool {
        let commits = lectern.compositor.commitCount
        for _ in 0..<50 where lectern.compositor.commitCount == commits { lectern.turn() }
        return lectern.compositor.commitCount > commits
    }

    @Test("a drag's first frame is presented 30 ms after the finger went down: touch→present is 30 ms")
    func touchToPresent() throws {
        let directory = try MetricsTests.MetricsDirectory()
        let lectern = try KioskHarness([Self.colors, "--config", directory.policy])
        #expect(lectern.settle())
        let start = lectern.status.presentations
        #expect(start.presented > 0, "the first frames were presented")
        #expect(start.last == nil, "no input yet")
        // The screen shows the frame only when the test says so.
        lectern.compositor.autoFrameCallback = false
        lectern.compositor.touchDown(id: 0, x: 640, y: 360)
        lectern.compositor.touchMotion(id: 0, x: 540, y: 360)
        #expect(turnUntilCommitted(lectern), "the page follows the finger")
        #expect(lectern.status.presentations.presented == start.presented, "not presented yet")
        lectern.clock.advance(by: 0.030)
        lectern.compositor.sendFrameCallbacks()
        lectern.turn()
        let after = lectern.status.presentations
        #expect(after.presented == start.presented + 1)
        let last = try #require(after.last)
        #expect(last.input == "touch")
        #expect(abs(last.seconds - 0.030) < 0.0015, "\(last.seconds)")
        #expect(abs(after.refresh - 1.0 / 60) < 1e-6)
        // The next frame, from a later motion, is measured from that motion.
        lectern.clock.advance(by: 0.010)
        lectern.compositor.touchMotion(id: 0, x: 500, y: 360)
        #expect(turnUntilCommitted(lectern))
        lectern.clock.advance(by: 0.020)
        lectern.compositor.sendFrameCallbacks()
        lectern.turn()
        #expect(abs((lectern.status.presentations.last?.seconds ?? 0) - 0.020) < 0.0015)
        let touch = try #require(lectern.status.presentations.percentiles["touch"])
        #expect(touch.count == 2 && abs(touch.max - 0.030) < 0.0015 && abs(touch.p50 - 0.020) < 0.0015, "\(touch)")
        lectern.compositor.touchUp(id: 0)
        lectern.compositor.autoFrameCallback = true
        #expect(lectern.settle())
        MetricsTests().advance(lectern, toSecond: 15.5)
        #expect(lectern.wait { lectern.status.metricsWritten == 1 })
        let samples = try #require(directory.samples)
        let count = samples["lectern_input_to_present_seconds_count{input=\"touch\"}"] ?? 0
        #expect(count >= 2, "the two frames measured, and those after the release: \(samples)")
        #expect(samples["lectern_input_to_present_seconds_count{input=\"key\"}"] == nil)
        try lectern.stop()
    }

    @Test("a key's page turn is measured as key→present; a key that changes nothing is not measured")
    func keyToPresent() throws {
        let lectern = try KioskHarness([Self.colors])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        #expect(lectern.settle())
        lectern.compositor.autoFrameCallback = false
        // Home on the first page: nothing changes, no frame, nothing measured.
        lectern.compositor.keyboardKey(LecternHarness.Key.home, pressed: true)
        lectern.compositor.keyboardKey(LecternHarness.Key.home, pressed: false)
        for _ in 0..<10 { lectern.turn() }
        lectern.clock.advance(by: 0.5)
        lectern.compositor.sendFrameCallbacks()
        lectern.turn()
        #expect(lectern.status.presentations.last == nil, "\(lectern.status.presentations)")
        // Right: the page turn's first frame that moves comes a frame time later.
        let pressed = lectern.clock.now
        lectern.compositor.keyboardKey(LecternHarness.Key.right, pressed: true)
        let commits = lectern.compositor.commitCount
        for _ in 0..<10 where lectern.compositor.commitCount == commits {
            lectern.clock.advance(by: KioskHarness.frame)
            lectern.turn()
        }
        #expect(lectern.compositor.commitCount > commits, "the page turn shows")
        lectern.clock.advance(by: 0.010)
        lectern.compositor.sendFrameCallbacks()
        lectern.turn()
        let last = try #require(lectern.status.presentations.last)
        #expect(last.input == "key")
        #expect(abs(last.seconds - (lectern.clock.now - pressed)) < 0.0015, "\(last.seconds)")
        #expect(last.seconds > 0.025)
        lectern.compositor.keyboardKey(LecternHarness.Key.right, pressed: false)
        lectern.compositor.autoFrameCallback = true
        #expect(lectern.settle())
        try lectern.stop()
    }
}
