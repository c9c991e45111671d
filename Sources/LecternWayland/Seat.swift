import CWaylandClient
import Logging

/// The `wl_seat`: tracks its capabilities. Input routing arrives with the input issue;
/// until then the seat is bound so capabilities are logged and the protocol stays tidy.
public final class Seat {
    let proxy: OpaquePointer
    let version: UInt32
    let globalName: UInt32
    private let listener: UnsafeMutablePointer<wl_seat_listener>
    private let logger: Logger
    public private(set) var capabilities: UInt32 = 0

    init(proxy: OpaquePointer, version: UInt32, globalName: UInt32, logger: Logger) {
        self.proxy = proxy
        self.version = version
        self.globalName = globalName
        self.logger = logger
        listener = .allocate(capacity: 1)
        listener.initialize(
            to: wl_seat_listener(
                capabilities: { data, _, caps in
                    guard let data else { return }
                    let seat = Unmanaged<Seat>.fromOpaque(data).takeUnretainedValue()
                    seat.capabilities = caps
                    seat.logger.debug("seat capabilities: \(caps)")
                },
                name: { _, _, _ in }))
        wl_seat_add_listener(proxy, listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
        listener.deallocate()
    }
}
