import CWaylandClient
import LecternCore

/// Black over a whole surface, drawn by nobody: a new memfd is zeros, which an XRGB8888 buffer
/// shows as black. Attached once when the kiosk closes (`XdgToplevel.lowerCurtain()`); the next
/// frame the window commits replaces it, and its buffer goes once the compositor releases it.
final class Curtain {
    private var buffer: ShmBuffer?
    /// The compositor holds the buffer (attached, not yet released).
    private var isBusy = false
    /// Whether it is the surface's content now, and at what buffer size.
    private(set) var shownSize: (width: Int, height: Int)?

    /// Attaches black of `size` buffer pixels to `surface` and commits; false when no buffer
    /// could be made.
    func show(on surface: OpaquePointer, shm: OpaquePointer, size: (width: Int, height: Int)) -> Bool {
        if let buffer, buffer.width != size.width || buffer.height != size.height { drop() }
        if buffer == nil {
            guard
                let made = try? ShmBuffer(
                    shm: shm, width: size.width, height: size.height, format: WL_SHM_FORMAT_XRGB8888.rawValue)
            else { return false }
            made.onRelease = { [unowned self] in
                isBusy = false
                if shownSize == nil { drop() }
            }
            buffer = made
        }
        isBusy = true
        shownSize = size
        wl_surface_attach(surface, buffer?.wlBuffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(size.width), Int32(size.height))
        wl_surface_commit(surface)
        return true
    }

    /// Another buffer was attached over it: its own goes as soon as the compositor lets it go.
    func replaced() {
        shownSize = nil
        if !isBusy { drop() }
    }

    private func drop() {
        buffer?.destroy()
        buffer = nil
        isBusy = false
    }
}
