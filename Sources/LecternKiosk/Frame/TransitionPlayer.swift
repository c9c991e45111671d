import LecternCore
import LecternRender
import Logging

/// Plays a page transition (the attract loop's) on the frame clock: the frame on screen and
/// the next one are drawn once each into images off screen, and the frames in between are
/// made from the two (`Scene.Transition`, drawn by Pixman). The next frame is taken only once
/// it is sharp: until then the old one stays on screen.
final class TransitionPlayer {
    private let offscreen: FrameCompositor
    /// The last frame committed that was not a transition: where the next one starts from.
    private var shown: Scene?
    /// Asked for: the old frame's image, the effect; waits for the new frame to be sharp.
    private var pending: (from: RasterImage, effect: PageTransition, since: Double?)?
    /// Under way since `start` on the clock.
    private var running: (from: RasterImage, to: RasterImage, effect: PageTransition, start: Double)?
    /// How far the transition on screen is (nil: none is).
    private(set) var progress: Double?

    init(logger: Logger) {
        offscreen = FrameCompositor(logger: logger)
    }

    /// Whether a transition waits for its page or is under way.
    var isActive: Bool { pending != nil || running != nil }

    /// Whether frames move with the clock.
    var isAnimating: Bool { running != nil }

    /// The next page change is shown with `effect` (a cut when Lectern does not draw it).
    func begin(_ effect: PageTransition) {
        cancel()
        guard let shown, Scene.Transition.draws(effect.style), effect.duration > 0 else { return }
        pending = (image(of: shown), effect, nil)
    }

    /// Drops the transition: the next frame is the page as it is.
    func cancel() {
        pending = nil
        running = nil
        progress = nil
    }

    /// The frame to commit instead of `scene` at `now`: nil while the new page is not sharp
    /// yet (the old frame stays), a frame of the transition while it runs, `scene` after.
    func frame(for scene: Scene, isSharp: Bool, now: Double) -> Scene? {
        if let pending {
            // A page that does not get sharp within a second (a slow or failing render) is cut to.
            let since = pending.since ?? now
            guard now - since < 1 else {
                cancel()
                return scene
            }
            guard isSharp else {
                self.pending?.since = since
                return nil
            }
            running = (pending.from, image(of: scene), pending.effect, now)
            self.pending = nil
        }
        guard let running else { return scene }
        let progress = (now - running.start) / running.effect.duration
        guard progress < 1, running.from.width == scene.pixelWidth, running.from.height == scene.pixelHeight else {
            cancel()
            return scene
        }
        self.progress = progress
        var frame = Scene(width: scene.width, height: scene.height, scale: scene.scale)
        frame.palette = scene.palette
        frame.metrics = scene.metrics
        frame.transition = Scene.Transition(
            from: running.from, to: running.to, effect: running.effect, progress: progress)
        return frame
    }

    /// `scene` was committed.
    func committed(_ scene: Scene) {
        if scene.transition == nil { shown = scene }
    }

    /// `scene` drawn whole into an image.
    private func image(of scene: Scene) -> RasterImage {
        let image = RasterImage(width: max(1, scene.pixelWidth), height: max(1, scene.pixelHeight))
        offscreen.draw(scene, into: image.pixels, stride: image.stride, bufferAge: 0)
        return image
    }
}
