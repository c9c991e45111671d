import CWaylandServer

extension TestCompositor {
    /// Counts every `wl_display.sync` request (`roundTrips`): libwayland answers them itself,
    /// and only its protocol logger sees them.
    func countRoundTrips() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        protocolLogger = wl_display_add_protocol_logger(
            display,
            { data, direction, message in
                guard let data, let message, direction == WL_PROTOCOL_LOGGER_REQUEST,
                    let resource = message.pointee.resource,
                    String(cString: wl_resource_get_class(resource)) == "wl_display",
                    String(cString: message.pointee.message.pointee.name) == "sync"
                else { return }
                Unmanaged<TestCompositor>.fromOpaque(data).takeUnretainedValue().roundTrips += 1
            }, me)
    }
}
