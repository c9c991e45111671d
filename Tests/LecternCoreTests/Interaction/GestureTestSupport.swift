@testable import LecternCore

/// Shorthand for feeding touch events to an arena.
extension GestureArena {
    func down(_ id: Int, _ x: Double, _ y: Double, at time: Double) {
        handle(InputEvent(.touchDown(id: id, location: Point(x: x, y: y)), time: time))
    }

    func move(_ id: Int, _ x: Double, _ y: Double, at time: Double) {
        handle(InputEvent(.touchMotion(id: id, location: Point(x: x, y: y)), time: time))
    }

    func up(_ id: Int, at time: Double) {
        handle(InputEvent(.touchUp(id: id), time: time))
    }

    func cancel(at time: Double) {
        handle(InputEvent(.touchCancel, time: time))
    }

    /// A quick one-finger tap.
    func tap(_ x: Double, _ y: Double, at time: Double, id: Int = 0) {
        down(id, x, y, at: time)
        up(id, at: time + 0.05)
    }
}

/// Records the states a recognizer's actions saw.
final class StateLog {
    var states: [GestureState] = []

    init(_ recognizer: GestureRecognizer) {
        recognizer.addAction { [unowned self] r in self.states.append(r.state) }
    }
}
