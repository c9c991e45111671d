import CLecternLinux
import Glibc
import LecternCore
import LecternPDF
import LecternRender
import Logging

/// Input: the seat's events go to the interaction controller (gestures, components, keys,
/// wheel); the chrome's page scrubber and typed page numbers are handled here, before it.
/// What the interaction controller acts on: the open document's view and the chrome.
final class ReaderHost: InteractionHost {
    unowned let app: KioskApp
    let reader: Reader

    init(app: KioskApp, reader: Reader) {
        self.app = app
        self.reader = reader
    }

    var documentView: DocumentView {
        get { reader.view }
        set { reader.view = newValue }
    }

    var isUserInterfaceVisible: Bool {
        get { app.isUserInterfaceVisible }
        set { app.isUserInterfaceVisible = newValue }
    }

    func textBlocks(onPage page: Int) -> [Rect] {
        // Read on a worker while the page was on screen; none yet → smart zoom zooms about the finger.
        reader.pageText[page]?.blocks ?? []
    }

    func link(at point: Point, onPage page: Int) -> LinkTarget? {
        reader.pageText[page]?.links.first { $0.rect.contains(point) }?.target
    }

    func follow(_ link: LinkTarget) {
        switch link {
        case .page(let page):
            app.logger.info("link to page \(page + 1)")
            try? reader.view.goToPage(page, animated: true, at: app.now)
        case .uri(let address):
            // A kiosk has no browser: say where the link goes instead.
            app.logger.info("link to \(address) (not opened on a kiosk)")
            app.showNotice("This link leads to \(address), which cannot be opened here.")
        }
    }
}

extension KioskApp {
    var reader: Reader? {
        if case .open(let reader) = document { return reader }
        return nil
    }

    /// Sets up the controller once the document is open.
    func startInteractions() {
        guard let reader else { return }
        let host = ReaderHost(app: self, reader: reader)
        interactionHost = host
        let controller = InteractionController(host: host)
        interactions = controller
        configureInteractions?(controller)
    }

    /// One event from the seat.
    func handleInput(_ raw: InputEvent) {
        var event = raw
        event.time = localTime(ofEventTime: raw.time)
        restartIdleTimer()
        guard let reader, let interactions else { return }
        if handleChrome(event, reader: reader) || handlePageEntry(event, reader: reader) {
            armGestureTimer()
            return
        }
        let changed = interactions.handle(event)
        logger.trace("input \(event.kind) at \(event.time): \(changed ? "changed the view" : "no change")")
        armGestureTimer()
    }

    /// Event times come from the compositor's clock (usually CLOCK_MONOTONIC in ms, but any
    /// base will do): keep their spacing, and map them onto our monotonic clock, which
    /// animations and gesture deadlines use.
    func localTime(ofEventTime time: Double) -> Double {
        let local = now
        if let offset = eventTimeOffset, abs(time + offset - local) < 1 {
            return time + offset
        }
        eventTimeOffset = local - time
        return local
    }

    func armGestureTimer() {
        guard let deadline = interactions?.nextDeadline else {
            _ = CLecternLinux_timerfd_arm(gestureTimerFD, 0)
            return
        }
        _ = CLecternLinux_timerfd_arm(gestureTimerFD, max(1, Int64(((deadline - now) * 1000).rounded(.up))))
    }

    func gestureTimerFired() {
        _ = CLecternLinux_timerfd_drain(gestureTimerFD)
        interactions?.tick(now: now)
        armGestureTimer()
    }

    // MARK: Idle reset

    func restartIdleTimer() {
        guard configuration.idleResetSeconds > 0 else { return }
        _ = CLecternLinux_timerfd_arm(idleTimerFD, Int64(configuration.idleResetSeconds) * 1000)
    }

    /// Nobody touched the screen for a while: back to where a new visitor should start.
    func idleTimerFired() {
        _ = CLecternLinux_timerfd_drain(idleTimerFD)
        guard let reader else { return }
        logger.info(
            "no input for \(configuration.idleResetSeconds) s: back to page \(configuration.startPage + 1)")
        isUserInterfaceVisible = false
        pageEntry = ""
        scrubbingTouch = nil
        startInteractions()  // drops any gesture in progress
        reader.view.stopAnimations()
        try? reader.view.goToPage(min(configuration.startPage, reader.document.pageCount - 1))
    }

    // MARK: Chrome: the page scrubber

    /// The scrubber's bar and track, when the chrome is shown (as the compositor draws them).
    private func scrubberTrack() -> (bar: PixelBox, track: PixelBox)? {
        guard isUserInterfaceVisible, let size = window?.size else { return nil }
        return (
            Scene.Chrome.scrubberBar(width: size.width, height: size.height),
            Scene.Chrome.scrubberTrack(width: size.width, height: size.height)
        )
    }

    /// A touch or click that starts on the scrubber moves through the document and is not a
    /// gesture on the page.
    private func handleChrome(_ event: InputEvent, reader: Reader) -> Bool {
        switch event.kind {
        case .touchDown(let id, let location):
            guard let scrubber = scrubberTrack(), location.y >= Double(scrubber.bar.y) else { return false }
            scrubbingTouch = id
            scrub(to: location, reader: reader)
            return true
        case .touchMotion(let id, let location) where id == scrubbingTouch:
            scrub(to: location, reader: reader)
            return true
        case .touchUp(let id) where id == scrubbingTouch:
            scrubbingTouch = nil
            return true
        case .touchCancel:
            scrubbingTouch = nil
            return false
        case .pointerButton(.left, let pressed):
            if pressed, let scrubber = scrubberTrack(), let pointer = pointerLocation,
                pointer.y >= Double(scrubber.bar.y)
            {
                scrubbingTouch = -1
                scrub(to: pointer, reader: reader)
                return true
            }
            if !pressed, scrubbingTouch == -1 {
                scrubbingTouch = nil
                return true
            }
            return false
        case .pointerEnter(let location), .pointerMotion(let location):
            pointerLocation = location
            if scrubbingTouch == -1 {
                scrub(to: location, reader: reader)
                return true
            }
            return false
        case .pointerLeave:
            pointerLocation = nil
            if scrubbingTouch == -1 { scrubbingTouch = nil }
            return false
        default:
            return false
        }
    }

    private func scrub(to location: Point, reader: Reader) {
        guard let track = scrubberTrack()?.track, track.width > 0 else { return }
        let count = reader.document.pageCount
        var fraction = min(1, max(0, (location.x - Double(track.x)) / Double(track.width)))
        if reader.view.configuration.pageBinding == .rightEdge { fraction = 1 - fraction }
        let page = Int((fraction * Double(count - 1)).rounded())
        guard page != reader.view.dominantPage() else { return }
        reader.view.stopAnimations()
        try? reader.view.goToPage(page)
    }

    // MARK: Typed page numbers

    /// Digits then Enter go to that page; Backspace edits, Escape cancels.
    private func handlePageEntry(_ event: InputEvent, reader: Reader) -> Bool {
        guard case .key(let key, _) = event.kind else { return false }
        switch key {
        case .digit(let digit):
            guard pageEntry.count < 9 else { return true }
            pageEntry += String(digit)
            return true
        case .backspace where !pageEntry.isEmpty:
            pageEntry.removeLast()
            return true
        case .escape where !pageEntry.isEmpty:
            pageEntry = ""
            return true
        case .enter where !pageEntry.isEmpty:
            let number = Int(pageEntry) ?? 0
            pageEntry = ""
            let count = reader.document.pageCount
            guard number >= 1 else { return true }
            reader.view.stopAnimations()
            try? reader.view.goToPage(min(number, count) - 1)
            logger.debug("go to page \(min(number, count))")
            return true
        default:
            return false
        }
    }

    // MARK: Notices

    /// Shows `text` along the bottom for a few seconds.
    func showNotice(_ text: String) {
        notice = text
        _ = CLecternLinux_timerfd_arm(noticeTimerFD, 5000)
    }

    func noticeTimerFired() {
        _ = CLecternLinux_timerfd_drain(noticeTimerFD)
        notice = nil
    }

    // MARK: Text blocks for smart zoom, links

    /// Reads the text blocks and links of the pages on screen on the worker, once per page.
    func loadPageText(for pages: [Int], reader: Reader) {
        let missing = pages.filter { reader.pageText[$0] == nil && !reader.pageTextLoading.contains($0) }
        guard !missing.isEmpty else { return }
        reader.pageTextLoading.formUnion(missing)
        let pdf = reader.document
        worker.submit {
            func rect(_ r: PDFRect) -> Rect { Rect(x: r.x0, y: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0) }
            var result: [Int: PageText] = [:]
            for page in missing {
                let blocks = ((try? pdf.textBlocks(page: page)) ?? []).map(rect)
                let links: [(rect: Rect, target: LinkTarget)] = ((try? pdf.links(page: page)) ?? []).map { link in
                    switch link.target {
                    case .page(let target): (rect(link.rect), .page(target))
                    case .uri(let address): (rect(link.rect), .uri(address))
                    }
                }
                result[page] = PageText(blocks: blocks, links: links)
            }
            return .pageText(result)
        }
    }
}
