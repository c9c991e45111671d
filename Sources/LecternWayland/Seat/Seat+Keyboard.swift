import CWaylandClient
import CXKBCommon
import Glibc
import LecternCore
import LecternLinux

/// A `wl_keyboard` while the input surface has keyboard focus: key presses resolved through
/// the compositor's xkb keymap and the current modifiers become `key` events; held keys that
/// xkb says repeat are repeated at the compositor's rate and delay by a timer of the event
/// loop. Key releases are not reported but stop the repeat; so does leaving.
///
/// A keymap that cannot be read or compiled is logged and ignored (the previous one stays).
final class SeatKeyboard {
    private let proxy: OpaquePointer
    private let listener: Listener<wl_keyboard_listener>
    unowned let seat: Seat
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private(set) var isFocused = false
    /// Repeats per second (0: no repeat) and milliseconds before the first repeat. Until
    /// `repeat_info` (version 4) arrives, the usual defaults.
    private var repeatRate: Int32 = 25
    private var repeatDelay: Int32 = 600
    /// The key repeating: its xkb keycode, press time (seconds) and repeats so far.
    private var repeating: (keycode: UInt32, pressTime: Double, count: Int)?
    /// The next repeat, while a key repeats.
    private var repeatTimer: EventLoop.Timer?

    init(proxy: OpaquePointer, seat: Seat) {
        self.proxy = proxy
        self.seat = seat
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        if let context {
            // xkbcommon writes its own errors to stderr; ours go through the logger.
            xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        } else {
            seat.logger.error("xkb_context_new failed: keys will be ignored")
        }
        listener = Listener(
            wl_keyboard_listener(
                keymap: { data, _, format, fd, size in keyboard(data).keymap(format: format, fd: fd, size: size) },
                enter: { data, _, _, surface, _ in keyboard(data).enter(surface: surface) },
                leave: { data, _, _, surface in keyboard(data).leave(surface: surface) },
                key: { data, _, serial, time, key, state in
                    keyboard(data).seat.inputSerial = serial
                    keyboard(data).key(
                        time: time, code: key, isPressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
                },
                modifiers: { data, _, _, depressed, latched, locked, group in
                    keyboard(data).modifiers(depressed: depressed, latched: latched, locked: locked, group: group)
                },
                repeat_info: { data, _, rate, delay in keyboard(data).repeatInfo(rate: rate, delay: delay) }))
        wl_keyboard_add_listener(proxy, listener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if wl_proxy_get_version(proxy) >= 3 { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
        repeatTimer?.cancel()
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
    }

    /// Compiles the keymap the compositor sent. We own `fd` and close it.
    private func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
            seat.logger.warning("keymap format \(format) is not xkb v1: ignored")
            return
        }
        guard let context, size > 0 else {
            seat.logger.warning("empty keymap (\(size) bytes): ignored")
            return
        }
        // Version 7 requires MAP_PRIVATE; the file may be sealed or shared.
        guard let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            seat.logger.warning("cannot map the keymap (\(size) bytes): \(errnoText(errno)); ignored")
            return
        }
        defer { munmap(mapped, Int(size)) }
        // The text ends with a NUL within `size`; do not read past `size` if it does not.
        let text = mapped.assumingMemoryBound(to: CChar.self)
        let length = strnlen(text, Int(size))
        guard
            let compiled = xkb_keymap_new_from_buffer(
                context, text, length, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else {
            seat.logger.warning("the compositor's keymap does not compile: ignored")
            return
        }
        guard let newState = xkb_state_new(compiled) else {
            xkb_keymap_unref(compiled)
            seat.logger.warning("xkb_state_new failed: keymap ignored")
            return
        }
        stopRepeat()
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = compiled
        state = newState
    }

    private func enter(surface: OpaquePointer?) {
        isFocused = seat.accepts(surface)
    }

    private func leave(surface: OpaquePointer?) {
        guard seat.accepts(surface) else { return }
        isFocused = false
        stopRepeat()
    }

    private func key(time: UInt32, code: UInt32, isPressed: Bool) {
        let seconds = seat.time(milliseconds: time)
        // xkb keycodes are evdev codes + 8.
        let keycode = code + 8
        guard isPressed else {
            if repeating?.keycode == keycode { stopRepeat() }
            return
        }
        guard isFocused, let keymap, let key = resolve(keycode) else { return }
        seat.emit(.key(key, isRepeat: false), time: seconds)
        if repeatRate > 0, xkb_keymap_key_repeats(keymap, keycode) != 0 {
            repeating = (keycode, seconds, 0)
            scheduleRepeat(after: Double(repeatDelay) / 1000)
        }
    }

    private func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    private func repeatInfo(rate: Int32, delay: Int32) {
        repeatRate = max(0, rate)
        repeatDelay = max(0, delay)
        if repeatRate == 0 { stopRepeat() }
    }

    /// The key for an xkb keycode under the current modifiers; nil when it has no symbol.
    private func resolve(_ keycode: UInt32) -> Key? {
        guard let state else { return nil }
        let symbol = xkb_state_key_get_one_sym(state, keycode)
        guard symbol != UInt32(XKB_KEY_NoSymbol) else { return nil }
        return Key(keysym: symbol)
    }

    private func scheduleRepeat(after seconds: Double) {
        repeatTimer?.cancel()
        repeatTimer = seat.display.loop.schedule(after: seconds) { [weak self] in self?.repeatTimerFired() }
    }

    /// The repeat timer expired: one repeat, stamped as the compositor would have (press time
    /// + delay + n / rate), and the timer set for the next.
    private func repeatTimerFired() {
        guard let current = repeating else { return }
        guard isFocused, repeatRate > 0, let key = resolve(current.keycode) else {
            stopRepeat()
            return
        }
        let time = current.pressTime + Double(repeatDelay) / 1000 + Double(current.count) / Double(repeatRate)
        repeating?.count += 1
        seat.emit(.key(key, isRepeat: true), time: time)
        // The handler may have changed things (a repeat could, say, end the reader's focus).
        if repeating != nil { scheduleRepeat(after: 1 / Double(repeatRate)) }
    }

    private func stopRepeat() {
        guard repeating != nil else { return }
        repeating = nil
        repeatTimer?.cancel()
        repeatTimer = nil
    }

    /// The device goes away: no more repeats.
    func end() {
        stopRepeat()
        isFocused = false
    }
}

private func keyboard(_ data: UnsafeMutableRawPointer?) -> SeatKeyboard {
    Unmanaged<SeatKeyboard>.fromOpaque(data!).takeUnretainedValue()
}

extension Key {
    /// The key for an xkb keysym: the keypad's digit keys are `.keypad` digits with Num Lock on
    /// (KP_8), and so are its five-key navigation keys with Num Lock off (KP_Up, KP_Down,
    /// KP_Left, KP_Right, KP_Begin, KP_Insert: 8, 2, 4, 6, 5, 0); its other keys count as their
    /// main-block equivalents (KP_Home is Home), `=` as plus and `_` as minus (the same keys
    /// without Shift on most layouts).
    init(keysym: UInt32) {
        switch Int32(bitPattern: keysym) {
        case XKB_KEY_Up: self = .up
        case XKB_KEY_Down: self = .down
        case XKB_KEY_Left: self = .left
        case XKB_KEY_Right: self = .right
        case XKB_KEY_Page_Up, XKB_KEY_KP_Page_Up: self = .pageUp
        case XKB_KEY_Page_Down, XKB_KEY_KP_Page_Down: self = .pageDown
        case XKB_KEY_Home, XKB_KEY_KP_Home: self = .home
        case XKB_KEY_End, XKB_KEY_KP_End: self = .end
        case XKB_KEY_KP_Insert: self = .keypad(0)
        case XKB_KEY_KP_Down: self = .keypad(2)
        case XKB_KEY_KP_Left: self = .keypad(4)
        case XKB_KEY_KP_Begin: self = .keypad(5)
        case XKB_KEY_KP_Right: self = .keypad(6)
        case XKB_KEY_KP_Up: self = .keypad(8)
        case XKB_KEY_plus, XKB_KEY_KP_Add, XKB_KEY_equal, XKB_KEY_KP_Equal: self = .plus
        case XKB_KEY_minus, XKB_KEY_KP_Subtract, XKB_KEY_underscore: self = .minus
        case XKB_KEY_space, XKB_KEY_KP_Space: self = .space
        case XKB_KEY_Return, XKB_KEY_KP_Enter, XKB_KEY_ISO_Enter: self = .enter
        case XKB_KEY_Escape: self = .escape
        case XKB_KEY_BackSpace: self = .backspace
        case XKB_KEY_0...XKB_KEY_9: self = .digit(Int(Int32(bitPattern: keysym) - XKB_KEY_0))
        case XKB_KEY_KP_0...XKB_KEY_KP_9: self = .keypad(Int(Int32(bitPattern: keysym) - XKB_KEY_KP_0))
        default: self = .other(keysym)
        }
    }
}
