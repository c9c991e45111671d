import CWaylandServer
import Foundation

/// A `struct wl_resource *`. Swift sees the struct's layout (wayland-server.h still declares
/// the deprecated public `struct wl_resource`), so it is a typed pointer, not an `OpaquePointer`
/// like `wl_client *` or `wl_display *`.
typealias WLResource = UnsafeMutablePointer<wl_resource>

/// The Swift object behind one `wl_resource`. The resource's user data points at it
/// (unretained); the compositor's `liveObjects` keeps it alive until the resource's destructor.
class ResourceObject {
    unowned let compositor: TestCompositor
    let resource: WLResource
    private(set) var isDestroyed = false

    init(compositor: TestCompositor, resource: WLResource) {
        self.compositor = compositor
        self.resource = resource
    }

    var client: OpaquePointer { wl_resource_get_client(resource) }
    var version: Int32 { wl_resource_get_version(resource) }

    /// Called by the resource's destructor; subclasses drop what they hold, then call super.
    func destroyed() { isDestroyed = true }

    /// The object behind a resource created by `TestCompositor.makeResource`.
    static func from<T: ResourceObject>(_ resource: WLResource?, as type: T.Type = T.self) -> T {
        let object = Unmanaged<ResourceObject>.fromOpaque(wl_resource_get_user_data(resource)!).takeUnretainedValue()
        return object as! T
    }
}

extension TestCompositor {
    /// Creates a resource for a client request or bind, with its Swift object, implementation
    /// and destructor. Returns nil (after telling the client) when out of memory.
    @discardableResult
    func makeResource<T: ResourceObject>(
        client: OpaquePointer, interface: UnsafePointer<wl_interface>, version: Int32, id: UInt32,
        implementation: UnsafeRawPointer?, _ make: (WLResource) -> T
    ) -> T? {
        guard let resource = wl_resource_create(client, interface, version, id) else {
            wl_client_post_no_memory(client)
            return nil
        }
        let object = make(resource)
        liveObjects[ObjectIdentifier(object)] = object
        wl_resource_set_implementation(resource, implementation, Unmanaged.passUnretained(object).toOpaque()) {
            resource in
            let object = ResourceObject.from(resource, as: ResourceObject.self)
            object.destroyed()
            object.compositor.liveObjects.removeValue(forKey: ObjectIdentifier(object))
        }
        return object
    }
}

/// Copies of the `wl_interface` descriptors at addresses that stay valid while the display lives.
///
/// Swift imports `extern const struct wl_interface wl_seat_interface` as an immutable global,
/// and `&wl_seat_interface` does not compile; `withUnsafePointer(to:)` gives a pointer that is
/// only valid inside the closure. A heap copy is equivalent for libwayland, which compares
/// interfaces by name (`wl_interface_equal`), and the copies' message tables point at the
/// originals.
final class Interfaces {
    let compositor = copy(wl_compositor_interface)
    let surface = copy(wl_surface_interface)
    let region = copy(wl_region_interface)
    let subcompositor = copy(wl_subcompositor_interface)
    let subsurface = copy(wl_subsurface_interface)
    let callback = copy(wl_callback_interface)
    let output = copy(wl_output_interface)
    let seat = copy(wl_seat_interface)
    let pointer = copy(wl_pointer_interface)
    let keyboard = copy(wl_keyboard_interface)
    let touch = copy(wl_touch_interface)
    let xdgWmBase = copy(xdg_wm_base_interface)
    let xdgPositioner = copy(xdg_positioner_interface)
    let xdgSurface = copy(xdg_surface_interface)
    let xdgToplevel = copy(xdg_toplevel_interface)
    let xdgPopup = copy(xdg_popup_interface)
    let viewporter = copy(wp_viewporter_interface)
    let viewport = copy(wp_viewport_interface)
    let fractionalScaleManager = copy(wp_fractional_scale_manager_v1_interface)
    let fractionalScale = copy(wp_fractional_scale_v1_interface)
    let buffer = copy(wl_buffer_interface)
    let singlePixelBufferManager = copy(wp_single_pixel_buffer_manager_v1_interface)
    let dataDeviceManager = copy(wl_data_device_manager_interface)
    let dataSource = copy(wl_data_source_interface)
    let dataDevice = copy(wl_data_device_interface)
    let presentation = copy(wp_presentation_interface)
    let presentationFeedback = copy(wp_presentation_feedback_interface)

    private static func copy(_ interface: wl_interface) -> UnsafeMutablePointer<wl_interface> {
        let pointer = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        pointer.initialize(to: interface)
        return pointer
    }

    func deallocate() {
        for pointer in [
            compositor, surface, region, subcompositor, subsurface, callback, output, seat, pointer, keyboard, touch,
            xdgWmBase, xdgPositioner, xdgSurface, xdgToplevel, xdgPopup, viewporter, viewport,
            fractionalScaleManager, fractionalScale, buffer, singlePixelBufferManager, dataDeviceManager, dataSource,
            dataDevice, presentation, presentationFeedback,
        ] {
            pointer.deallocate()
        }
    }
}
