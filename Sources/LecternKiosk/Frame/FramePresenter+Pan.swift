import LecternCore
import LecternRender
import LecternWayland

extension FramePresenter {
    /// The margin to plan around a window of `pixels` at `scale` for the `PanSurface`, or nil
    /// when this frame is drawn whole anyway (no pages' surface, another scale than 1, the
    /// shelf, a lowered reading area, a transition, a panel that covers the pages).
    func panMargin(pixels: (width: Int, height: Int), scale: DisplayScale) -> (x: Int, y: Int)? {
        guard panSurface != nil, scale == .one, !shelf.isShown, screen.lowering == 0, !transitions.isActive,
            !navigation.coversPages, case .open = session.phase
        else { return nil }
        return PanSurface.margin(width: pixels.width, height: pixels.height)
    }

    /// Commits `window` (a frame of the window, `planned` cut to it) through the `PanSurface` when
    /// it is pages and chrome alone and not the home view (kept for the next start from a whole
    /// frame). Returns false when the frame is to be drawn whole.
    func commitPanned(
        _ planned: Scene, window scene: Scene, margin: (x: Int, y: Int), plan: TilePlanner.Plan?, reader: Reader,
        size: (width: Int, height: Int), animating: Bool
    ) -> Bool {
        guard let panSurface, PanSurface.isEligible(scene), scene.transition == nil,
            !isHomeView(scene, plan: plan, reader: reader)
        else { return false }
        let shown = ShownInput()
        let outcome = panSurface.commit(
            planned, margin: margin, window: window,
            presented: { [weak self] in self?.presented($0, showing: shown.input) }, logger: logger)
        if !outcome.committed {
            if outcome.allBusy {
                frame.request()  // a release wakes the loop
            } else {
                // Nothing new to show: an animation still needs to come back next frame time.
                if animating { scheduleAnimationFrame() }
                frame.dropped(keepsInput: animating)
            }
            return true
        }
        // The window's own buffers hold no frame now: the next whole frame is drawn whole.
        frameCompositor.forgetLastScene()
        didCommit(
            scene, buffer: nil, plan: plan, reader: reader, size: size, scale: scene.scale, animating: animating,
            shown: shown)
        return true
    }

    /// The frame is drawn whole: the pages' surface, if it showed the last one, is emptied.
    func leavePanning() {
        guard let panSurface, panSurface.isActive else { return }
        panSurface.deactivate()
        frameCompositor.forgetLastScene()
    }

    /// Gives the frame dump what the screen shows, the pages under the chrome.
    func dumpPanned() {
        guard let dumper, let size = window.bufferSize, let panSurface else { return }
        let stride = size.width * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * size.height, alignment: 64)
        defer { pixels.deallocate() }
        guard panSurface.copyScreen(into: pixels, stride: stride) else { return }
        dumper.frameCommitted(pixels: pixels, width: size.width, height: size.height, stride: stride)
    }
}
