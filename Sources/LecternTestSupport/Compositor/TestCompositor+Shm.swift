import CWaylandServer

// wl_shm is libwayland-server's own (wl_display_init_shm: argb8888 and xrgb8888, pools,
// resize, buffers); here we read committed buffers and release them.

extension TestCompositor {
    /// Copies a committed shm buffer into a `Commit`, then releases it (`autoRelease`) or keeps
    /// it busy. A buffer that is not shm is a protocol error here.
    func record(buffer: WLResource, surface: Surface, surfaceDamage: [DamageRect], bufferDamage: [DamageRect]) {
        let timestamp = ContinuousClock.now
        let color = singlePixelColor(of: buffer)
        guard
            let (width, height, format, pixels, stride) = color.map({ (1, 1, ShmFormat.argb8888, [$0], 0) })
                ?? copyPixels(of: buffer, surface: surface)
        else { return }

        surface.shown = SubsurfaceState(width: width, height: height, format: format, pixels: pixels)
        let xdgSurface = surface.xdgSurface
        var commit = Commit(
            sequence: nextCommitSequence, timestamp: timestamp, width: width, height: height, format: format,
            pixels: pixels, surfaceDamage: surfaceDamage, bufferDamage: bufferDamage,
            configureAcked: xdgSurface.map { $0.lastAckedSerial == $0.lastSentSerial } ?? true,
            ackedConfigureSerial: xdgSurface?.lastAckedSerial ?? 0,
            bufferScale: surface.bufferScale, viewportDestination: surface.viewportDestination,
            title: xdgSurface?.toplevel?.state.title, isSinglePixel: color != nil,
            bufferStride: stride)
        commit.roundTripsBefore = roundTrips
        commits.append(commit)
        nextCommitSequence += 1
        if let limit = commitHistoryLimit.map({ max(1, $0) }), commits.count > limit {
            commits.removeFirst(commits.count - limit)
        }

        releaseOrKeep(buffer)
    }

    /// Releases a buffer whose pixels were copied (`autoRelease`), or keeps it busy.
    func releaseOrKeep(_ buffer: WLResource) {
        let busy = BusyBuffer(resource: buffer)
        if autoRelease {
            busy.release()
        } else {
            busyBuffers.append(busy)
        }
    }

    /// A copy of a committed shm buffer's pixels (`Commit.pixels`), with the buffer's stride;
    /// nil, after a protocol error on `surface`, for a buffer that is not shm.
    func copyPixels(
        of buffer: WLResource, surface: Surface
    ) -> (width: Int, height: Int, format: ShmFormat, pixels: [UInt32], stride: Int)? {
        guard let shm = wl_shm_buffer_get(buffer) else {
            postError(
                surface.resource, code: UInt32(WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue),
                "the test compositor only takes wl_shm buffers")
            return nil
        }
        let width = Int(wl_shm_buffer_get_width(shm)), height = Int(wl_shm_buffer_get_height(shm))
        let stride = Int(wl_shm_buffer_get_stride(shm))
        let format = ShmFormat(rawValue: wl_shm_buffer_get_format(shm))
        var pixels = [UInt32](repeating: 0, count: width * height)
        if format == .argb8888 || format == .xrgb8888 {
            // begin/end_access turn a SIGBUS from a client that shrank its file into an error.
            wl_shm_buffer_begin_access(shm)
            let data = UnsafeRawPointer(wl_shm_buffer_get_data(shm)!)
            pixels.withUnsafeMutableBytes { out in
                for y in 0..<height {
                    (out.baseAddress! + y * width * 4).copyMemory(from: data + y * stride, byteCount: width * 4)
                }
            }
            wl_shm_buffer_end_access(shm)
            if format == .xrgb8888 {
                pixels.withUnsafeMutableBufferPointer { out in
                    for index in out.indices { out[index] |= 0xFF00_0000 }
                }
            }
        } else {
            protocolErrors.append("committed a \(format) buffer; pixels not copied")
        }
        return (width, height, format, pixels, stride)
    }
}

/// A committed `wl_buffer` the compositor has not released yet; forgets it if the client
/// destroys it first.
final class BusyBuffer {
    private var resource: WLResource?
    private var listener: SignalListener?

    init(resource: WLResource) {
        self.resource = resource
        let listener = SignalListener { [unowned self] _ in
            self.resource = nil
            dropListener()
        }
        wl_resource_add_destroy_listener(resource, listener.listener)
        self.listener = listener
    }

    /// Sends `wl_buffer.release` if the buffer still exists.
    func release() {
        if let resource { wl_buffer_send_release(resource) }
        resource = nil
        dropListener()
    }

    private func dropListener() {
        listener?.remove()
        listener = nil
    }

    deinit { dropListener() }
}
