import Glibc
import LecternCore
import LecternLinux
import Testing

/// The loop's own measure of how long it went without polling (a reload must not stall it).
@Suite("Event loop")
struct EventLoopTests {
    @Test("a handler that blocks shows as the loop's longest turn, until the measure is reset")
    func longestTurn() throws {
        let loop = try EventLoop(clock: ManualClock())
        try loop.runOnce(timeout: .zero)  // a first poll: the measure starts when it returns
        var ran = 0
        let timer = loop.schedule(after: 0) {
            usleep(60_000)
            ran += 1
        }
        try loop.runOnce(timeout: .zero)  // the timer fires before this turn's poll
        try loop.runOnce(timeout: .zero)  // the poll that ends the blocked stretch
        #expect(ran == 1)
        #expect(!timer.isScheduled)
        #expect(loop.longestTurn >= .milliseconds(60), "blocked for 60 ms: \(loop.longestTurn)")
        loop.resetLongestTurn()
        try loop.runOnce(timeout: .zero)
        #expect(loop.longestTurn < .milliseconds(60), "nothing blocked since the reset: \(loop.longestTurn)")
    }

    @Test("the turn observer hears every finished turn's length, a blocked one among them")
    func turnObserver() throws {
        let loop = try EventLoop(clock: ManualClock())
        var turns: [Duration] = []
        loop.turnObserver = { turns.append($0) }
        try loop.runOnce(timeout: .zero)  // the first poll: no turn before it
        #expect(turns.isEmpty)
        _ = loop.schedule(after: 0) { usleep(30_000) }
        try loop.runOnce(timeout: .zero)
        try loop.runOnce(timeout: .zero)
        #expect(turns.count == 2)
        #expect(turns.first.map { $0 >= .milliseconds(30) } == true, "the timer blocked for 30 ms: \(turns)")
        loop.turnObserver = nil
        try loop.runOnce(timeout: .zero)
        #expect(turns.count == 2)
    }
}
