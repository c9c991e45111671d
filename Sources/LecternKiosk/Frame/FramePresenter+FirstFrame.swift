import LecternCore
import LecternRender
import LecternWayland
import Logging

extension FramePresenter {
    /// Whether `scene`, just committed for `reader`, is the home view exactly: the policy's
    /// document on its start page at zoom 1, sharp, paged per spread (a continuous scroll can
    /// rest anywhere), unedited, the chrome and contrast as at start, no overlay, notice,
    /// selection, panel, large print, transition or lowering; the thumbnail bar (the chrome
    /// always shown) with every thumbnail drawn. Only that frame is kept for the next start
    /// (`FirstFrame`). The first sharp frame of a start counts, before the other pages' sizes are
    /// read: it is the frame the next start's first live frame will be.
    func isHomeView(_ scene: Scene, plan: TilePlanner.Plan?, reader: Reader) -> Bool {
        let view = reader.view
        // The view's own state first: a pan's frames (interacting) go no further, and reading
        // a setting of the policy is a lookup by its name.
        guard let plan, plan.isSharp, !view.isAnimating, !view.isInteracting, !transitions.isActive,
            abs(view.currentZoomScale - 1) < 1e-9, case .open = session.phase, !shelf.isShown, !isClosed,
            screen.lowering == 0
        else { return false }
        let configuration = policy.configuration
        guard !configuration.hasShelf, configuration.scrollMode == .perSpread,
            reader.document.path == configuration.documentPath, !annotations.editor.wasEdited(reader.document),
            view.viewState() == ViewState(pageIndex: min(configuration.startPage, view.pages.count - 1)),
            screen.contrast == configuration.defaultContrast, chrome.isVisible == (configuration.chrome == .always),
            chrome.pageEntry.isEmpty
        else { return false }
        var overlays = scene.overlays
        guard overlays.thumbnailBar?.isComplete != false else { return false }
        overlays.thumbnailBar = nil
        return scene.message == nil && scene.banner == nil && scene.qrCode == nil && scene.labels.isEmpty
            && scene.transition == nil && scene.curl == nil && overlays == Scene.Overlays()
            && scene.textSelection == nil && scene.largePrint == nil && scene.accessibility?.rows == nil
    }

    /// Keeps the frame in `buffer`, which shows `scene`, for the next start if it is the home view.
    func keepIfHome(_ scene: Scene, plan: TilePlanner.Plan?, reader: Reader, in buffer: ShmBuffer) {
        guard isHomeView(scene, plan: plan, reader: reader) else { return }
        // The commit leaves now: keeping the frame (a copy of its pixels, the document's key read
        // from its file) must not hold it back until the loop next polls.
        display.flush()
        firstFrame.homeCommitted(
            buffer, scale: scene.scale, document: reader.document.path, reader: ObjectIdentifier(reader),
            configuration: policy.configuration)
    }
}

extension XdgToplevel {
    /// Commits `kept` whole, the file's pages a buffer of their own (destroyed once released):
    /// the first frame, kept from the last run (`FirstFrame`). Nil when no buffer could be had.
    func commit(_ kept: KeptFrame, from pool: ShmBufferPool, logger: Logger) -> ShmBuffer? {
        guard let buffer = pool.standalone(kept.memory) else {
            logger.error("cannot make a buffer of the kept frame: no wl_shm")
            return nil
        }
        commit(buffer, scale: scale, damage: [(0, 0, kept.width, kept.height)])
        return buffer
    }
}
