import CLecternLinux
import Glibc
import LecternPDF
import LecternRender
import LecternWayland
import Logging

/// Lectern's main loop: one fullscreen window showing the document, rendering off the
/// Wayland thread, drawing only when something changed and the compositor wants a frame.
public final class KioskApp {
    private enum WorkResult: Sendable {
        case opened(PDFDocument, firstPage: PageInfo)
        case openFailed(PDFError)
        /// `warning`: MuPDF skipped damaged content; the image holds the rest of the page.
        case rendered(RasterImage, RenderRequest, warning: PDFError?)
        case renderFailed(PDFError, RenderRequest)
    }

    /// One render of a page at one size.
    private struct RenderRequest: Equatable, Sendable {
        var page: Int
        var scale: Double
        var width: Int
        var height: Int
    }

    private enum DocumentState {
        case opening
        case open(PDFDocument, firstPage: PageInfo)
        case failed(PDFError)
    }

    private let configuration: KioskConfiguration
    private let logger: Logger
    private let startTime = ContinuousClock.now

    private var document: DocumentState = .opening
    private var requested: RenderRequest?
    /// Identifies each render for the compositor's damage tracking.
    private var renderCount = 0
    private var pageImage: (image: RasterImage, request: RenderRequest)?
    private var renderError: PDFError?
    private var renderWarning: PDFError?
    private var showLoading = false
    private var committedSize: (width: Int, height: Int)?
    private var committedPage = false

    private var worker: RenderWorker<WorkResult>!
    private var window: XdgToplevel!
    private var pool: ShmBufferPool!
    private var loop: EventLoop!
    private var compositor: FrameCompositor!
    private var dumper: FrameDumper?
    private var loadingTimerFD: Int32 = -1

    public init(configuration: KioskConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
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
        defer { if loadingTimerFD >= 0 { close(loadingTimerFD) } }
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
            display = try Display(logger: logger)
        } catch {
            logger.critical("\(error)")
            return 1
        }
        let status = run(display: display, signalFD: signalFD)
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
        if let dumper { loop.add(fd: dumper.timerFD) { dumper.timerFired() } }
        loop.onIdle = { [unowned self] in drawIfNeeded() }

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

    // MARK: Document and rendering

    private func handle(_ result: WorkResult) {
        switch result {
        case let .opened(document, firstPage):
            self.document = .open(document, firstPage: firstPage)
            logger.info(
                "opened \(document.path): \(document.pageCount) pages\(document.wasRepaired ? " (damaged, repaired)" : "")"
            )
            requestRenderIfNeeded()
        case let .openFailed(error):
            document = .failed(error)
            logger.error("\(error)")
        case let .rendered(image, request, warning):
            guard request == requested else { return }  // a newer size was asked for meanwhile
            pageImage = (image, request)
            renderError = nil
            renderWarning = warning
            if let warning { logger.warning("\(warning)") }
        case let .renderFailed(error, request):
            guard request == requested else { return }
            renderError = error
            logger.error("\(error)")
        }
    }

    private func sizeChanged(width: Int, height: Int) {
        if case .opening = document, !showLoading {
            // Show "opening…" only if the document takes a noticeable time.
            _ = CLecternLinux_timerfd_arm(loadingTimerFD, 300)
        }
        requestRenderIfNeeded()
    }

    /// Where the first page sits, fitted into the window with a margin.
    private func pageFrame(for info: PageInfo, width: Int, height: Int) -> (frame: PixelBox, scale: Double) {
        let margin = Double(configuration.pageMargin)
        let pageWidth = max(1, info.displaySize.width), pageHeight = max(1, info.displaySize.height)
        let scale = max(0.01, min((Double(width) - 2 * margin) / pageWidth, (Double(height) - 2 * margin) / pageHeight))
        let w = max(1, Int((pageWidth * scale).rounded())), h = max(1, Int((pageHeight * scale).rounded()))
        return (PixelBox(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h), scale)
    }

    private func requestRenderIfNeeded() {
        guard case let .open(document, info) = document, let size = window?.size else { return }
        let (frame, scale) = pageFrame(for: info, width: size.width, height: size.height)
        let request = RenderRequest(page: 0, scale: scale, width: frame.width, height: frame.height)
        guard request != requested else { return }
        requested = request
        renderCount += 1
        let contentID = renderCount
        worker.submit {
            let image = RasterImage(width: request.width, height: request.height, contentID: contentID)
            do throws(PDFError) {
                try document.render(
                    page: request.page, scale: request.scale,
                    region: PixelRect(x: 0, y: 0, width: request.width, height: request.height),
                    into: image.pixels, stride: image.stride)
                return .rendered(image, request, warning: nil)
            } catch  where error.kind == .renderIncomplete {
                return .rendered(image, request, warning: error)
            } catch {
                return .renderFailed(error, request)
            }
        }
    }

    // MARK: Drawing

    /// The frame to show now, or nil while there is nothing worth a frame yet.
    private func scene(width: Int, height: Int) -> Scene? {
        var scene = Scene(width: width, height: height)
        switch document {
        case .opening:
            guard showLoading else { return nil }
            scene.message = .init(title: "Opening…", detail: fileName(configuration.documentPath), isError: false)
        case let .failed(error):
            scene.message = .init(title: "This document cannot be shown", detail: error.description, isError: true)
        case let .open(document, info):
            if let renderError {
                scene.message = .init(
                    title: "This page cannot be shown", detail: renderError.description, isError: true)
            } else if let pageImage {
                scene.pages = [
                    .init(
                        contentID: pageImage.image.contentID,
                        frame: pageFrame(for: info, width: width, height: height).frame)
                ]
            } else {
                guard showLoading else { return nil }
                scene.message = .init(title: "Opening…", detail: fileName(configuration.documentPath), isError: false)
            }
            if document.wasRepaired {
                scene.banner = "This file is damaged: showing what could be recovered."
            } else if renderWarning != nil {
                scene.banner = "This page is damaged: parts of it may be missing."
            }
        }
        return scene
    }

    private func drawIfNeeded() {
        guard let window, let size = window.size, !window.isWaitingForFrame,
            let scene = scene(width: size.width, height: size.height),
            compositor.damage(for: scene) != nil
        else { return }
        let buffer: ShmBuffer?
        do {
            buffer = try pool.acquire(width: size.width, height: size.height)
        } catch {
            logger.error("cannot allocate a frame buffer: \(error)")
            return
        }
        guard let buffer else { return }  // all busy: a release wakes the loop
        var images: [Int: RasterImage] = [:]
        if let pageImage { images[pageImage.image.contentID] = pageImage.image }
        let damage = compositor.draw(
            scene, images: images, into: buffer.pixels, stride: buffer.stride, bufferAge: buffer.age)
        window.commit(buffer, damage: damage.map { ($0.x, $0.y, $0.width, $0.height) })
        pool.committed(buffer)
        let showsPage = !scene.pages.isEmpty
        if committedSize.map({ $0 != size }) ?? true || (showsPage && !committedPage) {
            let ms = (ContinuousClock.now - startTime).components
            let elapsed = ms.seconds * 1000 + ms.attoseconds / 1_000_000_000_000_000
            logger.info("frame committed \(size.width)x\(size.height)\(showsPage ? " (page 1)" : "") at \(elapsed) ms")
        }
        committedSize = size
        committedPage = committedPage || showsPage
        dumper?.frameCommitted(pixels: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
    }

    private func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
