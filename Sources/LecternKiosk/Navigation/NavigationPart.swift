import LecternCore

/// A part of the navigation overlays that follows the finger (or the pointer's button) that
/// touched it, until it lifts: `Navigation` sends it the touch's motion and lift.
protocol NavigationPart: AnyObject {
    /// A finger (`id`; -1: the pointer) went down on it at `point`.
    func touchBegan(_ id: Int, at point: Point, time: Double, reader: Reader)
    func touchMoved(_ id: Int, to point: Point, time: Double, reader: Reader)
    func touchEnded(_ id: Int, time: Double, reader: Reader)
    /// The touch was taken away (`wl_touch.cancel`, the pointer left).
    func touchCancelled(_ id: Int, reader: Reader)
}

/// A button: a tap on it (down and up, wherever the finger went between) runs `action` with
/// where it went down.
final class TapTarget: NavigationPart {
    private var starts: [Int: Point] = [:]
    private let action: (Point, Reader) -> Void

    init(action: @escaping (Point, Reader) -> Void) {
        self.action = action
    }

    func touchBegan(_ id: Int, at point: Point, time: Double, reader: Reader) { starts[id] = point }
    func touchMoved(_ id: Int, to point: Point, time: Double, reader: Reader) {}
    func touchEnded(_ id: Int, time: Double, reader: Reader) {
        if let start = starts.removeValue(forKey: id) { action(start, reader) }
    }
    func touchCancelled(_ id: Int, reader: Reader) { starts[id] = nil }
}

extension Rect {
    /// The whole pixels a rectangle laid out in view coordinates covers, its size rounded on its
    /// own so that a thumbnail keeps its size (and its cached render) wherever it scrolls.
    var stablePixels: PixelBox {
        PixelBox(
            x: Int(minX.rounded()), y: Int(minY.rounded()), width: Int(width.rounded()), height: Int(height.rounded()))
    }
}

extension PixelBox {
    func contains(_ point: Point) -> Bool {
        point.x >= Double(x) && point.x < Double(maxX) && point.y >= Double(y) && point.y < Double(maxY)
    }
}
