import LecternSpeech
import LecternTestSupport

extension LecternSession {
    /// A finger down at (`x`, `bottom`), up and down over 300 px at 60 Hz (4 px a step) for
    /// `seconds`, back where it started, held still 100 ms (no fling) and lifted; `step` runs
    /// after each step. Returns the window measured: from the first step to the last
    /// (CLOCK_MONOTONIC, seconds, as `LoopTurn.end`).
    @discardableResult
    func pan(seconds: Double, x: Double = 640, bottom: Double = 700, step: () -> Void = {}) -> ClosedRange<Double> {
        compositor.touchDown(id: 0, x: x, y: bottom)
        compositor.touchFrame()
        run(for: .milliseconds(16))
        let start = SpeechTime.now
        // Whole legs (75 steps up, 75 down) when there is time for one: no drift between pans.
        let wanted = max(1, Int(seconds * 60))
        for index in 1...(wanted >= 150 ? wanted / 150 * 150 : wanted) {
            let leg = (index * 4) % 600
            compositor.touchMotion(id: 0, x: x, y: bottom - Double(leg < 300 ? leg : 600 - leg))
            compositor.touchFrame()
            let due = start + Double(index) / 60
            run(timeout: .milliseconds(17)) { SpeechTime.now >= due }
            step()
        }
        let end = SpeechTime.now
        run(for: .milliseconds(100))
        compositor.touchUp(id: 0)
        compositor.touchFrame()
        run(for: .milliseconds(16))
        step()
        return start...end
    }
}

/// One turn of the reader's main loop, as `LoopTurnLog` logs it (`LECTERN_LOG_LOOP_TURNS`).
struct LoopTurn {
    /// When it ended (CLOCK_MONOTONIC, seconds).
    var end: Double
    /// Its wall time and the loop thread's CPU time, in milliseconds.
    var milliseconds: Double
    var cpu: Double

    /// The turns a log line lists (none: it is not a line of turns).
    static func parse(_ line: Substring) -> [LoopTurn] {
        guard let range = line.range(of: "loop turns: ") else { return [] }
        return line[range.upperBound...].split(separator: " ").compactMap { entry in
            let parts = entry.split(separator: "/").compactMap { Double($0) }
            guard parts.count == 3 else { return nil }
            return LoopTurn(end: parts[0] / 1e6, milliseconds: parts[1] / 1000, cpu: parts[2] / 1000)
        }
    }
}
