import LecternCore

/// Asks the interaction component of one of the app's own controls (a title bar button, a
/// thumbnail, the scrubber, pinch-to-grid) before the control acts, so that an integrator's
/// conditions and callbacks (`KioskApp.configureInteractions`) and the policy's
/// `[components]` cover them as they cover gestures on the pages. One gate, shared by the
/// parts that own the controls; the input router answers it with the controller in use.
final class ChromeGate {
    /// Whether the control `context` at `point` (surface units) may act now: the matching
    /// component's `activate(_:atView:)`. Without a document (no controller) it may.
    var allows: (_ context: ChromeInteractionContext, _ point: Point) -> Bool = { _, _ in true }

    /// Asks for the title bar button `name` ("pages", "contents", "search", "back").
    func allowsButton(_ name: String, at point: Point) -> Bool {
        allows(ChromeInteractionContext(control: name), point)
    }
}

extension InteractionController {
    /// The component that answers for the app's control `context`.
    func component(for context: ChromeInteractionContext) -> InteractionComponent<ChromeInteractionContext> {
        switch context.control {
        case "thumbnailBar", "thumbnailGrid": thumbnail
        case "scrubber": scrubber
        case "pinchToGrid": pinchToGrid
        default: chromeButton
        }
    }
}
