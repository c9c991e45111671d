import CWaylandClient
import LecternCore

/// A `wl_pointer` while it is over the input surface: enter, motion, buttons and leave, and
/// wheel or touchpad scrolling as one `scroll` per frame (both axes, with wheel steps from
/// `axis_value120` at version 8, `axis_discrete` at 5–7). Batched until `wl_pointer.frame`
/// (version 5) or until the seat flushes after a dispatch.
final class SeatPointer {
    private let proxy: OpaquePointer
    private let listener: Listener<wl_pointer_listener>
    unowned let seat: Seat
    private(set) var isFocused = false
    /// Buttons pressed while focused, as Linux codes, in press order.
    private(set) var heldButtons: [UInt32] = []
    /// Events waiting for the frame.
    private var batch: [InputEvent] = []
    /// Where in `batch` this frame's scroll accumulates.
    private var scrollIndex: Int?

    init(proxy: OpaquePointer, seat: Seat) {
        self.proxy = proxy
        self.seat = seat
        listener = Listener(
            wl_pointer_listener(
                enter: { data, _, _, surface, x, y in pointer(data).enter(surface: surface, x: x, y: y) },
                leave: { data, _, _, surface in pointer(data).leave(surface: surface) },
                motion: { data, _, time, x, y in pointer(data).motion(time: time, x: x, y: y) },
                button: { data, _, serial, time, button, state in
                    pointer(data).seat.inputSerial = serial
                    pointer(data).button(
                        time: time, code: button, isPressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
                },
                axis: { data, _, time, axis, value in
                    pointer(data).axis(time: time, axis: axis, delta: wl_fixed_to_double(value))
                },
                frame: { data, _ in pointer(data).flush() },
                axis_source: { _, _, _ in },
                axis_stop: { _, _, _, _ in },
                axis_discrete: { data, _, axis, discrete in pointer(data).steps(axis: axis, Double(discrete)) },
                axis_value120: { data, _, axis, value120 in
                    pointer(data).steps(axis: axis, Double(value120) / 120)
                }))
        wl_pointer_add_listener(proxy, listener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if wl_proxy_get_version(proxy) >= 3 { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
    }

    private func enter(surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        guard seat.accepts(surface) else { return }
        isFocused = true
        enqueue(.pointerEnter(location: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))))
    }

    private func leave(surface: OpaquePointer?) {
        guard isFocused, seat.accepts(surface) else { return }
        leave()
    }

    /// Releases the held buttons (the compositor sends no release after leave) and leaves.
    private func leave() {
        for code in heldButtons.reversed() { enqueue(.pointerButton(PointerButton(linuxCode: code), isPressed: false)) }
        heldButtons.removeAll()
        isFocused = false
        enqueue(.pointerLeave)
    }

    private func motion(time: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        guard isFocused else { return }
        let seconds = seat.time(milliseconds: time)
        enqueue(.pointerMotion(location: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))), time: seconds)
    }

    private func button(time: UInt32, code: UInt32, isPressed: Bool) {
        guard isFocused else { return }
        let seconds = seat.time(milliseconds: time)
        if isPressed {
            guard !heldButtons.contains(code) else { return }
            heldButtons.append(code)
        } else {
            guard let index = heldButtons.firstIndex(of: code) else { return }
            heldButtons.remove(at: index)
        }
        enqueue(.pointerButton(PointerButton(linuxCode: code), isPressed: isPressed), time: seconds)
    }

    private func axis(time: UInt32, axis: UInt32, delta: Double) {
        guard isFocused else { return }
        let seconds = seat.time(milliseconds: time)
        updateScroll(time: seconds) { scroll in
            if axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue {
                scroll.delta.x += delta
            } else {
                scroll.delta.y += delta
            }
        }
    }

    private func steps(axis: UInt32, _ count: Double) {
        guard isFocused else { return }
        updateScroll(time: nil) { scroll in
            var steps = scroll.steps ?? Point(x: 0, y: 0)
            if axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue { steps.x += count } else { steps.y += count }
            scroll.steps = steps
        }
    }

    /// Adds to this frame's scroll event, creating it at the current place in the batch.
    private func updateScroll(time: Double?, _ change: (inout (delta: Point, steps: Point?)) -> Void) {
        let index: Int
        if let scrollIndex {
            index = scrollIndex
        } else {
            index = batch.count
            scrollIndex = index
            batch.append(InputEvent(.scroll(delta: Point(x: 0, y: 0), steps: nil), time: seat.lastEventTime))
        }
        guard case .scroll(let delta, let steps) = batch[index].kind else { return }
        var scroll = (delta: delta, steps: steps)
        change(&scroll)
        batch[index].kind = .scroll(delta: scroll.delta, steps: scroll.steps)
        if let time { batch[index].time = time }
    }

    /// Delivers the batched events (at `wl_pointer.frame`, and after every dispatch).
    func flush() {
        scrollIndex = nil
        guard !batch.isEmpty else { return }
        let events = batch
        batch.removeAll()
        for event in events { seat.emit(event.kind, time: event.time) }
    }

    /// The device goes away: delivers what is batched, releases held buttons and leaves.
    func end() {
        if isFocused { leave() }
        flush()
    }

    private func enqueue(_ kind: InputEvent.Kind, time: Double? = nil) {
        batch.append(InputEvent(kind, time: time ?? seat.lastEventTime))
    }
}

private func pointer(_ data: UnsafeMutableRawPointer?) -> SeatPointer {
    Unmanaged<SeatPointer>.fromOpaque(data!).takeUnretainedValue()
}
