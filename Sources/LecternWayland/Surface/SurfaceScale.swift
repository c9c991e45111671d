import CWaylandClient
import CWaylandProtocols
import LecternCore
import Logging

/// The density a surface's buffers are drawn at, and how the compositor is told (foot and
/// GTK do the same):
/// - with `wp_viewporter` and `wp_fractional_scale_manager_v1`, the compositor's preferred
///   scale (`wp_fractional_scale_v1.preferred_scale`: 1.25, 1.5, 2…), a buffer of
///   ceil(size × scale) pixels and a viewport whose destination is the surface size;
/// - else the largest `wl_output.scale` of the outputs the surface is on (`wl_surface.enter`
///   and `leave`; before the first `enter`, of every output) and `wl_surface.set_buffer_scale`.
///
/// Output rotation needs nothing here: the compositor rotates the logical size it configures,
/// and rotates the buffer onto the screen.
final class SurfaceScale {
    private let surface: OpaquePointer
    private unowned let display: Display
    private let logger: Logger
    private let surfaceListener: Listener<wl_surface_listener>
    private let fractionalListener: Listener<wp_fractional_scale_v1_listener>
    private var fractional: OpaquePointer?
    private var viewport: OpaquePointer?
    /// The outputs the surface is on (`wl_output` proxies).
    private var entered: [OpaquePointer] = []
    /// `wp_fractional_scale_v1.preferred_scale`, once sent.
    private var preferred: Int?
    /// What the compositor was last told: the buffer scale, or the viewport's destination.
    private var appliedBufferScale = 1
    private var appliedDestination: (width: Int, height: Int)?
    /// The scale the last `onChange` reported.
    private(set) var scale = DisplayScale.one
    /// Called when `scale` changed.
    var onChange: (() -> Void)?

    init(surface: OpaquePointer, display: Display, logger: Logger) {
        self.surface = surface
        self.display = display
        self.logger = logger
        surfaceListener = Listener(
            wl_surface_listener(
                enter: { data, _, output in
                    guard let data, let output else { return }
                    let me = Unmanaged<SurfaceScale>.fromOpaque(data).takeUnretainedValue()
                    me.entered.append(output)
                    me.update()
                },
                leave: { data, _, output in
                    guard let data, let output else { return }
                    let me = Unmanaged<SurfaceScale>.fromOpaque(data).takeUnretainedValue()
                    me.entered.removeAll { $0 == output }
                    me.update()
                }))
        fractionalListener = Listener(
            wp_fractional_scale_v1_listener(preferred_scale: { data, _, numerator in
                guard let data else { return }
                let me = Unmanaged<SurfaceScale>.fromOpaque(data).takeUnretainedValue()
                me.preferred = Int(numerator)
                me.update()
            }))
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_surface_add_listener(surface, surfaceListener.pointer, me)
        // A viewport whenever there is a viewporter: fractional scales need it, and so does the
        // curtain's one pixel (`stretchOnePixel`).
        if let viewporter = display.viewporter {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            if let manager = display.fractionalScaleManager {
                fractional = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
                wp_fractional_scale_v1_add_listener(fractional, fractionalListener.pointer, me)
            }
        }
        display.addOutputObserver(self) { [weak self] in self?.update() }
        scale = current
    }

    /// The registry names of the outputs the surface is on.
    var outputNames: Set<UInt32> { Set(entered.compactMap { display.output(proxy: $0)?.globalName }) }

    /// The scale the compositor asks for now.
    private var current: DisplayScale {
        if let preferred, fractional != nil { return DisplayScale(numerator: preferred) }
        let on = entered.compactMap { display.output(proxy: $0) }
        let outputs = on.isEmpty ? Array(display.outputs.values) : on
        return DisplayScale(integer: outputs.map(\.scale).max() ?? 1)
    }

    private func update() {
        let next = current
        guard next != scale else { return }
        logger.info("drawing at scale \(next)")
        scale = next
        onChange?()
    }

    /// Tells the compositor how the next buffer maps onto the surface (before its commit):
    /// the viewport's destination, or the buffer scale. Only what changed is sent.
    func apply(_ scale: DisplayScale, surfaceSize: (width: Int, height: Int)) {
        if fractional != nil {
            setDestination(surfaceSize)
            return
        }
        // Without fractional scales only a whole scale can be said (a fractional one cannot occur
        // then), and the viewport (if any) has no destination.
        setDestination(nil)
        setBufferScale(max(1, scale.numerator / 120))
    }

    /// Tells the compositor to stretch a 1×1 buffer over the whole surface (before its commit);
    /// false without a viewport. The next `apply` puts the frames' mapping back.
    func stretchOnePixel(over surfaceSize: (width: Int, height: Int)) -> Bool {
        guard viewport != nil else { return false }
        setDestination(surfaceSize)
        setBufferScale(1)
        return true
    }

    private func setDestination(_ size: (width: Int, height: Int)?) {
        guard let viewport else { return }
        switch (size, appliedDestination) {
        case (nil, nil): return
        case (let size?, let applied?) where size == applied: return
        default: break
        }
        appliedDestination = size
        wp_viewport_set_destination(viewport, Int32(size?.width ?? -1), Int32(size?.height ?? -1))
    }

    private func setBufferScale(_ bufferScale: Int) {
        guard bufferScale != appliedBufferScale else { return }
        appliedBufferScale = bufferScale
        wl_surface_set_buffer_scale(surface, Int32(bufferScale))
    }

    /// Destroys the protocol objects (before the surface).
    func destroy() {
        display.removeOutputObserver(self)
        if let viewport { wp_viewport_destroy(viewport) }
        if let fractional { wp_fractional_scale_v1_destroy(fractional) }
        viewport = nil
        fractional = nil
    }
}
