import CWaylandServer

extension TestCompositor {
    /// Counts every `wl_display.sync` request (`roundTrips`): libwayland answers them itself,
    /// and only its protocol logger sees them. Every request passes here: two integers are
    /// compared (a client's `wl_display` is its object 1; `sync` is its request 0).
    func countRoundTrips() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        protocolLogger = wl_display_add_protocol_logger(
            display,
            { data, direction, message in
                guard let data, let message, direction == WL_PROTOCOL_LOGGER_REQUEST,
                    message.pointee.message_opcode == 0, wl_resource_get_id(message.pointee.resource) == 1
                else { return }
                Unmanaged<TestCompositor>.fromOpaque(data).takeUnretainedValue().roundTrips += 1
            }, me)
    }
}
