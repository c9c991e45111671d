import CWaylandServer
import Glibc

// wp_presentation: when each committed frame reached the "screen", which here is when its frame
// callback is answered (`sendFrameCallbacks`), at the events' timestamp, on CLOCK_MONOTONIC as
// cage's (the tests' manual clock stands in for it, as for input times).

extension TestCompositor {
    func bindPresentation(client: OpaquePointer, version: Int32, id: UInt32) {
        guard
            let presentation = makeResource(
                client: client, interface: interfaces.presentation, version: version, id: id,
                implementation: implementations.presentation, { PresentationResource(compositor: self, resource: $0) })
        else { return }
        wp_presentation_send_clock_id(presentation.resource, UInt32(CLOCK_MONOTONIC))
    }

    /// Sends `presented` for every committed frame's feedback, at `milliseconds`, 60 Hz.
    func sendPresented(at milliseconds: UInt32) {
        let due = committedFeedbacks
        committedFeedbacks.removeAll()
        let seconds = UInt64(milliseconds / 1000), nanoseconds = UInt32(milliseconds % 1000) * 1_000_000
        for feedback in due where !feedback.isDestroyed {
            presentedFrames += 1
            wp_presentation_feedback_send_presented(
                feedback.resource, UInt32(seconds >> 32), UInt32(truncatingIfNeeded: seconds), nanoseconds,
                16_666_667, 0, UInt32(truncatingIfNeeded: presentedFrames),
                WP_PRESENTATION_FEEDBACK_KIND_VSYNC.rawValue)
            wl_resource_destroy(feedback.resource)
        }
    }
}

final class PresentationResource: ResourceObject {
    func feedback(surface: WLResource, id: UInt32) {
        guard
            let feedback = compositor.makeResource(
                client: client, interface: compositor.interfaces.presentationFeedback, version: 1, id: id,
                implementation: nil, { PresentationFeedbackResource(compositor: compositor, resource: $0) })
        else { return }
        ResourceObject.from(surface, as: Surface.self).pendingFeedbacks.append(feedback)
    }
}

/// One frame's feedback: answered when the frame callbacks are (`sendPresented`).
final class PresentationFeedbackResource: ResourceObject {}
