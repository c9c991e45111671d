import CWaylandProtocols

/// A subsurface of a `TestClient`'s toplevel, with a `wp_viewport`: for testing how the test
/// compositor places, crops, scales and stacks subsurfaces (`TestCompositor.composited`).
/// Synchronized (the default): what it commits takes effect with the toplevel's next commit.
public final class TestSubsurface {
    private let client: TestClient
    private let surface: OpaquePointer
    private let subsurface: OpaquePointer
    private let viewport: OpaquePointer

    /// Nil when the compositor offers no `wl_subcompositor` or `wp_viewporter`, or before the
    /// toplevel exists.
    public init?(of client: TestClient) {
        guard let compositor = client.compositor, let subcompositor = client.subcompositor,
            let viewporter = client.viewporter, let parent = client.surface,
            let surface = wl_compositor_create_surface(compositor)
        else { return nil }
        self.client = client
        self.surface = surface
        subsurface = wl_subcompositor_get_subsurface(subcompositor, surface, parent)
        viewport = wp_viewporter_get_viewport(viewporter, surface)
    }

    /// Attaches a new buffer (1: xrgb8888, 0: argb8888) with `pixel(x, y)` and damages it whole.
    public func draw(width: Int32, height: Int32, format: UInt32 = 1, pixel: (Int, Int) -> UInt32) throws {
        try client.attachBuffer(to: surface, width: width, height: height, format: format, pixel: pixel)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
    }

    /// `wl_subsurface.set_position` (applies with the parent's commit).
    public func setPosition(x: Int32, y: Int32) { wl_subsurface_set_position(subsurface, x, y) }

    /// `wl_subsurface.place_below` / `place_above` the parent.
    public func placeBelowParent() { wl_subsurface_place_below(subsurface, client.surface) }
    public func placeAboveParent() { wl_subsurface_place_above(subsurface, client.surface) }

    /// `wp_viewport.set_source` (nil: unset) and `set_destination` (nil: unset).
    public func setViewport(
        source: (x: Double, y: Double, width: Double, height: Double)?, destination: (width: Int32, height: Int32)?
    ) {
        if let source {
            wp_viewport_set_source(
                viewport, wl_fixed_from_double(source.x), wl_fixed_from_double(source.y),
                wl_fixed_from_double(source.width), wl_fixed_from_double(source.height))
        } else {
            wp_viewport_set_source(
                viewport, wl_fixed_from_int(-1), wl_fixed_from_int(-1), wl_fixed_from_int(-1), wl_fixed_from_int(-1))
        }
        wp_viewport_set_destination(viewport, destination?.width ?? -1, destination?.height ?? -1)
    }

    /// Commits the subsurface's surface.
    public func commit() { wl_surface_commit(surface) }

    /// Destroys the viewport, the subsurface and its surface.
    public func destroy() {
        wp_viewport_destroy(viewport)
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
    }
}
