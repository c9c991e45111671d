import CWaylandClient
import LecternCore

/// A `wl_touch`: touch points that went down on the input surface become `touchDown`,
/// `touchMotion` and `touchUp` events, batched until `wl_touch.frame` (which ends them with
/// `touchFrame`) or until the seat flushes after a dispatch, whichever comes first.
/// Shape and orientation are ignored.
final class SeatTouch {
    private let proxy: OpaquePointer
    private let listener: Listener<wl_touch_listener>
    unowned let seat: Seat
    /// Points down on the input surface. Points on other surfaces are not ours, nor their events.
    private(set) var activePoints: Set<Int32> = []
    /// Events waiting for the frame.
    private var batch: [InputEvent] = []
    /// Whether events were delivered or batched since the last `touchFrame`.
    private var isFrameOpen = false

    init(proxy: OpaquePointer, seat: Seat) {
        self.proxy = proxy
        self.seat = seat
        listener = Listener(
            wl_touch_listener(
                down: { data, _, serial, time, surface, id, x, y in
                    touch(data).seat.inputSerial = serial
                    touch(data).down(time: time, surface: surface, id: id, x: x, y: y)
                },
                up: { data, _, serial, time, id in
                    touch(data).seat.inputSerial = serial
                    touch(data).up(time: time, id: id)
                },
                motion: { data, _, time, id, x, y in touch(data).motion(time: time, id: id, x: x, y: y) },
                frame: { data, _ in touch(data).frame() },
                cancel: { data, _ in touch(data).cancel() },
                shape: { _, _, _, _, _ in },
                orientation: { _, _, _, _ in }))
        wl_touch_add_listener(proxy, listener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if wl_proxy_get_version(proxy) >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
    }

    private func down(time: UInt32, surface: OpaquePointer?, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard seat.accepts(surface) else { return }
        let seconds = seat.time(milliseconds: time)
        if activePoints.contains(id) {
            // A compositor bug; keep the consumer's view consistent: the old point ends first.
            seat.logger.debug("wl_touch.down for point \(id), which is already down")
            enqueue(.touchUp(id: Int(id)), time: seconds)
        }
        activePoints.insert(id)
        enqueue(.touchDown(id: Int(id), location: location(x, y)), time: seconds)
    }

    private func motion(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard activePoints.contains(id) else { return }
        enqueue(.touchMotion(id: Int(id), location: location(x, y)), time: seat.time(milliseconds: time))
    }

    private func up(time: UInt32, id: Int32) {
        guard activePoints.remove(id) != nil else { return }
        enqueue(.touchUp(id: Int(id)), time: seat.time(milliseconds: time))
    }

    private func frame() {
        flush()
        guard isFrameOpen else { return }
        isFrameOpen = false
        seat.emit(.touchFrame)
    }

    private func cancel() {
        flush()
        activePoints.removeAll()
        isFrameOpen = false
        seat.emit(.touchCancel)
    }

    /// Delivers the batched events.
    func flush() {
        guard !batch.isEmpty else { return }
        let events = batch
        batch.removeAll()
        for event in events { seat.emit(event.kind, time: event.time) }
    }

    /// The device goes away: delivers what is batched and cancels the points still down.
    func end() {
        flush()
        guard !activePoints.isEmpty else { return }
        activePoints.removeAll()
        isFrameOpen = false
        seat.emit(.touchCancel)
    }

    private func enqueue(_ kind: InputEvent.Kind, time: Double) {
        batch.append(InputEvent(kind, time: time))
        isFrameOpen = true
    }

    private func location(_ x: wl_fixed_t, _ y: wl_fixed_t) -> Point {
        Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    }
}

private func touch(_ data: UnsafeMutableRawPointer?) -> SeatTouch {
    Unmanaged<SeatTouch>.fromOpaque(data!).takeUnretainedValue()
}
