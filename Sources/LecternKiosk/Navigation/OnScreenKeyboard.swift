import LecternCore
import LecternRender

/// The on-screen keyboard search is typed with (a kiosk has no keyboard): the keys of
/// `OnScreenKeyboardLayout` along the bottom of the screen. A key types when the finger lifts
/// on it; sliding to another key first types that one instead, as on a phone.
final class OnScreenKeyboard: NavigationPart {
    let screen: Screen
    /// The key under each finger that is down.
    private var pressed: [Int: Int] = [:]
    /// Called with what a key did.
    var onKey: ((OnScreenKeyboardLayout.Action) -> Void)?

    init(screen: Screen) {
        self.screen = screen
    }

    /// The keys for the screen now.
    var layout: OnScreenKeyboardLayout {
        OnScreenKeyboardLayout(
            width: screen.size.width, height: screen.size.height - Double(screen.metrics.reachBottom),
            keyHeight: Double(screen.metrics.keyHeight), language: Translation.language)
    }

    /// The keyboard as drawn.
    var scene: Scene.Keyboard { Scene.Keyboard(layout: layout, pressed: pressed.values.first) }

    /// Lets go of every key (the keyboard hides).
    func release() { pressed = [:] }

    func touchBegan(_ id: Int, at point: Point, time: Double, reader: Reader) {
        pressed[id] = layout.key(at: point)
    }

    func touchMoved(_ id: Int, to point: Point, time: Double, reader: Reader) {
        guard pressed[id] != nil || layout.frame.contains(point) else { return }
        pressed[id] = layout.key(at: point)
    }

    func touchEnded(_ id: Int, time: Double, reader: Reader) {
        guard let key = pressed.removeValue(forKey: id) else { return }
        onKey?(layout.keys[key].action)
    }

    func touchCancelled(_ id: Int, reader: Reader) {
        pressed[id] = nil
    }
}
