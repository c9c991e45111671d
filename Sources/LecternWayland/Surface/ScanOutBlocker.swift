import CWaylandClient

/// A 1×1 transparent subsurface at a toplevel's corner that takes no input: with it, the
/// toplevel is never a lone surface, so a compositor never scans its buffer out directly and
/// always composites it.
///
/// Why: sway 1.7 scans a fullscreen view that is a single surface straight out to its output
/// when the output takes the buffer (a headless output takes an shm buffer; DRM does not), and
/// damages the whole output when scan-out stops, so that the next composited frame repaints
/// what scan-out showed. Whether scan-out just stopped is one `static bool` for all outputs,
/// though (`output_repaint_timer_handler`): with two outputs, one of which does not scan out
/// (the reader's, under a software cursor), the flag is false whenever the other stops scanning
/// out (`wlr_screencopy` stops it for a capture), so that output is composited onto a stale
/// buffer and shows sway's background, not Lectern's frames, until something damages it whole
/// (its getting the focus). So the presenter mirror, which drew and got its frame callbacks all
/// along, was blank in every capture of its output (grim; a VNC server sees the same); and the
/// reader's output likewise once only the mirror was composited. A surface that is never
/// scanned out never touches the flag, and is composited with its damage like any other.
///
/// The subsurface is synchronized (the default): its one commit takes effect with the
/// toplevel's next commit. Nothing is drawn into it again; its buffer stays attached.
final class ScanOutBlocker {
    private let surface: OpaquePointer
    private let subsurface: OpaquePointer
    private let buffer: ShmBuffer

    /// Nil when the compositor offers no `wl_subcompositor` (nothing to block then: the test
    /// compositor) or the buffer cannot be made.
    init?(parent: OpaquePointer, display: Display) {
        guard let subcompositor = display.subcompositor, let compositor = display.compositor,
            let shm = display.shm,
            // argb8888: every wl_shm has it, and its 0 pixel (a new memfd's) is transparent.
            let buffer = try? ShmBuffer(shm: shm, width: 1, height: 1, format: WL_SHM_FORMAT_ARGB8888.rawValue),
            let surface = wl_compositor_create_surface(compositor)
        else { return nil }
        self.buffer = buffer
        self.surface = surface
        subsurface = wl_subcompositor_get_subsurface(subcompositor, surface, parent)
        // An empty input region: touches and clicks at the corner reach the toplevel.
        let empty = wl_compositor_create_region(compositor)
        wl_surface_set_input_region(surface, empty)
        wl_region_destroy(empty)
        wl_surface_attach(surface, buffer.wlBuffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, 1, 1)
        wl_surface_commit(surface)
    }

    /// Destroys the subsurface (before its parent).
    func destroy() {
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
        buffer.destroy()
    }
}
