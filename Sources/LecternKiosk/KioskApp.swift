import CLecternLinux
import Glibc
import LecternCore
import LecternPDF
import LecternRender
import LecternWayland
import Logging

/// Lectern's main loop: one fullscreen window showing the document, rendering off the
/// Wayland thread, drawing only when something changed and the compositor wants a frame.
public final class KioskApp {
    enum WorkResult: Sendable {
        case opened(PDFDocument, firstPage: PageInfo)
        case openFailed(PDFError)
        /// The real geometry of every page (after the page tree was loaded).
        case pageGeometries([(page: Int, geometry: PageGeometry)], failures: Int, milliseconds: Int)
        /// Text blocks and links per page (PDF user space), for smart zoom and links.
        case pageText([Int: PageText])
    }

    enum DocumentState {
        case opening
        case open(Reader)
        case failed(PDFError)
    }

    let configuration: KioskConfiguration
    let logger: Logger
    let startTime = ContinuousClock.now

    var document: DocumentState = .opening
    var showLoading = false
    var committedSize: (width: Int, height: Int)?
    var committedPage = false
    var lastSharpPages: [Int] = []
    var lastLoggedState: ViewState?
    var firstBufferPrefaulted = false
    /// The chrome (title bar and page scrubber) is shown.
    var isUserInterfaceVisible = false

    var worker: RenderWorker<WorkResult>!
    var window: XdgToplevel!
    var pool: ShmBufferPool!
    var loop: EventLoop!
    var compositor: FrameCompositor!
    var dumper: FrameDumper?
    var loadingTimerFD: Int32 = -1
    var gestureTimerFD: Int32 = -1
    var idleTimerFD: Int32 = -1
    var noticeTimerFD: Int32 = -1
    /// A passing message along the bottom (e.g. where a web link leads).
    var notice: String?

    // Input (KioskApp+Input.swift).
    var interactions: InteractionController?
    var interactionHost: ReaderHost?
    var eventTimeOffset: Double?
    var pointerLocation: Point?
    /// The touch (or -1: the pointer) dragging the page scrubber.
    var scrubbingTouch: Int?
    /// Digits typed so far (Enter goes to that page).
    var pageEntry = ""

    /// Lets an integrator change what gestures do without touching Lectern: called on the
    /// main loop's thread with the interaction controller each time one is set up (when the
    /// document opens, and after an idle reset). Add activation conditions and callbacks to
    /// its components, custom gesture recognizers, failure requirements…
    public var configureInteractions: ((InteractionController) -> Void)?

    /// Readable when `stop()` was called.
    private let stopFD = CLecternLinux_eventfd()

    public init(configuration: KioskConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    deinit {
        if stopFD >= 0 { close(stopFD) }
    }

    /// Ends `run()` as SIGTERM does (exit status 0). Any thread.
    public func stop() {
        _ = CLecternLinux_eventfd_signal(stopFD)
    }

    /// Milliseconds since start-up, for logs.
    var elapsedMilliseconds: Int64 {
        let t = (ContinuousClock.now - startTime).components
        return t.seconds * 1000 + t.attoseconds / 1_000_000_000_000_000
    }

    /// Seconds on a monotonic clock, for animations.
    var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs until SIGTERM/SIGINT (exit status 0) or until the compositor goes away (non-zero).
    public func run() -> Int32 {
        // Block termination signals before any thread starts, then read them from a signalfd.
        let signalFD = CLecternLinux_signalfd_termination()
        guard signalFD >= 0 else {
            logger.critical("\(KioskError.system("signalfd", errno: errno))")
            return 1
        }
        defer { close(signalFD) }
        do {
            worker = try RenderWorker<WorkResult>()
            if let path = configuration.frameDumpPath { dumper = try FrameDumper(path: path, logger: logger) }
        } catch {
            logger.critical("\(error)")
            return 1
        }
        loadingTimerFD = CLecternLinux_timerfd()
        gestureTimerFD = CLecternLinux_timerfd()
        idleTimerFD = CLecternLinux_timerfd()
        noticeTimerFD = CLecternLinux_timerfd()
        defer {
            for fd in [loadingTimerFD, gestureTimerFD, idleTimerFD, noticeTimerFD] where fd >= 0 { close(fd) }
        }
        // Open the document while the Wayland connection is being set up.
        let path = configuration.documentPath, password = configuration.password
        worker.submit {
            do throws(PDFError) {
                let document = try PDFDocument(path: path, password: password)
                guard document.pageCount > 0 else {
                    throw PDFError(.noPages, path: path, message: "cannot show \(path): the document has no pages")
                }
                return .opened(document, firstPage: try document.pageInfo(at: 0))
            } catch {
                return .openFailed(error)
            }
        }

        let display: Display
        do {
            display = try Display(name: configuration.displayName, logger: logger)
        } catch {
            logger.critical("\(error)")
            return 1
        }
        let status = run(display: display, signalFD: signalFD)
        if case .open(let reader) = document { reader.stop() }
        worker.finish()
        return status
    }

    private func run(display: Display, signalFD: Int32) -> Int32 {
        compositor = FrameCompositor(logger: logger)
        pool = ShmBufferPool(shm: display.shm!)
        window = XdgToplevel(display: display, title: "Lectern", appID: "lectern", logger: logger)
        loop = EventLoop(display: display)
        defer {
            // Teardown mirrors setup.
            display.onInput = nil
            interactions = nil
            loop = nil
            window = nil
            pool = nil
        }
        window.onConfigure = { [unowned self] width, height in sizeChanged(width: width, height: height) }
        window.onClose = { [unowned self] in logger.info("the compositor asked to close the window; a kiosk stays open")
        }
        loop.add(fd: signalFD) { [unowned self] in
            let signal = CLecternLinux_signalfd_read(signalFD)
            if signal > 0 {
                logger.info("received signal \(signal), shutting down")
                loop.stop()
            }
        }
        loop.add(fd: worker.wakeFD) { [unowned self] in
            for result in worker.drain() { handle(result) }
        }
        loop.add(fd: loadingTimerFD) { [unowned self] in
            _ = CLecternLinux_timerfd_drain(loadingTimerFD)
            showLoading = true
        }
        loop.add(fd: stopFD) { [unowned self] in
            _ = CLecternLinux_eventfd_drain(stopFD)
            logger.info("asked to stop, shutting down")
            loop.stop()
        }
        loop.add(fd: gestureTimerFD) { [unowned self] in gestureTimerFired() }
        loop.add(fd: idleTimerFD) { [unowned self] in idleTimerFired() }
        loop.add(fd: noticeTimerFD) { [unowned self] in noticeTimerFired() }
        display.onInput = { [unowned self] event in handleInput(event) }
        if let seat = display.seat { logger.info("input devices: \(describe(seat.devices))") }
        restartIdleTimer()
        if let dumper { loop.add(fd: dumper.timerFD) { dumper.timerFired() } }
        loop.onIdle = { [unowned self] in
            drawIfNeeded()
            prefaultFirstBuffer()
            logViewStateIfResting()
        }

        var status: Int32 = 0
        do {
            try loop.run()
        } catch {
            logger.critical("\(error)")
            status = 1
        }
        dumper?.flush()
        return status
    }

    // MARK: Document

    private func handle(_ result: WorkResult) {
        switch result {
        case let .opened(pdf, firstPage):
            logger.info(
                "opened \(pdf.path): \(pdf.pageCount) pages\(pdf.wasRepaired ? " (damaged, repaired)" : "") at \(elapsedMilliseconds) ms"
            )
            let size = window?.size.map { Size(width: Double($0.width), height: Double($0.height)) }
            let reader = Reader(
                document: pdf, firstPage: firstPage,
                configuration: configuration.viewConfiguration(rightToLeft: pdf.isRightToLeft),
                viewport: size ?? Size(width: 1, height: 1),
                budget: configuration.cacheBudget.map(TileBudget.bytes) ?? .automatic)
            if configuration.startPage > 0 {
                try? reader.view.goToPage(min(configuration.startPage, pdf.pageCount - 1))
            }
            document = .open(reader)
            reader.onRequest = { [unowned self] wanted in
                logger.trace("asked for \(wanted.count) tiles at \(elapsedMilliseconds) ms")
            }
            logger.trace("reader ready at \(elapsedMilliseconds) ms")
            startInteractions()
            loop.add(fd: reader.scheduler.wakeFD) { [unowned self] in
                let count = reader.collectTiles()
                logger.trace("\(count) tiles arrived at \(elapsedMilliseconds) ms")
            }
        case let .pageText(texts):
            guard case .open(let reader) = document else { return }
            for (page, text) in texts {
                reader.pageText[page] = text
                reader.pageTextLoading.remove(page)
            }
        case let .openFailed(error):
            document = .failed(error)
            logger.error("\(error)")
        case let .pageGeometries(updates, failures, milliseconds):
            guard case .open(let reader) = document else { return }
            reader.loadingPageSizes = false
            reader.pageSizesKnown = true
            do {
                try reader.view.updatePageGeometries(updates)
            } catch {
                logger.error("cannot use the page sizes: \(error)")
            }
            logger.info(
                "read the sizes of \(reader.document.pageCount) pages in \(milliseconds) ms (\(updates.count) differ from page 1)\(failures > 0 ? " (\(failures) damaged pages keep estimated sizes)" : "")"
            )
        }
    }

    private func sizeChanged(width: Int, height: Int) {
        logger.trace("configured \(width)x\(height) at \(elapsedMilliseconds) ms")
        if !committedPage, !showLoading {
            // Show "opening…" only if the document takes a noticeable time.
            _ = CLecternLinux_timerfd_arm(loadingTimerFD, 300)
        }
        if case .open(let reader) = document {
            // The view state is captured before and restored after (DocumentView keeps the
            // dominant page and the viewport's centre and width).
            reader.view.setViewportSize(Size(width: Double(width), height: Double(height)))
        }
    }

    /// Reads every page's real size on the worker, once the first page is on screen.
    private func loadPageSizesIfNeeded(_ reader: Reader) {
        guard !reader.pageSizesKnown, !reader.loadingPageSizes else { return }
        reader.loadingPageSizes = true
        let pdf = reader.document
        let estimate = reader.view.pages.estimate
        worker.submit {
            let start = ContinuousClock.now
            pdf.loadPageTree()
            // Only pages that differ from the estimate (page 1) are recorded: a uniform
            // document stores nothing per page.
            var updates: [(page: Int, geometry: PageGeometry)] = []
            var failures = 0
            var next = 0
            while next < pdf.pageCount {
                let range = next..<min(pdf.pageCount, next + 512)
                next = range.upperBound
                guard let infos = try? pdf.pageInfos(in: range) else {
                    failures += range.count
                    continue
                }
                for (page, result) in zip(range, infos) {
                    guard case .success(let info) = result, let geometry = try? Reader.geometry(of: info) else {
                        failures += 1
                        continue
                    }
                    if geometry != estimate { updates.append((page, geometry)) }
                }
            }
            pdf.releasePageTree()
            _ = CLecternLinux_malloc_trim()
            let t = (ContinuousClock.now - start).components
            let ms = Int(t.seconds * 1000 + t.attoseconds / 1_000_000_000_000_000)
            return .pageGeometries(updates, failures: failures, milliseconds: ms)
        }
    }

    // MARK: Drawing

    /// The frame to show now, or nil while there is nothing worth a frame yet.
    private func scene(width: Int, height: Int) -> (Scene, TilePlanner.Plan?)? {
        var scene = Scene(width: width, height: height)
        switch document {
        case .opening:
            guard showLoading else { return nil }
            scene.message = .init(title: "Opening…", detail: fileName(configuration.documentPath), isError: false)
            return (scene, nil)
        case let .failed(error):
            scene.message = .init(title: "This document cannot be shown", detail: error.description, isError: true)
            return (scene, nil)
        case let .open(reader):
            let viewport = PixelBox(x: 0, y: 0, width: width, height: height)
            let visible = reader.view.visibleLayout()
            let plan = reader.planner.plan(
                spreads: visible,
                // Nothing competes with the first page for the cores (MuPDF shares locks).
                prefetch: committedPage ? TilePlanner.prefetchPlacements(of: reader.view, visible: visible) : [],
                viewport: viewport,
                zoomChanging: reader.view.isZoomChanging)
            reader.request(plan.wanted)
            guard plan.isSharp || committedPage || showLoading else {
                return nil  // the first frame waits for the sharp page (unless that takes a while)
            }
            scene.shadows = plan.shadows
            scene.pages = plan.pages
            if isUserInterfaceVisible || !pageEntry.isEmpty { scene.chrome = chrome(for: reader) }
            if let notice {
                scene.banner = notice
            } else if reader.document.wasRepaired {
                scene.banner = "This file is damaged: showing what could be recovered."
            } else if plan.showsFailure {
                scene.banner = "Part of this page cannot be shown: it is damaged."
            } else if plan.showsDamage {
                scene.banner = "This page is damaged: parts of it may be missing."
            }
            return (scene, plan)
        }
    }

    private func chrome(for reader: Reader) -> Scene.Chrome {
        let page = reader.view.dominantPage()
        let count = reader.document.pageCount
        let position = pageEntry.isEmpty ? "Page \(page + 1) of \(count)" : "Go to page \(pageEntry)_ of \(count)"
        return Scene.Chrome(
            title: fileName(reader.document.path), position: position,
            progress: count > 1 ? Double(page) / Double(count - 1) : 0,
            isRightToLeft: reader.view.configuration.pageBinding == .rightEdge)
    }

    private func drawIfNeeded() {
        guard let window, let size = window.size else { return }
        if case .open(let reader) = document, reader.view.isAnimating, !window.isWaitingForFrame {
            let running = reader.view.advanceAnimations(to: now)
            logger.trace("animation at \(now): offset \(reader.view.contentOffset) running \(running)")
        }
        // An animation that has nothing new to show this time still needs the loop to come back.
        var animating = false
        if case .open(let reader) = document { animating = reader.view.isAnimating }
        loop.pollTimeout = animating && !window.isWaitingForFrame ? 8 : -1
        guard let (scene, plan) = scene(width: size.width, height: size.height) else { return }
        guard !window.isWaitingForFrame, compositor.damage(for: scene) != nil else { return }
        let buffer: ShmBuffer?
        do {
            buffer = try pool.acquire(width: size.width, height: size.height)
        } catch {
            logger.error("cannot allocate a frame buffer: \(error)")
            return
        }
        guard let buffer else { return }  // all busy: a release wakes the loop
        let damage = compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: buffer.age)
        window.commit(buffer, damage: damage.map { ($0.x, $0.y, $0.width, $0.height) })
        pool.committed(buffer)
        let showsPage = scene.pages.contains { !$0.layers.isEmpty }
        if committedSize.map({ $0 != size }) ?? true || (showsPage && !committedPage) {
            logger.info(
                "frame committed \(size.width)x\(size.height)\(showsPage ? " (page \((plan?.pages.first?.page ?? 0) + 1))" : "") at \(elapsedMilliseconds) ms"
            )
        }
        if let plan, plan.isSharp, plan.sharpPages != lastSharpPages {
            lastSharpPages = plan.sharpPages
            logger.debug(
                "sharp frame committed: pages \(plan.sharpPages.map { String($0 + 1) }.joined(separator: ",")) at \(elapsedMilliseconds) ms"
            )
        }
        committedSize = size
        committedPage = committedPage || showsPage

        if showsPage, case .open(let reader) = document {
            loadPageSizesIfNeeded(reader)
            if let plan { loadPageText(for: plan.sharpPages, reader: reader) }
        }
        dumper?.frameCommitted(pixels: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
    }

    func describe(_ devices: SeatDevices) -> String {
        let names = [(SeatDevices.touch, "touch"), (.pointer, "pointer"), (.keyboard, "keyboard")]
            .filter { devices.contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }

    /// "page 5" or "page 5 viewport x y w h" (PDF points), as the logs and tests read it.
    func describe(_ state: ViewState) -> String {
        var text = "page \(state.pageIndex + 1)"
        if let v = state.viewport {
            func f(_ x: Double) -> String { String((x * 10).rounded() / 10) }
            text += " viewport \(f(v.minX)) \(f(v.minY)) \(f(v.width)) \(f(v.height))"
        }
        return text
    }

    /// Touches the first frame's memory while the first page renders (after it was asked
    /// for), instead of page-faulting it in after.
    private func prefaultFirstBuffer() {
        guard !committedPage, !firstBufferPrefaulted, let size = window?.size,
            let buffer = try? pool.acquire(width: size.width, height: size.height)
        else { return }
        firstBufferPrefaulted = true
        memset(buffer.pixels, 0, buffer.stride * buffer.height)
    }

    /// Logs the view state (debug) whenever the view comes to rest somewhere new.
    private func logViewStateIfResting() {
        guard case .open(let reader) = document, committedPage, !reader.view.isAnimating,
            !reader.view.isInteracting
        else { return }
        let state = reader.view.viewState()
        guard state != lastLoggedState else { return }
        lastLoggedState = state
        logger.debug("view state: \(describe(state))")
    }

    func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
