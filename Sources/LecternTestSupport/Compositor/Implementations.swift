import CWaylandServer

/// The request tables (`struct wl_surface_interface` and friends) of every resource the test
/// compositor creates, at heap addresses that outlive every resource; freed at teardown after
/// the display.
///
/// Swift imports `struct wl_surface_interface` (the request table) as the type
/// `wl_surface_interface` and `const struct wl_interface wl_surface_interface` (the protocol
/// descriptor) as a global constant of the same name: the type in type position, the constant
/// in expression position. Every slot is filled: libwayland calls a NULL slot and crashes.
/// The C functions cannot capture anything, so each finds its Swift object in the resource's
/// user data.
final class Implementations {
    let compositor = allocate(
        wl_compositor_interface(
            create_surface: { _, resource, id in object(resource, CompositorResource.self).createSurface(id: id) },
            create_region: { _, resource, id in object(resource, CompositorResource.self).createRegion(id: id) }))

    let surface = allocate(
        wl_surface_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            attach: { _, resource, buffer, _, _ in object(resource, Surface.self).attach(buffer: buffer) },
            damage: { _, resource, x, y, width, height in
                object(resource, Surface.self).damage(DamageRect(x: x, y: y, width: width, height: height))
            },
            frame: { _, resource, id in object(resource, Surface.self).frame(id: id) },
            set_opaque_region: { _, _, _ in },
            set_input_region: { _, resource, region in object(resource, Surface.self).setInputRegion(region) },
            commit: { _, resource in object(resource, Surface.self).commit() },
            set_buffer_transform: { _, _, _ in },
            set_buffer_scale: { _, resource, scale in object(resource, Surface.self).setBufferScale(scale) },
            damage_buffer: { _, resource, x, y, width, height in
                object(resource, Surface.self).damageBuffer(DamageRect(x: x, y: y, width: width, height: height))
            },
            offset: { _, _, _, _ in }))

    let region = allocate(
        wl_region_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            add: { _, resource, _, _, width, height in
                object(resource, Region.self).add(width: width, height: height)
            },
            subtract: { _, _, _, _, _, _ in }))

    let subcompositor = allocate(
        wl_subcompositor_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            get_subsurface: { _, resource, id, surface, parent in
                object(resource, SubcompositorResource.self).getSubsurface(id: id, surface: surface!, parent: parent!)
            }))

    let subsurface = allocate(
        wl_subsurface_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            set_position: { _, resource, x, y in object(resource, Subsurface.self).setPosition(x: x, y: y) },
            place_above: { _, resource, sibling in object(resource, Subsurface.self).place(sibling!, above: true) },
            place_below: { _, resource, sibling in object(resource, Subsurface.self).place(sibling!, above: false) },
            set_sync: { _, resource in object(resource, Subsurface.self).setSynchronized(true) },
            set_desync: { _, resource in object(resource, Subsurface.self).setSynchronized(false) }))

    let output = allocate(
        wl_output_interface(
            release: { _, resource in wl_resource_destroy(resource) }))

    let seat = allocate(
        wl_seat_interface(
            get_pointer: { _, resource, id in object(resource, SeatResource.self).getPointer(id: id) },
            get_keyboard: { _, resource, id in object(resource, SeatResource.self).getKeyboard(id: id) },
            get_touch: { _, resource, id in object(resource, SeatResource.self).getTouch(id: id) },
            release: { _, resource in wl_resource_destroy(resource) }))

    let pointer = allocate(
        wl_pointer_interface(
            set_cursor: { _, _, _, _, _, _ in },
            release: { _, resource in wl_resource_destroy(resource) }))

    let keyboard = allocate(
        wl_keyboard_interface(
            release: { _, resource in wl_resource_destroy(resource) }))

    let touch = allocate(
        wl_touch_interface(
            release: { _, resource in wl_resource_destroy(resource) }))

    let xdgWmBase = allocate(
        xdg_wm_base_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            create_positioner: { _, resource, id in object(resource, XdgWmBase.self).createPositioner(id: id) },
            get_xdg_surface: { _, resource, id, surface in
                object(resource, XdgWmBase.self).getXdgSurface(id: id, surface: surface!)
            },
            pong: { _, resource, serial in object(resource, XdgWmBase.self).pong(serial: serial) }))

    let xdgPositioner = allocate(
        xdg_positioner_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            set_size: { _, _, _, _ in },
            set_anchor_rect: { _, _, _, _, _, _ in },
            set_anchor: { _, _, _ in },
            set_gravity: { _, _, _ in },
            set_constraint_adjustment: { _, _, _ in },
            set_offset: { _, _, _, _ in },
            set_reactive: { _, _ in },
            set_parent_size: { _, _, _, _ in },
            set_parent_configure: { _, _, _ in }))

    let xdgSurface = allocate(
        xdg_surface_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            get_toplevel: { _, resource, id in object(resource, XdgSurface.self).getToplevel(id: id) },
            get_popup: { _, resource, id, _, _ in object(resource, XdgSurface.self).getPopup(id: id) },
            set_window_geometry: { _, _, _, _, _, _ in },
            ack_configure: { _, resource, serial in object(resource, XdgSurface.self).ackConfigure(serial: serial) }))

    let xdgToplevel = allocate(
        xdg_toplevel_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            set_parent: { _, _, _ in },
            set_title: { _, resource, title in
                object(resource, XdgToplevel.self).state.title = title.map { String(cString: $0) }
            },
            set_app_id: { _, resource, appID in
                object(resource, XdgToplevel.self).state.appID = appID.map { String(cString: $0) }
            },
            show_window_menu: { _, _, _, _, _, _ in },
            move: { _, _, _, _ in },
            resize: { _, _, _, _, _ in },
            set_max_size: { _, _, _, _ in },
            set_min_size: { _, _, _, _ in },
            set_maximized: { _, _ in },
            unset_maximized: { _, _ in },
            set_fullscreen: { _, resource, output in object(resource, XdgToplevel.self).setFullscreen(on: output) },
            unset_fullscreen: { _, resource in object(resource, XdgToplevel.self).state.wantsFullscreen = false },
            set_minimized: { _, _ in }))

    let xdgPopup = allocate(
        xdg_popup_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            grab: { _, _, _, _ in },
            reposition: { _, _, _, _ in }))

    let viewporter = allocate(
        wp_viewporter_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            get_viewport: { _, resource, id, surface in
                object(resource, ViewporterResource.self).getViewport(id: id, surface: surface!)
            }))

    let viewport = allocate(
        wp_viewport_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            set_source: { _, resource, x, y, width, height in
                object(resource, Viewport.self).setSource(
                    x: wl_fixed_to_double(x), y: wl_fixed_to_double(y), width: wl_fixed_to_double(width),
                    height: wl_fixed_to_double(height))
            },
            set_destination: { _, resource, width, height in
                object(resource, Viewport.self).setDestination(width: width, height: height)
            }))

    let fractionalScaleManager = allocate(
        wp_fractional_scale_manager_v1_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            get_fractional_scale: { _, resource, id, surface in
                object(resource, FractionalScaleManager.self).getFractionalScale(id: id, surface: surface!)
            }))

    let fractionalScale = allocate(
        wp_fractional_scale_v1_interface(
            destroy: { _, resource in wl_resource_destroy(resource) }))

    let singlePixelBufferManager = allocate(
        wp_single_pixel_buffer_manager_v1_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            create_u32_rgba_buffer: { _, resource, id, red, green, blue, alpha in
                object(resource, SinglePixelBufferManager.self).createBuffer(
                    id: id, red: red, green: green, blue: blue, alpha: alpha)
            }))

    let singlePixelBuffer = allocate(
        wl_buffer_interface(destroy: { _, resource in wl_resource_destroy(resource) }))

    let dataDeviceManager = allocate(
        wl_data_device_manager_interface(
            create_data_source: { _, resource, id in
                object(resource, DataDeviceManagerResource.self).createDataSource(id: id)
            },
            get_data_device: { _, resource, id, _ in
                object(resource, DataDeviceManagerResource.self).getDataDevice(id: id)
            }))

    let dataSource = allocate(
        wl_data_source_interface(
            offer: { _, resource, mimeType in
                if let mimeType {
                    object(resource, DataSourceResource.self).mimeTypes.append(String(cString: mimeType))
                }
            },
            destroy: { _, resource in wl_resource_destroy(resource) },
            set_actions: { _, _, _ in }))

    let dataDevice = allocate(
        wl_data_device_interface(
            start_drag: { _, _, _, _, _, _ in },
            set_selection: { _, resource, source, serial in
                object(resource, DataDeviceResource.self).setSelection(source, serial: serial)
            },
            release: { _, resource in wl_resource_destroy(resource) }))

    let presentation = allocate(
        wp_presentation_interface(
            destroy: { _, resource in wl_resource_destroy(resource) },
            feedback: { _, resource, surface, id in
                object(resource, PresentationResource.self).feedback(surface: surface!, id: id)
            }))

    private static func allocate<T>(_ table: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: table)
        return pointer
    }

    func deallocate() {
        compositor.deallocate(); surface.deallocate(); region.deallocate(); output.deallocate()
        subcompositor.deallocate(); subsurface.deallocate()
        seat.deallocate(); pointer.deallocate(); keyboard.deallocate(); touch.deallocate()
        xdgWmBase.deallocate(); xdgPositioner.deallocate(); xdgSurface.deallocate()
        xdgToplevel.deallocate(); xdgPopup.deallocate(); viewporter.deallocate(); viewport.deallocate()
        fractionalScaleManager.deallocate(); fractionalScale.deallocate()
        singlePixelBufferManager.deallocate(); singlePixelBuffer.deallocate()
        dataDeviceManager.deallocate(); dataSource.deallocate(); dataDevice.deallocate()
        presentation.deallocate()
    }
}

private func object<T: ResourceObject>(_ resource: WLResource?, _ type: T.Type) -> T {
    ResourceObject.from(resource, as: type)
}
