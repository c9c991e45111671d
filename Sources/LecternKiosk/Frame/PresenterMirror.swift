import LecternCore
import LecternLinux
import LecternRender
import LecternWayland
import Logging

/// The presenter mirror: with a second output, a second fullscreen surface on it shows the
/// page the reader shows, aspect-fit (`DocumentView.aspectFitMirrorState`: at least what the
/// reader's screen shows), without the chrome, following every page change and zoom. It takes the
/// reader's contrast, but not large print: that column is sized for the visitor's screen and eyes,
/// and the mirror shows the page it is of (large print's page turns move the reader's view).
///
/// Outputs come and go at run time: the mirror opens on the first output the reader's window
/// is not on, and closes when that output goes away. It renders with its own view, tile cache
/// and render threads over the reader's open document, so the reader's cache keeps its
/// screen's tiles pinned.
final class PresenterMirror {
    private let display: Display
    private let loop: EventLoop
    /// The reader on screen, which the mirror follows.
    private let current: CurrentReader
    private let presenter: FramePresenter
    private let logger: Logger
    /// Whether the policy allows a mirror (`mirror = "off"`, `--mirror off`: never one). Under
    /// cage, which shows one toplevel at a time, a mirror could cover the reader: off is the
    /// way out there.
    private let isEnabled: Bool
    private var screen: MirrorScreen?

    init(
        display: Display, loop: EventLoop, current: CurrentReader, presenter: FramePresenter, isEnabled: Bool,
        logger: Logger
    ) {
        self.isEnabled = isEnabled
        self.display = display
        self.loop = loop
        self.current = current
        self.presenter = presenter
        self.logger = logger
        display.addOutputObserver(self) { [weak self] in self?.outputsChanged() }
        outputsChanged()
    }

    /// The output the mirror is on, the page it shows and the frames it committed (status).
    var status: KioskStatus.Mirror? {
        screen.map { .init(output: $0.outputName, page: $0.shownPage, frames: $0.frameCount) }
    }

    /// Whether the mirror has a frame or tiles still to come.
    var isBusy: Bool { screen?.isBusy ?? false }

    /// Opens the mirror on a second output, or closes it when its output went away.
    private func outputsChanged() {
        if let screen, display.outputs[screen.outputName] == nil {
            logger.info("presenter mirror: its output went away; closed")
            screen.close()
            self.screen = nil
        }
        guard isEnabled, screen == nil, display.outputs.count >= 2 else { return }
        let reader = presenter.outputNames
        let others = display.outputs.keys.sorted().filter { !reader.contains($0) }
        // Before the reader's window is on an output, it is on the first one.
        guard let name = reader.isEmpty ? others.dropFirst().first : others.first,
            let output = display.outputs[name]
        else { return }
        logger.info("presenter mirror: on output \(name)")
        screen = MirrorScreen(
            display: display, output: output, outputName: name, loop: loop, logger: logger)
    }

    /// Follows the reader and draws when something changed (the loop's idle handler).
    func update() {
        screen?.update(following: current.reader, isClosed: presenter.isClosed)
    }

    /// Closes the mirror (shutdown).
    func close() {
        display.removeOutputObserver(self)
        screen?.close()
        screen = nil
    }
}

/// The mirror's surface on one output, and what it renders with.
private final class MirrorScreen {
    let outputName: UInt32
    private let window: XdgToplevel
    private let pool: ShmBufferPool
    private let compositor: FrameCompositor
    private let loop: EventLoop
    private let logger: Logger
    /// The mirror's own view, cache and render threads over the followed reader's document.
    private var mirror: Reader?
    private weak var followed: Reader?
    private var followedState: ViewState?
    private var followedPageCount = 0
    private let frame: FrameRequest
    private let callbackWatchdog: FrameCallbackWatchdog
    private(set) var frameCount = 0
    private(set) var shownPage: Int?

    init(display: Display, output: Output, outputName: UInt32, loop: EventLoop, logger: Logger) {
        self.outputName = outputName
        self.loop = loop
        self.logger = logger
        frame = FrameRequest(clock: loop.clock)
        window = XdgToplevel(
            display: display, title: "Lectern mirror", appID: "lectern-mirror", logger: logger, fullscreenOn: output,
            receivesInput: false)
        pool = display.makeBufferPool()
        compositor = FrameCompositor(logger: logger)
        callbackWatchdog = FrameCallbackWatchdog(window: window, loop: loop, logger: logger, name: "mirror")
        window.onConfigure = { [unowned self] _, _ in frame.request() }
        window.onScaleChange = { [unowned self] in frame.request() }
    }

    var isBusy: Bool { (frame.isRequested && window.isConfigured) || (mirror?.scheduler.isBusy ?? false) }

    func update(following reader: Reader?, isClosed: Bool) {
        guard let size = window.size else { return }
        // Closed: the curtain here too; the first frame after it is drawn whole.
        if isClosed {
            if !window.isCurtainDown, window.lowerCurtain() {
                compositor.forgetLastScene()
                frame.request()
            }
            return
        }
        let units = Size(width: Double(size.width), height: Double(size.height))
        if reader !== followed { follow(reader, size: units) }
        if let reader, let mirror {
            if reader.view.pages.count != followedPageCount {
                // The real page count or sizes arrived: the same pages as the reader's.
                mirror.view = DocumentView(
                    pages: reader.view.pages, configuration: reader.view.configuration, viewportSize: units)
                followedPageCount = reader.view.pages.count
                followedState = nil
            }
            if mirror.view.viewportSize != units {
                mirror.view.setViewportSize(units)
                followedState = nil
            }
            // The reader's contrast: its tiles are rendered in it, and so are the mirror's.
            if reader.planner.contrast != mirror.planner.contrast {
                mirror.planner.contrast = reader.planner.contrast
                frame.request()
            }
            let state = reader.view.aspectFitMirrorState(reader.view.viewState(), mirrorViewportSize: units)
            if state != followedState {
                // The first state is jumped to; the next ones are moved to, as the reader moves.
                let animated = followedState != nil
                followedState = state
                try? mirror.view.restore(state, animated: animated, at: loop.clock.now)
                frame.request()
            }
            if mirror.view.isAnimating {
                mirror.view.advanceAnimations(to: loop.clock.now)
                frame.request()
            }
        }
        guard frame.isRequested, !window.isWaitingForFrame else {
            if frame.isRequested { callbackWatchdog.frameWanted() }
            return
        }
        frame.take()
        draw(size: size)
    }

    /// Starts following `reader` (a document opened, or a new version of it).
    private func follow(_ reader: Reader?, size: Size) {
        mirror?.stop(before: ContinuousClock.now + .milliseconds(500))
        mirror = nil
        followed = reader
        followedState = nil
        frame.request()
        guard let reader else { return }
        do {
            let mirror = try Reader(
                document: reader.document, pages: reader.view.pages, configuration: reader.view.configuration,
                viewport: size, budget: .automatic)
            mirror.deliverTiles(on: loop) { [unowned self] count in
                if count > 0 { frame.request() }
            }
            self.mirror = mirror
            followedPageCount = reader.view.pages.count
        } catch {
            logger.error("presenter mirror: cannot render: \(error)")
        }
    }

    private func draw(size: (width: Int, height: Int)) {
        let scale = window.scale
        let pixels = (width: scale.pixels(size.width), height: scale.pixels(size.height))
        var scene = Scene(width: size.width, height: size.height, scale: scale)
        if let mirror {
            scene.palette = Palette(mirror.planner.contrast)
            let plan = mirror.plan(size: pixels, prefetching: false, scale: scale, contrast: mirror.planner.contrast)
            scene.shadows = plan.shadows
            scene.pages = plan.pages
            shownPage = plan.pages.isEmpty ? nil : mirror.view.dominantPage()
        }
        guard compositor.damage(for: scene) != nil else { return frame.dropped() }
        let commit = window.commit(scene, drawnBy: compositor, from: pool, logger: logger)
        if commit.allBusy { frame.request() }  // a release wakes the loop
        if commit.buffer != nil {
            _ = frame.shown()
            frameCount += 1
        }
    }

    func close() {
        mirror?.stop(before: ContinuousClock.now + .milliseconds(500))
        callbackWatchdog.close()
        window.onConfigure = nil
        window.onScaleChange = nil
    }
}
