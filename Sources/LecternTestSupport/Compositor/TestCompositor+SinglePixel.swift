import CWaylandServer

// wp_single_pixel_buffer_manager_v1: 1×1 buffers of one colour, which a viewport stretches (the
// curtain). A commit of one is recorded as a 1×1 `Commit` with `isSinglePixel`.

extension TestCompositor {
    /// Offers `wp_single_pixel_buffer_manager_v1` and `wp_viewporter` (from now on; the scale stays
    /// whole unless `setPreferredScale` offers fractional scales too).
    public func offerSinglePixelBuffers() {
        offerViewporter()
        if !globalNames.contains("wp_single_pixel_buffer_manager_v1"),
            let global = wl_global_create(
                display, interfaces.singlePixelBufferManager, 1, Unmanaged.passUnretained(self).toOpaque(),
                { client, data, version, id in
                    let compositor = TestCompositor.from(data)
                    compositor.makeResource(
                        client: client!, interface: compositor.interfaces.singlePixelBufferManager,
                        version: Int32(version), id: id,
                        implementation: compositor.implementations.singlePixelBufferManager
                    ) { SinglePixelBufferManager(compositor: compositor, resource: $0) }
                })
        {
            globals.append(global)
        }
    }

    /// The colour of a single-pixel buffer as `0xAARRGGBB`, or nil for another buffer.
    func singlePixelColor(of buffer: WLResource) -> UInt32? {
        guard
            wl_resource_instance_of(
                buffer, interfaces.buffer, UnsafeRawPointer(implementations.singlePixelBuffer)) != 0
        else { return nil }
        return ResourceObject.from(buffer, as: SinglePixelBuffer.self).color
    }
}

final class SinglePixelBufferManager: ResourceObject {
    func createBuffer(id: UInt32, red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.buffer, version: 1, id: id,
            implementation: compositor.implementations.singlePixelBuffer
        ) {
            // 32 bits a channel; the commit keeps the top 8 of each.
            SinglePixelBuffer(
                compositor: compositor, resource: $0,
                color: (alpha >> 24) << 24 | (red >> 24) << 16 | (green >> 24) << 8 | blue >> 24)
        }
    }
}

/// A `wl_buffer` of one pixel of `color` (`0xAARRGGBB`, premultiplied).
final class SinglePixelBuffer: ResourceObject {
    let color: UInt32

    init(compositor: TestCompositor, resource: WLResource, color: UInt32) {
        self.color = color
        super.init(compositor: compositor, resource: resource)
    }
}
