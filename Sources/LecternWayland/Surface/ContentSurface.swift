import CWaylandClient
import CWaylandProtocols

/// A subsurface below its parent (a window) that shows part of a buffer larger than the window
/// through a `wp_viewport`: the window's pages drawn with a margin around them. A pan that
/// stays within the margin moves the viewport's source rectangle and commits; nothing is
/// attached and nothing copied, the compositor shows another part of the buffer it holds.
///
/// Synchronized (the default): what it commits takes effect with the parent's next commit, so
/// the pages and the window's chrome (the parent's buffer, transparent where the pages show)
/// change together. It takes no input: touches reach the parent.
public final class ContentSurface {
    private let surface: OpaquePointer
    private let subsurface: OpaquePointer
    private let viewport: OpaquePointer
    /// Whether a buffer is attached (a `hide` detaches it).
    public private(set) var isShown = false

    init?(parent: OpaquePointer, display: Display) {
        guard let subcompositor = display.subcompositor, let viewporter = display.viewporter,
            let compositor = display.compositor, let surface = wl_compositor_create_surface(compositor)
        else { return nil }
        self.surface = surface
        subsurface = wl_subcompositor_get_subsurface(subcompositor, surface, parent)
        viewport = wp_viewporter_get_viewport(viewporter, surface)
        wl_subsurface_place_below(subsurface, parent)
        let empty = wl_compositor_create_region(compositor)
        wl_surface_set_input_region(surface, empty)
        wl_region_destroy(empty)
    }

    /// Shows the `width`×`height` part of `buffer` at (`x`, `y`) over the whole parent, which is
    /// `width`×`height` surface units: attaches it (nil: the buffer attached stays) with `damage`
    /// (buffer pixels), sets the source rectangle and commits.
    public func show(
        _ buffer: ShmBuffer?, damage: [(x: Int, y: Int, width: Int, height: Int)], x: Int, y: Int, width: Int,
        height: Int
    ) {
        if let buffer {
            wl_surface_attach(surface, buffer.wlBuffer, 0, 0)
            isShown = true
        }
        for rect in damage {
            wl_surface_damage_buffer(surface, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
        wp_viewport_set_source(
            viewport, wl_fixed_from_int(Int32(x)), wl_fixed_from_int(Int32(y)), wl_fixed_from_int(Int32(width)),
            wl_fixed_from_int(Int32(height)))
        wp_viewport_set_destination(viewport, Int32(width), Int32(height))
        wl_surface_commit(surface)
    }

    /// Detaches its buffer (the compositor may release it) and commits.
    public func hide() {
        guard isShown else { return }
        isShown = false
        wl_surface_attach(surface, nil, 0, 0)
        wl_surface_commit(surface)
    }

    /// Destroys the viewport, the subsurface and its surface (before the parent).
    public func destroy() {
        wp_viewport_destroy(viewport)
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
    }
}
