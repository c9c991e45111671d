import CWaylandClient
import Glibc
import Synchronization

/// A connection to the compositor made at the top of the start (`Display.connectEarly(name:)`),
/// its globals asked for and a `wl_display.sync` sent after them: the compositor answers while
/// the reader reads its policy and saved view, and the first `Display` for the same name takes
/// the connection and finds the answer waiting instead of waiting a round trip for it.
struct EarlyConnection: @unchecked Sendable {
    // Sendable: made on one thread, taken once (by the loop's), never shared.
    let name: String?
    let connection: OpaquePointer
    let registry: OpaquePointer
    /// Its `done` comes after every global was announced.
    let sync: OpaquePointer

    /// What the early attempt gave: a connection, or the errno of a connect that failed (the
    /// display reports it without trying again: libwayland would print its complaint twice).
    enum Attempt: @unchecked Sendable {
        case connected(EarlyConnection)
        case failed(name: String?, errno: Int32)
    }

    fileprivate static let made = Mutex<Attempt?>(nil)

    /// The attempt made for `name`, once; a connection made for another name is closed.
    static func take(name: String?) -> Attempt? {
        let attempt = made.withLock { made in
            defer { made = nil }
            return made
        }
        switch attempt {
        case .connected(let early) where early.name == name: return attempt
        case .connected(let early):
            early.close()
            return nil
        case .failed(let failed, _) where failed == name: return attempt
        case .failed, nil: return nil
        }
    }

    fileprivate func close() {
        wl_callback_destroy(sync)
        wl_registry_destroy(registry)
        wl_display_disconnect(connection)
    }
}

extension Display {
    /// Connects to `name` (nil: `$WAYLAND_DISPLAY`) now and asks for its globals, for the first
    /// `Display` made for `name` to take (`EarlyConnection`); a connection that fails is that
    /// `Display`'s error. Call it once, at the top of the start, after any fork (a forked child
    /// would keep the connection open).
    public static func connectEarly(name: String? = nil) {
        let attempt: EarlyConnection.Attempt
        if let connection = wl_display_connect(name) {
            guard let registry = wl_display_get_registry(connection), let sync = wl_display_sync(connection) else {
                wl_display_disconnect(connection)
                return
            }
            wl_display_flush(connection)
            attempt = .connected(EarlyConnection(name: name, connection: connection, registry: registry, sync: sync))
        } else {
            attempt = .failed(name: name, errno: errno)
        }
        EarlyConnection.made.withLock { made in
            if case .connected(let old) = made { old.close() }
            made = attempt
        }
    }
}
