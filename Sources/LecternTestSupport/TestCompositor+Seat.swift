import CWaylandServer

#if canImport(Glibc)
    import Glibc
#endif

// wl_seat with touch and pointer (keyboard on request), and helpers that send touch events to
// the client owning the newest toplevel.

/// Input devices the seat advertises (`wl_seat.capability`).
public struct SeatCapabilities: OptionSet, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let pointer = SeatCapabilities(rawValue: 1)
    public static let keyboard = SeatCapabilities(rawValue: 2)
    public static let touch = SeatCapabilities(rawValue: 4)
}

extension TestCompositor {
    func bindSeat(client: OpaquePointer, version: Int32, id: UInt32) {
        guard
            let seat = makeResource(
                client: client, interface: interfaces.seat, version: version, id: id,
                implementation: implementations.seat,
                {
                    SeatResource(compositor: self, resource: $0)
                })
        else { return }
        seat.sendCapabilities()
    }

    /// Changes the advertised capabilities and tells every client (`wl_seat.capabilities`).
    public func setSeatCapabilities(_ capabilities: SeatCapabilities) {
        seatCapabilities = capabilities
        for seat in liveObjects.values.compactMap({ $0 as? SeatResource }) { seat.sendCapabilities() }
    }

    /// Number of live `wl_touch` objects (clients that asked for touch).
    public var touchResourceCount: Int { liveObjects.values.filter { $0 is TouchResource }.count }
    /// Number of live `wl_pointer` objects.
    public var pointerResourceCount: Int { liveObjects.values.filter { $0 is PointerResource }.count }

    /// The newest toplevel's surface and the `wl_touch` objects of its client.
    private func touchTargets() -> (surface: WLResource, touches: [TouchResource])? {
        guard let surface = currentToplevel?.xdgSurface?.surface, !surface.isDestroyed else { return nil }
        let touches = liveObjects.values.compactMap { $0 as? TouchResource }.filter { $0.client == surface.client }
        return (surface.resource, touches)
    }

    /// Sends `wl_touch.down` for touch point `id` at surface position (x, y) to the client of
    /// the newest toplevel. Returns false if that client has no `wl_touch`.
    @discardableResult
    public func touchDown(id: Int32, x: Double, y: Double) -> Bool {
        guard let (surface, touches) = touchTargets(), !touches.isEmpty else { return false }
        let serial = wl_display_next_serial(display), time = timestampMilliseconds
        for touch in touches {
            wl_touch_send_down(
                touch.resource, serial, time, surface, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
        }
        return true
    }

    /// Sends `wl_touch.motion` for touch point `id`.
    @discardableResult
    public func touchMotion(id: Int32, x: Double, y: Double) -> Bool {
        guard let (_, touches) = touchTargets(), !touches.isEmpty else { return false }
        let time = timestampMilliseconds
        for touch in touches {
            wl_touch_send_motion(touch.resource, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
        }
        return true
    }

    /// Sends `wl_touch.up` for touch point `id`.
    @discardableResult
    public func touchUp(id: Int32) -> Bool {
        guard let (_, touches) = touchTargets(), !touches.isEmpty else { return false }
        let serial = wl_display_next_serial(display), time = timestampMilliseconds
        for touch in touches { wl_touch_send_up(touch.resource, serial, time, id) }
        return true
    }

    /// Sends `wl_touch.frame` (the end of a batch of touch events).
    @discardableResult
    public func touchFrame() -> Bool {
        guard let (_, touches) = touchTargets(), !touches.isEmpty else { return false }
        for touch in touches { wl_touch_send_frame(touch.resource) }
        return true
    }

    /// Sends `wl_touch.cancel` (the compositor took every active touch point).
    @discardableResult
    public func touchCancel() -> Bool {
        guard let (_, touches) = touchTargets(), !touches.isEmpty else { return false }
        for touch in touches { wl_touch_send_cancel(touch.resource) }
        return true
    }
}

final class SeatResource: ResourceObject {
    func sendCapabilities() {
        wl_seat_send_capabilities(resource, compositor.seatCapabilities.rawValue)
        if version >= 2 { wl_seat_send_name(resource, "seat0") }
    }

    func getPointer(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.pointer, version: version, id: id,
            implementation: compositor.implementations.pointer
        ) {
            PointerResource(compositor: compositor, resource: $0)
        }
    }

    func getKeyboard(id: UInt32) {
        guard
            let keyboard = compositor.makeResource(
                client: client, interface: compositor.interfaces.keyboard, version: version, id: id,
                implementation: compositor.implementations.keyboard,
                {
                    KeyboardResource(compositor: compositor, resource: $0)
                })
        else { return }
        // No keymap yet: the protocol's "no_keymap" format with an empty file.
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            wl_keyboard_send_keymap(keyboard.resource, WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue, fd, 0)
            close(fd)
        }
        if version >= 4 { wl_keyboard_send_repeat_info(keyboard.resource, 25, 600) }
    }

    func getTouch(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.touch, version: version, id: id,
            implementation: compositor.implementations.touch
        ) {
            TouchResource(compositor: compositor, resource: $0)
        }
    }
}

final class PointerResource: ResourceObject {}
final class KeyboardResource: ResourceObject {}
final class TouchResource: ResourceObject {}
