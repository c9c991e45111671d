import CLecternLinux
import CWaylandServer
import CXKBCommon

#if canImport(Glibc)
    import Glibc
#endif

// wl_seat with touch and pointer (keyboard on request), and helpers that send touch, pointer
// and keyboard events to the client owning the newest toplevel.

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

    /// Advertises a `wl_seat` global again (after `removeSeatGlobal()`), as when a seat comes back.
    public func addSeatGlobal() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let global = wl_global_create(
            display, interfaces.seat, seatVersion, me,
            { client, data, version, id in
                TestCompositor.from(data).bindSeat(client: client!, version: Int32(version), id: id)
            })
        {
            globals.append(global)
        }
    }

    /// Withdraws the `wl_seat` global (clients get `wl_registry.global_remove`); clients that
    /// connect later see no seat, as under weston's headless backend. Seats already bound stay
    /// usable until their clients release them. Returns false if there was no seat global.
    @discardableResult
    public func removeSeatGlobal() -> Bool {
        guard
            let index = globals.firstIndex(where: {
                String(cString: wl_global_get_interface($0).pointee.name) == "wl_seat"
            })
        else { return false }
        wl_global_destroy(globals.remove(at: index))
        return true
    }

    /// Number of live `wl_touch` objects (clients that asked for touch).
    public var touchResourceCount: Int { liveObjects.values.filter { $0 is TouchResource }.count }
    /// Number of live `wl_pointer` objects.
    public var pointerResourceCount: Int { liveObjects.values.filter { $0 is PointerResource }.count }
    /// Number of live `wl_keyboard` objects.
    public var keyboardResourceCount: Int { liveObjects.values.filter { $0 is KeyboardResource }.count }

    /// The newest toplevel's surface and the devices of type `T` of its client.
    private func inputTargets<T: ResourceObject>(_ type: T.Type) -> (surface: WLResource, devices: [T])? {
        guard let surface = currentToplevel?.xdgSurface?.surface, !surface.isDestroyed else { return nil }
        let devices = liveObjects.values.compactMap { $0 as? T }.filter { $0.client == surface.client }
        guard !devices.isEmpty else { return nil }
        return (surface.resource, devices)
    }

    /// The bytes sent to the newest toplevel's client that it has not read yet (its socket's
    /// send queue, `SIOCOUTQ`). A driver sending input faster than the client reads waits on it:
    /// libwayland-server disconnects a client whose socket fills up.
    public var inputBacklogBytes: Int {
        guard let surface = currentToplevel?.xdgSurface?.surface, !surface.isDestroyed else { return 0 }
        var queued: Int32 = 0
        guard ioctl(wl_client_get_fd(surface.client), UInt(TIOCOUTQ), &queued) == 0 else { return 0 }
        return Int(queued)
    }

    // MARK: Touch

    /// Sends `wl_touch.down` for touch point `id` at surface position (x, y) to the client of
    /// the newest toplevel. Returns false if that client has no `wl_touch`.
    /// - Parameter time: the event's timestamp in milliseconds; nil: milliseconds since start.
    @discardableResult
    public func touchDown(id: Int32, x: Double, y: Double, time: UInt32? = nil) -> Bool {
        guard let (surface, touches) = inputTargets(TouchResource.self) else { return false }
        let serial = wl_display_next_serial(display), time = time ?? timestampMilliseconds
        for touch in touches {
            wl_touch_send_down(
                touch.resource, serial, time, surface, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
        }
        return true
    }

    /// Sends `wl_touch.motion` for touch point `id`.
    @discardableResult
    public func touchMotion(id: Int32, x: Double, y: Double, time: UInt32? = nil) -> Bool {
        guard let (_, touches) = inputTargets(TouchResource.self) else { return false }
        let time = time ?? timestampMilliseconds
        for touch in touches {
            wl_touch_send_motion(touch.resource, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
        }
        return true
    }

    /// Sends `wl_touch.up` for touch point `id`.
    @discardableResult
    public func touchUp(id: Int32, time: UInt32? = nil) -> Bool {
        guard let (_, touches) = inputTargets(TouchResource.self) else { return false }
        let serial = wl_display_next_serial(display), time = time ?? timestampMilliseconds
        for touch in touches { wl_touch_send_up(touch.resource, serial, time, id) }
        return true
    }

    /// Sends `wl_touch.frame` (the end of a batch of touch events).
    @discardableResult
    public func touchFrame() -> Bool {
        guard let (_, touches) = inputTargets(TouchResource.self) else { return false }
        for touch in touches { wl_touch_send_frame(touch.resource) }
        return true
    }

    /// Sends `wl_touch.cancel` (the compositor took every active touch point).
    @discardableResult
    public func touchCancel() -> Bool {
        guard let (_, touches) = inputTargets(TouchResource.self) else { return false }
        for touch in touches { wl_touch_send_cancel(touch.resource) }
        return true
    }

    // MARK: Pointer

    /// Sends `wl_pointer.enter` on the newest toplevel's surface at (x, y). Returns false if
    /// its client has no `wl_pointer`.
    @discardableResult
    public func pointerEnter(x: Double, y: Double) -> Bool {
        guard let (surface, pointers) = inputTargets(PointerResource.self) else { return false }
        let serial = wl_display_next_serial(display)
        for pointer in pointers {
            wl_pointer_send_enter(pointer.resource, serial, surface, wl_fixed_from_double(x), wl_fixed_from_double(y))
        }
        return true
    }

    /// Sends `wl_pointer.leave` from the newest toplevel's surface.
    @discardableResult
    public func pointerLeave() -> Bool {
        guard let (surface, pointers) = inputTargets(PointerResource.self) else { return false }
        let serial = wl_display_next_serial(display)
        for pointer in pointers { wl_pointer_send_leave(pointer.resource, serial, surface) }
        return true
    }

    /// Sends `wl_pointer.motion` to surface position (x, y).
    @discardableResult
    public func pointerMotion(x: Double, y: Double, time: UInt32? = nil) -> Bool {
        guard let (_, pointers) = inputTargets(PointerResource.self) else { return false }
        let time = time ?? timestampMilliseconds
        for pointer in pointers {
            wl_pointer_send_motion(pointer.resource, time, wl_fixed_from_double(x), wl_fixed_from_double(y))
        }
        return true
    }

    /// Sends `wl_pointer.button`. - Parameter button: a Linux code (`BTN_LEFT` is 0x110).
    @discardableResult
    public func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32? = nil) -> Bool {
        guard let (_, pointers) = inputTargets(PointerResource.self) else { return false }
        let serial = wl_display_next_serial(display), time = time ?? timestampMilliseconds
        let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        for pointer in pointers { wl_pointer_send_button(pointer.resource, serial, time, button, state.rawValue) }
        return true
    }

    /// Sends one scroll on `axis` as a compositor does for each pointer's version: `axis_source`
    /// (version 5+), then `axis_value120` (8+) or `axis_discrete` (5–7, whole detents only),
    /// then `axis`. Follow it with `pointerFrame()` for clients of version 5+.
    /// - Parameters:
    ///   - value: the scroll distance in surface units (`wl_pointer.axis`).
    ///   - value120: wheel movement in 1/120 of a detent; nil: not a wheel.
    ///   - source: a `wl_pointer.axis_source` value; nil: none sent.
    @discardableResult
    public func pointerAxis(
        _ axis: PointerAxis, value: Double, value120: Int32? = nil, source: UInt32? = nil, time: UInt32? = nil
    ) -> Bool {
        guard let (_, pointers) = inputTargets(PointerResource.self) else { return false }
        let time = time ?? timestampMilliseconds
        for pointer in pointers {
            if let source, pointer.version >= 5 { wl_pointer_send_axis_source(pointer.resource, source) }
            if let value120 {
                if pointer.version >= 8 {
                    wl_pointer_send_axis_value120(pointer.resource, axis.rawValue, value120)
                } else if pointer.version >= 5, value120 % 120 == 0 {
                    wl_pointer_send_axis_discrete(pointer.resource, axis.rawValue, value120 / 120)
                }
            }
            wl_pointer_send_axis(pointer.resource, time, axis.rawValue, wl_fixed_from_double(value))
        }
        return true
    }

    /// Sends `wl_pointer.frame` to the pointers of version 5+. Returns false if there is none.
    @discardableResult
    public func pointerFrame() -> Bool {
        guard let (_, pointers) = inputTargets(PointerResource.self) else { return false }
        let framed = pointers.filter { $0.version >= 5 }
        for pointer in framed { wl_pointer_send_frame(pointer.resource) }
        return !framed.isEmpty
    }

    // MARK: Keyboard

    /// Sends `wl_keyboard.keymap` with `keymap` (NUL-terminated, in a sealed memfd) to the
    /// newest toplevel's client. New keyboards get `TestCompositor.defaultKeymap`.
    /// - Parameter format: a `wl_keyboard.keymap_format` (1: xkb v1).
    @discardableResult
    public func keyboardKeymap(_ keymap: String, format: UInt32 = WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue) -> Bool {
        guard let (_, keyboards) = inputTargets(KeyboardResource.self) else { return false }
        for keyboard in keyboards { keyboard.sendKeymap(keymap, format: format) }
        return true
    }

    /// Sends `wl_keyboard.enter` on the newest toplevel's surface with `pressedKeys` (evdev
    /// codes) held.
    @discardableResult
    public func keyboardEnter(pressedKeys: [UInt32] = []) -> Bool {
        guard let (surface, keyboards) = inputTargets(KeyboardResource.self) else { return false }
        let serial = wl_display_next_serial(display)
        var keys = wl_array()
        wl_array_init(&keys)
        defer { wl_array_release(&keys) }
        for key in pressedKeys {
            guard let slot = wl_array_add(&keys, MemoryLayout<UInt32>.size) else { return false }
            slot.storeBytes(of: key, as: UInt32.self)
        }
        for keyboard in keyboards { wl_keyboard_send_enter(keyboard.resource, serial, surface, &keys) }
        return true
    }

    /// Sends `wl_keyboard.leave` from the newest toplevel's surface.
    @discardableResult
    public func keyboardLeave() -> Bool {
        guard let (surface, keyboards) = inputTargets(KeyboardResource.self) else { return false }
        let serial = wl_display_next_serial(display)
        for keyboard in keyboards { wl_keyboard_send_leave(keyboard.resource, serial, surface) }
        return true
    }

    /// Sends `wl_keyboard.key`. - Parameter key: an evdev code (`KEY_UP` is 103).
    @discardableResult
    public func keyboardKey(_ key: UInt32, pressed: Bool, time: UInt32? = nil) -> Bool {
        guard let (_, keyboards) = inputTargets(KeyboardResource.self) else { return false }
        let serial = wl_display_next_serial(display), time = time ?? timestampMilliseconds
        let state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
        for keyboard in keyboards { wl_keyboard_send_key(keyboard.resource, serial, time, key, state.rawValue) }
        return true
    }

    /// Sends `wl_keyboard.modifiers` (masks of the keymap's modifier indices: in the default
    /// keymap Shift is 1, Lock 2, Control 4).
    @discardableResult
    public func keyboardModifiers(
        depressed: UInt32, latched: UInt32 = 0, locked: UInt32 = 0, group: UInt32 = 0
    )
        -> Bool
    {
        guard let (_, keyboards) = inputTargets(KeyboardResource.self) else { return false }
        let serial = wl_display_next_serial(display)
        for keyboard in keyboards {
            wl_keyboard_send_modifiers(keyboard.resource, serial, depressed, latched, locked, group)
        }
        return true
    }

    /// Sets the key repeat (`rate` per second, 0: none; `delay` in milliseconds) for new
    /// keyboards and sends `wl_keyboard.repeat_info` to the live ones of version 4+.
    public func keyboardRepeatInfo(rate: Int32, delay: Int32) {
        keyboardRepeat = (rate, delay)
        for keyboard in liveObjects.values.compactMap({ $0 as? KeyboardResource }) where keyboard.version >= 4 {
            wl_keyboard_send_repeat_info(keyboard.resource, rate, delay)
        }
    }

    /// The keymap new keyboards get: xkbcommon's default rules, model and layout
    /// (`evdev`/`pc105`/`us` unless `XKB_DEFAULT_*` say otherwise), as text. Nil if
    /// xkbcommon cannot compile it (no xkb data installed).
    public static let defaultKeymap: String? = {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS) else { return nil }
        defer { xkb_keymap_unref(keymap) }
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }()
}

/// The axes of `wl_pointer.axis`.
public enum PointerAxis: UInt32, Sendable {
    case vertical = 0
    case horizontal = 1
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
        if let keymap = TestCompositor.defaultKeymap {
            keyboard.sendKeymap(keymap, format: WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue)
        } else {
            // No xkb data: the protocol's "no_keymap" format with an empty file.
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                wl_keyboard_send_keymap(keyboard.resource, WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue, fd, 0)
                close(fd)
            }
        }
        let repeatInfo = compositor.keyboardRepeat
        if version >= 4 { wl_keyboard_send_repeat_info(keyboard.resource, repeatInfo.rate, repeatInfo.delay) }
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
final class KeyboardResource: ResourceObject {
    /// Sends `wl_keyboard.keymap` with `text` and its terminating NUL in a sealed memfd.
    func sendKeymap(_ text: String, format: UInt32) {
        let bytes = Array(text.utf8) + [0]
        let fd = CLecternLinux_memfd_create("lectern-tc-keymap")
        guard fd >= 0 else { return }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard written else { return }
        _ = CLecternLinux_seal_memfd(fd)
        // libwayland duplicates the descriptor into the message; ours closes on return.
        wl_keyboard_send_keymap(resource, format, fd, UInt32(bytes.count))
    }
}
final class TouchResource: ResourceObject {}
