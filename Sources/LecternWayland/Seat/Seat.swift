import CWaylandClient
import LecternCore
import Logging

/// The `wl_seat`: creates and releases its touch, pointer and keyboard as capabilities come
/// and go, and turns their events for the input surface (the toplevel's) into `InputEvent`s,
/// delivered through `Display.onInput`.
///
/// Touch and pointer events are batched until their `frame` event, and whatever is still
/// batched when the event loop finishes a dispatch is delivered then (`flush()`): cage 0.1.4
/// never sends `wl_touch.frame`, so nothing may wait for one.
public final class Seat {
    let proxy: OpaquePointer
    /// The version bound: the compositor's, up to 8 (`axis_value120`; cage 0.1.4 offers 7).
    public let version: UInt32
    let globalName: UInt32
    private let listener: Listener<wl_seat_listener>
    let logger: Logger
    /// The display owns the seat.
    unowned let display: Display

    /// The devices the seat has now.
    public private(set) var devices: SeatDevices = []
    private var hasCapabilities = false
    private(set) var touch: SeatTouch?
    private(set) var pointer: SeatPointer?
    private(set) var keyboard: SeatKeyboard?
    /// Seconds; the time of the latest event, for the events that carry none (cancel, frame,
    /// device loss).
    private(set) var lastEventTime: Double = 0
    /// The serial of the latest touch, button or key event: what `wl_data_device.set_selection`
    /// must name (compositors take a selection only from input they delivered).
    var inputSerial: UInt32 = 0

    init(proxy: OpaquePointer, version: UInt32, globalName: UInt32, display: Display, logger: Logger) {
        self.proxy = proxy
        self.version = version
        self.globalName = globalName
        self.display = display
        self.logger = logger
        listener = Listener(
            wl_seat_listener(
                capabilities: { data, _, caps in
                    guard let data else { return }
                    Unmanaged<Seat>.fromOpaque(data).takeUnretainedValue().capabilitiesChanged(caps)
                },
                name: { _, _, _ in }))
        wl_seat_add_listener(proxy, listener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        // The devices go before the seat they came from.
        keyboard = nil
        pointer = nil
        touch = nil
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    /// Creates the devices the seat gained and ends and releases the ones it lost.
    private func capabilitiesChanged(_ raw: UInt32) {
        let new = SeatDevices(
            rawValue: raw & (SeatDevices.pointer.rawValue | SeatDevices.keyboard.rawValue | SeatDevices.touch.rawValue))
        guard new != devices || !hasCapabilities else { return }
        hasCapabilities = true
        logger.debug("seat capabilities: \(raw)")
        update(to: new)
    }

    private func update(to new: SeatDevices) {
        // Losses first: a lost device's last events (cancel, button up) come before the change.
        if !new.contains(.touch), let touch {
            touch.end()
            self.touch = nil
        }
        if !new.contains(.pointer), let pointer {
            pointer.end()
            self.pointer = nil
        }
        if !new.contains(.keyboard), let keyboard {
            keyboard.end()
            self.keyboard = nil
        }
        if new.contains(.touch), touch == nil, let proxy = wl_seat_get_touch(proxy) {
            touch = SeatTouch(proxy: proxy, seat: self)
        }
        if new.contains(.pointer), pointer == nil, let proxy = wl_seat_get_pointer(proxy) {
            pointer = SeatPointer(proxy: proxy, seat: self)
        }
        if new.contains(.keyboard), keyboard == nil, let proxy = wl_seat_get_keyboard(proxy) {
            keyboard = SeatKeyboard(proxy: proxy, seat: self)
        }
        devices = new
        emit(.capabilitiesChanged(new))
    }

    /// Ends every device (the seat global is going away): touch points are cancelled, buttons
    /// released, key repeat stopped.
    func removeAllDevices() {
        guard !devices.isEmpty else { return }
        update(to: [])
    }

    /// Delivers the touch and pointer events still waiting for a frame. The event loop calls
    /// this after every dispatch.
    func flush() {
        touch?.flush()
        pointer?.flush()
    }

    // MARK: For the devices

    /// Whether events on `surface` are Lectern's (the toplevel's surface).
    func accepts(_ surface: OpaquePointer?) -> Bool {
        surface != nil && surface == display.inputSurface
    }

    /// Converts a `wl_*` event time (milliseconds) and remembers it as the latest.
    func time(milliseconds: UInt32) -> Double {
        lastEventTime = Double(milliseconds) / 1000
        return lastEventTime
    }

    /// Hands an event to `Display.onInput`, stamped with `time` (default: the latest event's).
    func emit(_ kind: InputEvent.Kind, time: Double? = nil) {
        display.onInput?(InputEvent(kind, time: time ?? lastEventTime))
    }

}
