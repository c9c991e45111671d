import CWaylandServer

#if canImport(Glibc)
    import Glibc
#endif

// wl_data_device_manager: the selection ("clipboard"). A client sets a wl_data_source as the
// selection; a test reads it back through a real pipe, as a pasting client would.

extension TestCompositor {
    /// Offers `wl_data_device_manager` v3 from now on (clients that connect later bind it).
    public func offerDataDevice() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard
            !globals.contains(where: {
                String(cString: wl_global_get_interface($0).pointee.name) == "wl_data_device_manager"
            }),
            let global = wl_global_create(
                display, interfaces.dataDeviceManager, 3, me,
                { client, data, version, id in
                    TestCompositor.from(data).bindDataDeviceManager(client: client!, version: Int32(version), id: id)
                })
        else { return }
        globals.append(global)
    }

    func bindDataDeviceManager(client: OpaquePointer, version: Int32, id: UInt32) {
        makeResource(
            client: client, interface: interfaces.dataDeviceManager, version: version, id: id,
            implementation: implementations.dataDeviceManager
        ) { DataDeviceManagerResource(compositor: self, resource: $0) }
    }

    /// The MIME types the selection is offered as, in the order offered (nil: no selection).
    public var selectionMimeTypes: [String]? { selectionSource.map(\.mimeTypes) }

    /// Asks the selection's owner to write it as `mimeType` (`wl_data_source.send`) into a new
    /// pipe; returns the pipe's read end, which the caller reads until end of file and closes
    /// (the client writes once it dispatches). Nil without a selection.
    public func requestSelection(mimeType: String) -> Int32? {
        guard let source = selectionSource, !source.isDestroyed else { return nil }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // libwayland sends a duplicate of the descriptor: ours is closed at once.
        wl_data_source_send_send(source.resource, mimeType, fds[1])
        close(fds[1])
        wl_display_flush_clients(display)
        return fds[0]
    }
}

final class DataDeviceManagerResource: ResourceObject {
    func createDataSource(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.dataSource, version: version, id: id,
            implementation: compositor.implementations.dataSource
        ) { DataSourceResource(compositor: compositor, resource: $0) }
    }

    func getDataDevice(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.dataDevice, version: version, id: id,
            implementation: compositor.implementations.dataDevice
        ) { DataDeviceResource(compositor: compositor, resource: $0) }
    }
}

/// A client's `wl_data_source`: the MIME types it offers.
final class DataSourceResource: ResourceObject {
    var mimeTypes: [String] = []

    override func destroyed() {
        if compositor.selectionSource === self { compositor.selectionSource = nil }
        super.destroyed()
    }
}

/// A client's `wl_data_device`: `set_selection` replaces the selection (the old source is
/// told it was cancelled, as a real compositor does).
final class DataDeviceResource: ResourceObject {
    func setSelection(_ source: WLResource?, serial: UInt32) {
        let new = source.map { ResourceObject.from($0, as: DataSourceResource.self) }
        if let old = compositor.selectionSource, old !== new, !old.isDestroyed {
            wl_data_source_send_cancelled(old.resource)
        }
        compositor.selectionSource = new
        compositor.selectionSerial = serial
    }
}
