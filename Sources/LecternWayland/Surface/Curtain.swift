import CWaylandClient
import CWaylandProtocols
import LecternCore

/// Black over a whole surface, drawn by nobody. Where the compositor offers
/// `wp_single_pixel_buffer_manager_v1` and `wp_viewporter` (cage, sway, recent weston), one black
/// pixel stretched over the surface; elsewhere (the test compositor by default, older weston) a
/// shm buffer of the surface's size, which a new memfd's zeros make black in XRGB8888.
/// Attached once when the kiosk closes (`XdgToplevel.lowerCurtain()`); the next frame the window
/// commits replaces it, and a shm buffer goes once the compositor releases it.
final class Curtain {
    /// The black pixel (kept for the next closing: it costs nothing).
    private var pixel: OpaquePointer?
    private var buffer: ShmBuffer?
    /// The compositor holds the shm buffer (attached, not yet released).
    private var isBusy = false
    /// Whether it is the surface's content now, and at what buffer size.
    private(set) var shownSize: (width: Int, height: Int)?

    /// Attaches black over `surfaceSize` (`bufferSize` pixels at the surface's scale) and
    /// commits; false when no buffer could be made.
    func show(
        on surface: OpaquePointer, display: Display, scale: SurfaceScale, surfaceSize: (width: Int, height: Int),
        bufferSize: (width: Int, height: Int), frameScale: DisplayScale
    ) -> Bool {
        if let manager = display.singlePixelBufferManager, scale.stretchOnePixel(over: surfaceSize) {
            if pixel == nil { pixel = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(manager, 0, 0, 0, .max) }
            drop()
            wl_surface_attach(surface, pixel, 0, 0)
            wl_surface_damage_buffer(surface, 0, 0, 1, 1)
        } else {
            guard let shm = display.shm, let buffer = shmBuffer(shm: shm, size: bufferSize) else { return false }
            scale.apply(frameScale, surfaceSize: surfaceSize)
            isBusy = true
            wl_surface_attach(surface, buffer.wlBuffer, 0, 0)
            wl_surface_damage_buffer(surface, 0, 0, Int32(bufferSize.width), Int32(bufferSize.height))
        }
        shownSize = bufferSize
        wl_surface_commit(surface)
        return true
    }

    /// A black shm buffer of `size`, made again when the size changed.
    private func shmBuffer(shm: OpaquePointer, size: (width: Int, height: Int)) -> ShmBuffer? {
        if let buffer, buffer.width != size.width || buffer.height != size.height { drop() }
        if buffer == nil {
            buffer = try? ShmBuffer(
                shm: shm, width: size.width, height: size.height, format: WL_SHM_FORMAT_XRGB8888.rawValue)
            buffer?.onRelease = { [unowned self] in
                isBusy = false
                if shownSize == nil { drop() }
            }
        }
        return buffer
    }

    /// Another buffer was attached over it: a shm buffer goes as soon as the compositor lets it go.
    func replaced() {
        shownSize = nil
        if !isBusy { drop() }
    }

    private func drop() {
        buffer?.destroy()
        buffer = nil
        isBusy = false
    }

    /// Destroys the black pixel (with the surface).
    func destroy() {
        if let pixel { wl_buffer_destroy(pixel) }
        pixel = nil
        drop()
    }
}
