/// One input event from the seat, in surface coordinates (view units: one unit is one buffer
/// pixel at output scale 1), stamped with the compositor's time in seconds.
///
/// `LecternWayland` turns `wl_touch`, `wl_pointer` and `wl_keyboard` events into these; the
/// gesture recognizers and key bindings in `LecternCore` consume them. A touch point's event
/// takes effect on its own: `touchFrame` only marks the end of a batch and may never come
/// (cage 0.1.4 never sends `wl_touch.frame`).
public struct InputEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A finger touched the surface. `id` is unique among the fingers currently down.
        case touchDown(id: Int, location: Point)
        case touchMotion(id: Int, location: Point)
        case touchUp(id: Int)
        /// The end of a batch of touch events that belong together (optional).
        case touchFrame
        /// The compositor took the touch sequence away: every finger is up and every gesture
        /// in progress is cancelled.
        case touchCancel
        case pointerEnter(location: Point)
        case pointerMotion(location: Point)
        case pointerLeave
        case pointerButton(PointerButton, isPressed: Bool)
        /// Wheel or touchpad scrolling, in view units (positive: content moves up / left, as
        /// `wl_pointer.axis`). `steps` counts wheel detents when the device has them.
        case scroll(delta: Point, steps: Point?)
        /// A key went down (or repeats while held); keys going up are not reported.
        case key(Key, isRepeat: Bool)
        /// The seat lost or gained a device: forget any state tied to that device.
        case capabilitiesChanged(SeatDevices)
    }

    public var kind: Kind
    /// Seconds on the compositor's monotonic clock (`wl_*` event times are milliseconds).
    public var time: Double

    public init(_ kind: Kind, time: Double) {
        self.kind = kind
        self.time = time
    }
}

/// A pointer button (Linux input event codes, as `wl_pointer.button` reports them).
public enum PointerButton: Hashable, Sendable {
    case left, right, middle
    case other(UInt32)

    public init(linuxCode: UInt32) {
        switch linuxCode {
        case 0x110: self = .left
        case 0x111: self = .right
        case 0x112: self = .middle
        default: self = .other(linuxCode)
        }
    }
}

/// The keys Lectern acts on, resolved from the keymap (so layout and modifiers are honoured).
public enum Key: Hashable, Sendable {
    case up, down, left, right
    case pageUp, pageDown, home, end
    case plus, minus
    case space, enter, escape, backspace
    case digit(Int)
    /// A digit key of the numeric keypad (with Num Lock on or off: KP_8 and KP_Up are both 8),
    /// kept apart from the main block's digits: the keypad is what keypad focus navigates with.
    case keypad(Int)
    /// Any other key, as its xkb keysym.
    case other(UInt32)
}

/// Which input devices the seat currently has.
public struct SeatDevices: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Same bits as `wl_seat.capability`.
    public static let pointer = SeatDevices(rawValue: 1)
    public static let keyboard = SeatDevices(rawValue: 2)
    public static let touch = SeatDevices(rawValue: 4)
}

extension SeatDevices: CustomStringConvertible {
    /// "touch, pointer", or "none".
    public var description: String {
        let names = [(SeatDevices.touch, "touch"), (.pointer, "pointer"), (.keyboard, "keyboard")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
