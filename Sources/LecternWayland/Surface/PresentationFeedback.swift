import CWaylandClient
import CWaylandProtocols
import Glibc

/// When a committed frame reached the screen, as the compositor says through
/// `wp_presentation_feedback` (presentation-time): the time on the compositor's presentation
/// clock (`Display.presentationClock`), and the output's refresh period. (Headless, sway 1.7
/// answers no feedback: wlroots 0.15's headless outputs report their frames as not presented.)
public struct Presented: Equatable, Sendable {
    /// Seconds on the presentation clock when the frame turned to light.
    public var seconds: Double
    /// The output's refresh period in seconds (0: not known, or not a fixed rate).
    public var refresh: Double
}

/// One frame's `wp_presentation_feedback`: asked for before the commit, answered once, with
/// `presented` (the time) or `discarded` (the frame was never shown: replaced first, or its
/// surface hidden); then the proxy is destroyed.
final class PresentationFeedback {
    private let proxy: OpaquePointer
    private let then: (Presented?) -> Void

    /// The listener of every feedback (`Display` keeps it).
    static func makeListener() -> Listener<wp_presentation_feedback_listener> {
        Listener(
            wp_presentation_feedback_listener(
                sync_output: { _, _, _ in },
                presented: { data, _, secondsHigh, secondsLow, nanoseconds, refresh, _, _, _ in
                    let seconds = Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) + Double(nanoseconds) / 1e9
                    PresentationFeedback.answer(data, Presented(seconds: seconds, refresh: Double(refresh) / 1e9))
                },
                discarded: { data, _ in PresentationFeedback.answer(data, nil) }))
    }

    /// Asks for the feedback of the next commit of `surface`; `then` runs once with its answer.
    @discardableResult
    static func request(
        display: Display, presentation: OpaquePointer, surface: OpaquePointer, then: @escaping (Presented?) -> Void
    ) -> Bool {
        guard let proxy = wp_presentation_feedback(presentation, surface) else { return false }
        let listener = display.presentationFeedbackListener
        let feedback = PresentationFeedback(proxy: proxy, then: then)
        // Kept alive by the listener's data until the answer (or until the connection closes).
        wp_presentation_feedback_add_listener(proxy, listener.pointer, Unmanaged.passRetained(feedback).toOpaque())
        return true
    }

    private init(proxy: OpaquePointer, then: @escaping (Presented?) -> Void) {
        self.proxy = proxy
        self.then = then
    }

    private static func answer(_ data: UnsafeMutableRawPointer?, _ presented: Presented?) {
        guard let data else { return }
        let feedback = Unmanaged<PresentationFeedback>.fromOpaque(data).takeRetainedValue()
        wp_presentation_feedback_destroy(feedback.proxy)
        feedback.then(presented)
    }
}
