import CWaylandClient
import CWaylandProtocols
import LecternCore
import Logging

/// A fullscreen `xdg_toplevel` with its `wl_surface`: configure handling (ack before
/// attaching; 0x0 means "use the output size"), one frame callback at a time, the scale
/// its buffers are drawn at (`SurfaceScale`), and a subsurface that keeps the compositor
/// compositing it rather than scanning its buffers out (`ScanOutBlocker`).
public final class XdgToplevel {
    public let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private let display: Display
    private let logger: Logger
    private let surfaceListener: Listener<xdg_surface_listener>
    private let toplevelListener: Listener<xdg_toplevel_listener>
    private let callbackListener: Listener<wl_callback_listener>
    private var frameCallback: OpaquePointer?
    private var pendingSize: (width: Int, height: Int) = (0, 0)
    /// The output it asked to be fullscreen on, if one.
    private weak var fullscreenOutput: Output?
    /// The density the buffers are drawn at, and how the compositor is told.
    private let surfaceScale: SurfaceScale
    /// Keeps the compositor from scanning the buffers out directly (nil: no `wl_subcompositor`).
    private let scanOutBlocker: ScanOutBlocker?
    /// Black over the surface while the kiosk is closed.
    private let curtain = Curtain()
    /// A transparent pixel (`commitClear`), made at its first use.
    private var clearPixel: OpaquePointer?

    /// The size of the last acknowledged configure, in surface coordinates; nil before the first.
    public private(set) var size: (width: Int, height: Int)?
    /// The size the last configure asked for (a 0x0 one resolved), before `fitted`: larger
    /// than `size` when it was too big for a buffer.
    public private(set) var requestedSize: (width: Int, height: Int)?
    /// True from the first configure on: a buffer may be attached.
    public var isConfigured: Bool { size != nil }
    /// True while a frame callback is outstanding: do not commit another frame yet.
    public var isWaitingForFrame: Bool { frameCallback != nil }
    /// Frames committed with a frame callback so far.
    public private(set) var framesCommitted = 0

    /// The largest window Lectern draws, in pixels per side and in all: a larger configure (a
    /// compositor's mistake, or a 16384×16384 output) gets a window scaled down to fit, which the
    /// compositor centers as it does any fullscreen surface smaller than its output. 8K UHD
    /// (7680×4320, 127 MiB per buffer) is the largest screen a kiosk is expected to drive.
    public static let maximumSide = 8192
    public static let maximumArea = 7680 * 4320

    /// Called after a configure was acknowledged with the (possibly unchanged) new size.
    public var onConfigure: ((_ width: Int, _ height: Int) -> Void)?
    /// Called when the compositor asks the window to close (a kiosk may ignore it).
    public var onClose: (() -> Void)?
    /// Called when the scale changed (another output, `wl_output.scale`, a preferred fractional
    /// scale): the next frame is drawn at `scale`.
    public var onScaleChange: (() -> Void)? {
        get { surfaceScale.onChange }
        set { surfaceScale.onChange = newValue }
    }

    /// The registry names of the outputs the surface is on.
    public var outputNames: Set<UInt32> { surfaceScale.outputNames }

    /// Buffer pixels per surface unit for the next frame.
    public var scale: DisplayScale { surfaceScale.scale }

    /// The size a frame's buffer has: the window's size at `scale` (nil before the first configure).
    public var bufferSize: (width: Int, height: Int)? {
        size.map { (scale.pixels($0.width), scale.pixels($0.height)) }
    }

    /// - Parameters:
    ///   - output: the output to be fullscreen on (nil: the compositor chooses).
    ///   - receivesInput: whether input on this surface reaches `display.onInput` (not a mirror's).
    public init(
        display: Display, title: String, appID: String, logger: Logger, fullscreenOn output: Output? = nil,
        receivesInput: Bool = true
    ) {
        self.display = display
        self.logger = logger
        surface = wl_compositor_create_surface(display.compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(display.wmBase, surface)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        surfaceScale = SurfaceScale(surface: surface, display: display, logger: logger)
        // Before the initial commit, which applies the subsurface's state.
        scanOutBlocker = ScanOutBlocker(parent: surface, display: display)
        surfaceListener = Listener(
            xdg_surface_listener(configure: { data, xdgSurface, serial in
                guard let data else { return }
                xdg_surface_ack_configure(xdgSurface, serial)
                Unmanaged<XdgToplevel>.fromOpaque(data).takeUnretainedValue().configured()
            }))
        toplevelListener = Listener(
            xdg_toplevel_listener(
                configure: { data, _, width, height, _ in
                    guard let data else { return }
                    Unmanaged<XdgToplevel>.fromOpaque(data).takeUnretainedValue().pendingSize = (
                        Int(width), Int(height)
                    )
                },
                close: { data, _ in
                    guard let data else { return }
                    Unmanaged<XdgToplevel>.fromOpaque(data).takeUnretainedValue().onClose?()
                },
                configure_bounds: { _, _, _, _ in },
                wm_capabilities: { _, _, _ in }))
        callbackListener = Listener(
            wl_callback_listener(done: { data, callback, _ in
                guard let data else { return }
                wl_callback_destroy(callback)
                let window = Unmanaged<XdgToplevel>.fromOpaque(data).takeUnretainedValue()
                // The loop's idle handlers see `isWaitingForFrame` turn false and draw.
                window.frameCallback = nil
            }))
        let me = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, surfaceListener.pointer, me)
        xdg_toplevel_add_listener(toplevel, toplevelListener.pointer, me)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, appID)
        fullscreenOutput = output
        xdg_toplevel_set_fullscreen(toplevel, output?.proxy)
        wl_surface_commit(surface)
        // Input on this surface reaches `display.onInput`.
        if receivesInput { display.inputSurface = surface }
    }

    private func configured() {
        // Input that arrived before this configure (a touch-up waiting for a frame event that
        // cage never sends) is delivered first, at the size it was made on.
        display.flushInput()
        var (width, height) = pendingSize
        if width <= 0 || height <= 0 {
            // 0x0: the compositor lets us choose. Fullscreen: the output's size (none: the size
            // the window had, as when the output went away).
            let fallback = fullscreenOutput?.logicalSize ?? display.outputSize ?? size ?? (1280, 720)
            if width <= 0 { width = fallback.width }
            if height <= 0 { height = fallback.height }
        }
        requestedSize = (width, height)
        let fitted = Self.fitted(width: width, height: height)
        if fitted != (width, height) {
            logger.warning(
                "the compositor asked for a \(width)x\(height) window; drawing \(fitted.width)x\(fitted.height)")
            (width, height) = fitted
        }
        let changed = size.map { $0 != (width, height) } ?? true
        size = (width, height)
        if changed { logger.debug("configured \(width)x\(height)") }
        onConfigure?(width, height)
    }

    /// `width`×`height` scaled down, keeping its aspect ratio, to at most `maximumSide` pixels
    /// per side and `maximumArea` in all (unchanged if it fits).
    public static func fitted(width: Int, height: Int) -> (width: Int, height: Int) {
        let w = Double(width)
        let h = Double(height)
        let scale = min(
            1, Double(maximumSide) / w, Double(maximumSide) / h, (Double(maximumArea) / (w * h)).squareRoot())
        guard scale < 1 else { return (width, height) }
        return (max(1, Int(w * scale)), max(1, Int(h * scale)))
    }

    /// Whether the curtain is what the surface shows, at the size a frame's buffer has now.
    public var isCurtainDown: Bool {
        guard let shown = curtain.shownSize, let bufferSize else { return false }
        return shown == bufferSize
    }

    /// Shows black over the whole surface, drawn by nobody and with no frame callback: nothing
    /// more is committed until the next frame (`commit`), which lifts it. Does nothing before the
    /// first configure; false when its buffer could not be made.
    @discardableResult
    public func lowerCurtain() -> Bool {
        guard let size, let bufferSize else { return false }
        return curtain.show(
            on: surface, display: display, scale: surfaceScale, surfaceSize: size, bufferSize: bufferSize,
            frameScale: scale)
    }

    /// Attaches `buffer` (drawn at `scale`; nil: the buffer attached stays, and only what its
    /// subsurfaces committed takes effect), damages `damage` (buffer coordinates), asks for a
    /// frame callback and commits. Precondition: configured and no frame callback outstanding.
    /// With `presented`, and where the compositor offers `wp_presentation`, it is told when the
    /// frame reached the screen (nil: it never did).
    public func commit(
        _ buffer: ShmBuffer?, scale: DisplayScale, damage: [(x: Int, y: Int, width: Int, height: Int)],
        presented: ((Presented?) -> Void)? = nil
    ) {
        precondition(frameCallback == nil, "one frame callback at a time")
        precondition(isConfigured, "attach only after the first configure was acknowledged")
        // How a buffer maps onto the surface goes with the buffer (none: the one attached stays).
        if let size, buffer != nil { surfaceScale.apply(scale, surfaceSize: size) }
        if let buffer {
            wl_surface_attach(surface, buffer.wlBuffer, 0, 0)
            curtain.replaced()
        }
        for rect in damage {
            wl_surface_damage_buffer(surface, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
        commitFrame(presented: presented)
    }

    /// Whether `commitClear` can show nothing of the surface's own without a buffer of its size:
    /// `wp_single_pixel_buffer_manager_v1` and `wp_viewporter` are offered.
    public var canCommitClear: Bool { display.singlePixelBufferManager != nil && display.viewporter != nil }

    /// Attaches one transparent pixel stretched over the whole surface (`wp_single_pixel_buffer_v1`
    /// and the viewport), so that only its subsurfaces show, asks for a frame callback and
    /// commits; false (nothing done) where `canCommitClear` is false. Preconditions as `commit`.
    @discardableResult
    public func commitClear(presented: ((Presented?) -> Void)? = nil) -> Bool {
        precondition(frameCallback == nil, "one frame callback at a time")
        guard let manager = display.singlePixelBufferManager, let size, surfaceScale.stretchOnePixel(over: size) else {
            return false
        }
        if clearPixel == nil {
            clearPixel = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(manager, 0, 0, 0, 0)
        }
        wl_surface_attach(surface, clearPixel, 0, 0)
        curtain.replaced()
        wl_surface_damage_buffer(surface, 0, 0, 1, 1)
        commitFrame(presented: presented)
        return true
    }

    /// Asks for presentation feedback (with `presented`) and a frame callback, and commits.
    private func commitFrame(presented: ((Presented?) -> Void)?) {
        if let presented, let presentation = display.presentation {
            PresentationFeedback.request(
                display: display, presentation: presentation, surface: surface, then: presented)
        }
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, callbackListener.pointer, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_commit(surface)
        framesCommitted += 1
    }

    /// Stops waiting for the outstanding frame callback (its `done`, if it ever comes, is
    /// ignored): the next frame may be committed now.
    public func stopWaitingForFrame() {
        guard let frameCallback else { return }
        wl_callback_destroy(frameCallback)
        self.frameCallback = nil
    }

    /// A subsurface below this surface for its pages (nil: the compositor lacks
    /// `wl_subcompositor` or `wp_viewporter`). Destroy it before the window.
    public func makeContentSurface() -> ContentSurface? {
        ContentSurface(parent: surface, display: display)
    }

    deinit {
        if display.inputSurface == surface { display.inputSurface = nil }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        curtain.destroy()
        if let clearPixel { wl_buffer_destroy(clearPixel) }
        surfaceScale.destroy()
        scanOutBlocker?.destroy()
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
    }
}
