import Glibc

/// Random touch gestures for a soak run: taps, double taps, pans, flings, pinches and taps at
/// the page-turn edges, from a seeded generator so that a run can be repeated event for event.
///
/// Each gesture is sent at once (with `wl_touch.frame` after each batch, as libinput-backed
/// compositors do), stamped with a synthetic timeline: motions 8–16 ms apart, a tap held
/// 40–120 ms, pauses of 50–600 ms between gestures. The client's own timers run on its clock,
/// so gestures may overlap its animations, as an impatient visitor's do.
public struct SoakDriver {
    /// What one call to `perform(on:)` sent.
    public enum Gesture: String, CaseIterable, Sendable {
        case tap, doubleTap, pan, fling, pinch, edgeTap
    }

    /// Touch events sent so far (down, motion and up; not frames).
    public private(set) var events = 0
    /// Gestures sent so far, by kind.
    public private(set) var counts: [Gesture: Int] = [:]
    private var random: SplitMix64
    private var time: UInt32 = 1
    private let width: Double
    private let height: Double

    /// A driver for a `width` × `height` surface.
    public init(seed: UInt64, width: Int32, height: Int32) {
        random = SplitMix64(seed: seed)
        self.width = Double(width)
        self.height = Double(height)
    }

    /// Sends one random gesture to the newest toplevel's client; returns which.
    @discardableResult
    public mutating func perform(on compositor: TestCompositor) -> Gesture {
        // Weights: page turns and pans are what visitors do most.
        let gesture: Gesture
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<20: gesture = .tap
        case 20..<28: gesture = .doubleTap
        case 28..<53: gesture = .pan
        case 53..<68: gesture = .fling
        case 68..<78: gesture = .pinch
        default: gesture = .edgeTap
        }
        counts[gesture, default: 0] += 1
        switch gesture {
        case .tap:
            tap(at: point(), on: compositor)
        case .doubleTap:
            let at = point()
            tap(at: at, on: compositor)
            pause(60...150)
            tap(at: (at.x + 4, at.y - 3), on: compositor)
        case .pan:
            drag(from: point(), steps: Int.random(in: 4...14, using: &random), stride: 8...40, on: compositor)
        case .fling:
            drag(from: point(), steps: Int.random(in: 3...6, using: &random), stride: 60...140, on: compositor)
        case .pinch:
            pinch(on: compositor)
        case .edgeTap:
            let left = Bool.random(using: &random)
            let x = left ? Double.random(in: 2...30, using: &random) : width - Double.random(in: 2...30, using: &random)
            tap(at: (x, Double.random(in: height * 0.2...height * 0.8, using: &random)), on: compositor)
        }
        pause(50...600)
        return gesture
    }

    private mutating func point() -> (x: Double, y: Double) {
        (Double.random(in: 0..<width, using: &random), Double.random(in: 0..<height, using: &random))
    }

    private mutating func pause(_ milliseconds: ClosedRange<UInt32>) {
        time &+= UInt32.random(in: milliseconds, using: &random)
    }

    private mutating func tap(at point: (x: Double, y: Double), on compositor: TestCompositor) {
        compositor.touchDown(id: 0, x: point.x, y: point.y, time: time)
        compositor.touchFrame()
        pause(40...120)
        compositor.touchUp(id: 0, time: time)
        compositor.touchFrame()
        events += 2
    }

    private mutating func drag(
        from start: (x: Double, y: Double), steps: Int, stride: ClosedRange<Double>, on compositor: TestCompositor
    ) {
        let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
        let step = Double.random(in: stride, using: &random)
        var (x, y) = start
        compositor.touchDown(id: 0, x: x, y: y, time: time)
        compositor.touchFrame()
        for _ in 0..<steps {
            pause(8...16)
            x = min(max(x + step * cos(angle), 0), width - 1)
            y = min(max(y + step * sin(angle), 0), height - 1)
            compositor.touchMotion(id: 0, x: x, y: y, time: time)
            compositor.touchFrame()
        }
        pause(0...20)
        compositor.touchUp(id: 0, time: time)
        compositor.touchFrame()
        events += steps + 2
    }

    /// Two fingers about the same centre, spreading or closing by up to a factor of three.
    private mutating func pinch(on compositor: TestCompositor) {
        let center = point()
        let start = Double.random(in: 40...200, using: &random)
        let end = start * Double.random(in: 0.33...3, using: &random)
        let steps = Int.random(in: 4...12, using: &random)
        func send(_ radius: Double, down: Bool) {
            for (id, sign) in [(Int32(0), -1.0), (Int32(1), 1.0)] {
                let x = min(max(center.x + sign * radius, 0), width - 1)
                if down {
                    compositor.touchDown(id: id, x: x, y: center.y, time: time)
                } else {
                    compositor.touchMotion(id: id, x: x, y: center.y, time: time)
                }
            }
            compositor.touchFrame()
        }
        send(start, down: true)
        for index in 1...steps {
            pause(8...16)
            send(start + (end - start) * Double(index) / Double(steps), down: false)
        }
        compositor.touchUp(id: 1, time: time)
        compositor.touchFrame()
        pause(0...30)
        compositor.touchUp(id: 0, time: time)
        compositor.touchFrame()
        events += 2 + 2 * steps + 2
    }
}
