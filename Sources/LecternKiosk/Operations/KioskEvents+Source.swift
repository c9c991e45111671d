import LecternCore
import LecternLinux

/// Finds the kiosk's events (`KioskEvents`) in the parts' state at the end of each loop turn
/// (after the frame drawn in it, if any) and in the interaction components' activations
/// (`Operations` calls it).
final class KioskEventSource {
    let events: KioskEvents
    let loop: EventLoop
    let current: CurrentReader
    let shown: any DocumentOnScreen
    let idle: IdleReset
    /// The attract loop is turning the pages (wired by the app).
    var isAttracting: () -> Bool = { false }

    private var opened = 0
    private var failed = false
    private var page: Int?
    private var spread: Int?
    private var zoom: Double?
    private var resets = 0
    private var attracting = false
    /// The page of a view restored at start, said once its page is on screen.
    private var restoredPage: Int?

    init(
        events: KioskEvents, restored: KioskStatus.SavedViewRestore, current: CurrentReader,
        shown: any DocumentOnScreen,
        idle: IdleReset, loop: EventLoop
    ) {
        self.events = events
        self.current = current
        self.shown = shown
        self.idle = idle
        self.loop = loop
        if case .restored(let page) = restored { restoredPage = page }
    }

    private func emit(
        _ name: KioskEvent.Name, document: String? = nil, page: Int? = nil, pages: [Int]? = nil, spread: Int? = nil,
        zoom: Double? = nil, component: String? = nil, detail: String? = nil
    ) {
        events.emit(
            KioskEvent(
                name, time: loop.clock.now, document: document, page: page, pages: pages, spread: spread, zoom: zoom,
                component: component, detail: detail))
    }

    /// The end of a loop turn: a document opened or failed, the page or the zoom changed, a
    /// spread shown, an idle reset, the attract loop starting.
    func afterIteration(hasShownPage: Bool, dominantPage: DominantPage) {
        if case .failed(let failure) = shown.phase {
            if !failed { emit(.documentFailed, document: shown.documentPath, detail: failure.description) }
            failed = true
        } else if case .open = shown.phase, shown.documentsOpened != opened, let reader = current.reader {
            (opened, failed, page, spread, zoom) = (shown.documentsOpened, false, nil, nil, nil)
            emit(.documentLoaded, document: reader.document.path, pages: [reader.view.pages.count])
        }
        if case .open = shown.phase, let reader = current.reader, reader.view.layout.spreadCount > 0 {
            let dominant = dominantPage.of(reader)
            if dominant != page {
                page = dominant
                emit(.pageChanged, document: reader.document.path, page: dominant + 1)
            }
            if !reader.view.isAnimating {
                let now = reader.view.currentZoomScale
                if let zoom, abs(zoom - now) > 0.001 { emit(.zoomChanged, page: dominant + 1, zoom: now) }
                zoom = now
            }
        }
        if idle.resets != resets {
            resets = idle.resets
            emit(.idleReset)
        }
        let attracting = isAttracting()
        if attracting, !self.attracting { emit(.attractStarted) }
        self.attracting = attracting
        spreadMayBeShown(hasShownPage: hasShownPage)
    }

    /// The spread on screen once the view settled on it (the last frame of a turn is drawn while
    /// it still animates), and a view restored at start once its page is on screen.
    private func spreadMayBeShown(hasShownPage: Bool) {
        guard hasShownPage, let reader = current.reader, !reader.view.isAnimating,
            reader.view.layout.spreadCount > 0
        else { return }
        if let restoredPage {
            self.restoredPage = nil
            emit(.viewStateRestored, document: reader.document.path, page: restoredPage + 1)
        }
        let destination = reader.view.destinationSpread
        guard destination != spread else { return }
        spread = destination
        emit(
            .spreadShown, document: reader.document.path,
            pages: reader.view.spreads.pageRange(forSpread: destination).map { $0 + 1 },
            spread: destination)
    }

    /// Each component of `controller` that acts is an event; tapping an annotation and
    /// selecting text are one more each.
    func install(on controller: InteractionController) {
        let tapped: Set<String> = [
            controller.selectAnnotation.name, controller.openLinkAnnotation.name, controller.editAnnotation.name,
        ]
        controller.onEveryActivation { [weak self] name in
            guard let self else { return }
            let page = current.reader.map { $0.view.dominantPage() + 1 }
            emit(.componentActivated, page: page, component: name)
            if tapped.contains(name) { emit(.annotationTapped, page: page, component: name) }
            if name == controller.selectText.name { emit(.textSelected, page: page, component: name) }
        }
    }
}

extension InteractionController {
    /// Calls `handler` with the component's name each time one of the components acts (after
    /// its conditions): the annotation and link components, text selection, fast scroll, smart
    /// zoom and the chrome's toggle.
    func onEveryActivation(_ handler: @escaping (String) -> Void) {
        for component in [selectAnnotation, deselectAnnotation, transformAnnotation, editAnnotation] {
            let name = component.name
            component.addActivationCallback { _, _, _ in handler(name) }
        }
        let openLink = openLinkAnnotation.name
        openLinkAnnotation.addActivationCallback { _, _, _ in handler(openLink) }
        for component in [selectText, deselectText] {
            let name = component.name
            component.addActivationCallback { _, _, _ in handler(name) }
        }
        fastScroll.addActivationCallback { _, _, _ in handler("fastScroll") }
        smartZoom.addActivationCallback { _, _, _ in handler("smartZoom") }
        toggleUserInterface.addActivationCallback { _, _, _ in handler("toggleUserInterface") }
    }
}
