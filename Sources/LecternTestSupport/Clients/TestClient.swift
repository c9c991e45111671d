import CLecternLinux
import CWaylandProtocols
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal Wayland client on the real libwayland-client, for testing `TestCompositor` itself
/// in-process: a fullscreen xdg toplevel that draws shm buffers.
///
/// It never blocks unless asked: `pump()` sends requests and handles whatever events have
/// arrived, so a test can alternate `client.pump()` and `compositor.dispatch()` on one thread
/// (see `TestClient.run(_:with:until:)`).
public final class TestClient {
    /// Touch events received, as text (`down 1 10.0,20.0`, `motion …`, `up 1`, `frame`, `cancel`).
    public private(set) var touchEvents: [String] = []
    /// Pointer events received, as text (`enter 1.0,2.0`, `motion …`, `button 272 1`,
    /// `axis 0 15.0`, `axis_value120 0 120`, `axis_source 0`, `frame`, `leave`).
    public private(set) var pointerEvents: [String] = []
    /// Keyboard events received, as text (`keymap 1 <size>`, `enter [keys]`, `key 103 1`,
    /// `modifiers 1 0 0 0`, `repeat 25 600`, `leave`).
    public private(set) var keyboardEvents: [String] = []
    /// The text of the last keymap received (without its terminating NUL).
    public private(set) var keymapText: String?
    /// `wl_shm.format` codes the compositor advertised.
    public private(set) var shmFormats: [UInt32] = []
    /// The size of the last `xdg_toplevel.configure` (0x0: choose).
    public private(set) var configuredSize: (width: Int32, height: Int32)?
    /// The serial of the last `xdg_surface.configure`, and how many arrived.
    public private(set) var lastConfigureSerial: UInt32 = 0
    public private(set) var configureCount = 0
    /// The output mode size, once `wl_output` told it.
    public private(set) var outputSize: (width: Int32, height: Int32)?
    /// `wl_seat.capabilities`.
    public private(set) var seatCapabilities: UInt32 = 0
    /// How many `wl_callback.done` and `wl_buffer.release` events arrived.
    public private(set) var frameDoneCount = 0
    public private(set) var bufferReleaseCount = 0
    /// Pings answered.
    public private(set) var pingCount = 0

    private let display: OpaquePointer
    private let interfaces = ClientInterfaces()
    private let listeners = ClientListeners()
    private var registry: OpaquePointer?
    private(set) var compositor: OpaquePointer?
    private var shm: OpaquePointer?
    /// `wl_subcompositor` and `wp_viewporter`, when offered (`TestSubsurface`).
    private(set) var subcompositor: OpaquePointer?
    private(set) var viewporter: OpaquePointer?
    private var wmBase: OpaquePointer?
    private var seat: OpaquePointer?
    private var output: OpaquePointer?
    private var touch: OpaquePointer?
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private(set) var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var buffers: [ObjectIdentifier: ClientBuffer] = [:]
    private var isDisconnected = false

    /// Connects to the compositor at `socketPath` and binds its globals (one roundtrip's worth
    /// of events is handled by the first `pump()`s).
    public init(socketPath: String) throws {
        guard let display = wl_display_connect(socketPath) else {
            throw TestCompositorError.system(call: "wl_display_connect(\(socketPath))", errno: errno)
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, listeners.registry, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Connects to `compositor`'s socket.
    public convenience init(compositor: TestCompositor) throws {
        try self.init(socketPath: "\(compositor.runtimeDirectory.path)/\(compositor.socketName)")
    }

    deinit {
        disconnect()
        interfaces.deallocate()
        listeners.deallocate()
    }

    /// Whether the connection is up (no protocol or I/O error, not disconnected).
    public var isConnected: Bool { !isDisconnected && wl_display_get_error(display) == 0 }

    /// Whether the compositor, shm and xdg_wm_base globals are bound.
    public var hasGlobals: Bool { compositor != nil && shm != nil && wmBase != nil }

    /// Sends queued requests and handles the events that have arrived, without blocking.
    /// - Returns: whether the connection is still up.
    @discardableResult
    public func pump() -> Bool {
        guard !isDisconnected else { return false }
        wl_display_flush(display)
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { return false }
        }
        var pollfd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&pollfd, 1, 0) > 0 {
            if wl_display_read_events(display) < 0 { return false }
        } else {
            wl_display_cancel_read(display)
        }
        return wl_display_dispatch_pending(display) >= 0 && isConnected
    }

    /// Blocks until events arrive and handles them. Returns false when the connection is lost.
    public func dispatchBlocking() -> Bool {
        !isDisconnected && wl_display_dispatch(display) >= 0
    }

    /// Alternates `client.pump()` and `compositor.dispatch()` until `condition` holds.
    @discardableResult
    public static func run(
        _ client: TestClient, with compositor: TestCompositor, timeout: Duration = .seconds(5),
        until condition: () -> Bool
    ) -> Bool {
        compositor.wait(timeout: timeout) {
            client.pump()
            return condition()
        }
    }

    /// Creates a surface with an xdg toplevel that asks for fullscreen, and does the initial
    /// commit (no buffer), after which the compositor configures it.
    public func createFullscreenToplevel(title: String = "TestClient") {
        precondition(hasGlobals, "globals not bound yet: pump first")
        let me = Unmanaged.passUnretained(self).toOpaque()
        surface = wl_compositor_create_surface(compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, listeners.xdgSurface, me)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, listeners.toplevel, me)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, "lectern.testclient")
        xdg_toplevel_set_fullscreen(toplevel, nil)
        wl_surface_commit(surface)
    }

    /// Acks the last configure.
    public func ackConfigure() {
        xdg_surface_ack_configure(xdgSurface, lastConfigureSerial)
    }

    /// Asks for `wl_touch` (if the seat has touch); events land in `touchEvents`.
    public func requestTouch() {
        guard let seat, touch == nil else { return }
        touch = wl_seat_get_touch(seat)
        wl_touch_add_listener(touch, listeners.touch, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Asks for `wl_pointer`; events land in `pointerEvents`.
    public func requestPointer() {
        guard let seat, pointer == nil else { return }
        pointer = wl_seat_get_pointer(seat)
        wl_pointer_add_listener(pointer, listeners.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Asks for `wl_keyboard`; events land in `keyboardEvents`, the keymap in `keymapText`.
    public func requestKeyboard() {
        guard let seat, keyboard == nil else { return }
        keyboard = wl_seat_get_keyboard(seat)
        wl_keyboard_add_listener(keyboard, listeners.keyboard, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Draws a buffer of `width`x`height` (xrgb8888) with `pixel(x, y)` as `0x00RRGGBB`,
    /// attaches it, damages `damage` (the whole buffer when nil) with `damage_buffer`, asks for
    /// a frame callback and commits.
    public func draw(
        width: Int32, height: Int32, damage: (x: Int32, y: Int32, width: Int32, height: Int32)? = nil,
        format: UInt32 = 1, pixel: (Int, Int) -> UInt32
    ) throws {
        try attachBuffer(to: surface, width: width, height: height, format: format, pixel: pixel)
        let area = damage ?? (0, 0, width, height)
        wl_surface_damage_buffer(surface, area.x, area.y, area.width, area.height)
        commit()
    }

    /// Asks for a frame callback and commits the toplevel's surface (no new buffer: what its
    /// subsurfaces' synchronized commits set takes effect).
    public func commit() {
        let callback = wl_surface_frame(surface)
        wl_callback_add_listener(callback, listeners.callback, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_commit(surface)
    }

    /// Attaches a new buffer of `width`x`height` in `format` (1: xrgb8888, 0: argb8888) with
    /// `pixel(x, y)` to `target`; the buffer is freed when the compositor releases it.
    func attachBuffer(
        to target: OpaquePointer?, width: Int32, height: Int32, format: UInt32, pixel: (Int, Int) -> UInt32
    ) throws {
        let buffer = try ClientBuffer(shm: shm!, width: width, height: height, format: format)
        buffer.fill(pixel)
        buffers[ObjectIdentifier(buffer)] = buffer
        wl_buffer_add_listener(buffer.proxy, listeners.buffer, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_attach(target, buffer.proxy, 0, 0)
    }

    /// Destroys the toplevel and its surface.
    public func destroyToplevel() {
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        (toplevel, xdgSurface, surface) = (nil, nil, nil)
        wl_display_flush(display)
    }

    /// Closes the connection (every object dies with it on the compositor's side).
    public func disconnect() {
        guard !isDisconnected else { return }
        isDisconnected = true
        for buffer in buffers.values { buffer.destroy() }
        buffers.removeAll()
        wl_display_disconnect(display)
    }

    // MARK: Events

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor": compositor = bind(name, interfaces.compositor, min(version, 4))
        case "wl_shm":
            shm = bind(name, interfaces.shm, 1)
            wl_shm_add_listener(shm, listeners.shm, Unmanaged.passUnretained(self).toOpaque())
        case "xdg_wm_base":
            wmBase = bind(name, interfaces.wmBase, min(version, 2))
            xdg_wm_base_add_listener(wmBase, listeners.wmBase, Unmanaged.passUnretained(self).toOpaque())
        case "wl_seat":
            seat = bind(name, interfaces.seat, min(version, 8))
            wl_seat_add_listener(seat, listeners.seat, Unmanaged.passUnretained(self).toOpaque())
        case "wl_subcompositor": subcompositor = bind(name, interfaces.subcompositor, 1)
        case "wp_viewporter": viewporter = bind(name, interfaces.viewporter, 1)
        case "wl_output":
            output = bind(name, interfaces.output, min(version, 3))
            wl_output_add_listener(output, listeners.output, Unmanaged.passUnretained(self).toOpaque())
        default: break
        }
    }

    private func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, _ version: UInt32) -> OpaquePointer? {
        OpaquePointer(wl_registry_bind(registry, name, interface, version))
    }

    fileprivate func configured(width: Int32, height: Int32) { configuredSize = (width, height) }
    fileprivate func surfaceConfigured(serial: UInt32) {
        lastConfigureSerial = serial
        configureCount += 1
    }
    fileprivate func ping(serial: UInt32) {
        pingCount += 1
        xdg_wm_base_pong(wmBase, serial)
    }
    fileprivate func shmFormat(_ format: UInt32) { shmFormats.append(format) }
    fileprivate func outputMode(width: Int32, height: Int32) { outputSize = (width, height) }
    fileprivate func capabilities(_ capabilities: UInt32) { seatCapabilities = capabilities }
    fileprivate func frameDone(_ callback: OpaquePointer?) {
        frameDoneCount += 1
        wl_callback_destroy(callback)
    }
    fileprivate func released(_ proxy: OpaquePointer?) {
        bufferReleaseCount += 1
        guard let key = buffers.first(where: { $0.value.proxy == proxy })?.key else { return }
        buffers.removeValue(forKey: key)?.destroy()
    }
    fileprivate func touchEvent(_ text: String) { touchEvents.append(text) }
    fileprivate func pointerEvent(_ text: String) { pointerEvents.append(text) }
    fileprivate func keyboardEvent(_ text: String) { keyboardEvents.append(text) }
    fileprivate func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        keyboardEvents.append("keymap \(format) \(size)")
        guard size > 0, let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            return
        }
        defer { munmap(mapped, Int(size)) }
        let bytes = UnsafeRawBufferPointer(start: mapped, count: Int(size))
        keymapText = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// One shm buffer in its own sealed memfd pool.
private final class ClientBuffer {
    let proxy: OpaquePointer
    private let data: UnsafeMutableRawPointer
    private let size: Int
    let width: Int, height: Int, format: UInt32
    private var isDestroyed = false

    init(shm: OpaquePointer, width: Int32, height: Int32, format: UInt32) throws {
        self.width = Int(width)
        self.height = Int(height)
        self.format = format
        size = Int(width) * Int(height) * 4
        let fd = CLecternLinux_memfd_create("lectern-testclient")
        guard fd >= 0 else { throw TestCompositorError.system(call: "memfd_create", errno: errno) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else { throw TestCompositorError.system(call: "ftruncate", errno: errno) }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw TestCompositorError.system(call: "mmap", errno: errno)
        }
        data = mapped
        _ = CLecternLinux_seal_memfd(fd)
        let pool = wl_shm_create_pool(shm, fd, width * height * 4)
        proxy = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, format)
        wl_shm_pool_destroy(pool)
    }

    func fill(_ pixel: (Int, Int) -> UInt32) {
        let pixels = data.bindMemory(to: UInt32.self, capacity: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = pixel(x, y) }
        }
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        wl_buffer_destroy(proxy)
        munmap(data, size)
    }
}

/// Heap copies of the client-side `wl_interface`s for `wl_registry_bind` (see `Interfaces`).
private final class ClientInterfaces {
    let compositor = copy(wl_compositor_interface)
    let shm = copy(wl_shm_interface)
    let wmBase = copy(xdg_wm_base_interface)
    let seat = copy(wl_seat_interface)
    let output = copy(wl_output_interface)
    let subcompositor = copy(wl_subcompositor_interface)
    let viewporter = copy(wp_viewporter_interface)

    private static func copy(_ interface: wl_interface) -> UnsafeMutablePointer<wl_interface> {
        let pointer = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        pointer.initialize(to: interface)
        return pointer
    }

    func deallocate() {
        for pointer in [compositor, shm, wmBase, seat, output, subcompositor, viewporter] { pointer.deallocate() }
    }
}

private func client(_ data: UnsafeMutableRawPointer?) -> TestClient {
    Unmanaged<TestClient>.fromOpaque(data!).takeUnretainedValue()
}

/// The event tables of `TestClient`'s proxies; every slot filled.
private final class ClientListeners {
    let registry = allocate(
        wl_registry_listener(
            global: { data, _, name, interface, version in
                client(data).global(name: name, interface: String(cString: interface!), version: version)
            },
            global_remove: { _, _, _ in }))
    let shm = allocate(wl_shm_listener(format: { data, _, format in client(data).shmFormat(format) }))
    let wmBase = allocate(xdg_wm_base_listener(ping: { data, _, serial in client(data).ping(serial: serial) }))
    let xdgSurface = allocate(
        xdg_surface_listener(
            configure: { data, _, serial in client(data).surfaceConfigured(serial: serial) }))
    let toplevel = allocate(
        xdg_toplevel_listener(
            configure: { data, _, width, height, _ in client(data).configured(width: width, height: height) },
            close: { _, _ in },
            configure_bounds: { _, _, _, _ in },
            wm_capabilities: { _, _, _ in }))
    let seat = allocate(
        wl_seat_listener(
            capabilities: { data, _, capabilities in client(data).capabilities(capabilities) },
            name: { _, _, _ in }))
    let output = allocate(
        wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { data, _, _, width, height, _ in client(data).outputMode(width: width, height: height) },
            done: { _, _ in },
            scale: { _, _, _ in },
            name: { _, _, _ in },
            description: { _, _, _ in }))
    let callback = allocate(wl_callback_listener(done: { data, callback, _ in client(data).frameDone(callback) }))
    let buffer = allocate(wl_buffer_listener(release: { data, buffer in client(data).released(buffer) }))
    let touch = allocate(
        wl_touch_listener(
            down: { data, _, _, _, _, id, x, y in
                client(data).touchEvent("down \(id) \(wl_fixed_to_double(x)),\(wl_fixed_to_double(y))")
            },
            up: { data, _, _, _, id in client(data).touchEvent("up \(id)") },
            motion: { data, _, _, id, x, y in
                client(data).touchEvent("motion \(id) \(wl_fixed_to_double(x)),\(wl_fixed_to_double(y))")
            },
            frame: { data, _ in client(data).touchEvent("frame") },
            cancel: { data, _ in client(data).touchEvent("cancel") },
            shape: { _, _, _, _, _ in },
            orientation: { _, _, _, _ in }))

    let pointer = allocate(
        wl_pointer_listener(
            enter: { data, _, _, _, x, y in
                client(data).pointerEvent("enter \(wl_fixed_to_double(x)),\(wl_fixed_to_double(y))")
            },
            leave: { data, _, _, _ in client(data).pointerEvent("leave") },
            motion: { data, _, _, x, y in
                client(data).pointerEvent("motion \(wl_fixed_to_double(x)),\(wl_fixed_to_double(y))")
            },
            button: { data, _, _, _, button, state in client(data).pointerEvent("button \(button) \(state)") },
            axis: { data, _, _, axis, value in client(data).pointerEvent("axis \(axis) \(wl_fixed_to_double(value))") },
            frame: { data, _ in client(data).pointerEvent("frame") },
            axis_source: { data, _, source in client(data).pointerEvent("axis_source \(source)") },
            axis_stop: { data, _, _, axis in client(data).pointerEvent("axis_stop \(axis)") },
            axis_discrete: { data, _, axis, discrete in client(data).pointerEvent("axis_discrete \(axis) \(discrete)")
            },
            axis_value120: { data, _, axis, value in client(data).pointerEvent("axis_value120 \(axis) \(value)") }))
    let keyboard = allocate(
        wl_keyboard_listener(
            keymap: { data, _, format, fd, size in client(data).keymap(format: format, fd: fd, size: size) },
            enter: { data, _, _, _, keys in
                let count = (keys?.pointee.size ?? 0) / MemoryLayout<UInt32>.size
                let held = (0..<count).map { keys!.pointee.data.load(fromByteOffset: $0 * 4, as: UInt32.self) }
                client(data).keyboardEvent("enter \(held)")
            },
            leave: { data, _, _, _ in client(data).keyboardEvent("leave") },
            key: { data, _, _, _, key, state in client(data).keyboardEvent("key \(key) \(state)") },
            modifiers: { data, _, _, depressed, latched, locked, group in
                client(data).keyboardEvent("modifiers \(depressed) \(latched) \(locked) \(group)")
            },
            repeat_info: { data, _, rate, delay in client(data).keyboardEvent("repeat \(rate) \(delay)") }))

    private static func allocate<T>(_ table: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: table)
        return pointer
    }

    func deallocate() {
        registry.deallocate(); shm.deallocate(); wmBase.deallocate(); xdgSurface.deallocate()
        toplevel.deallocate(); seat.deallocate(); output.deallocate(); callback.deallocate()
        buffer.deallocate(); touch.deallocate(); pointer.deallocate(); keyboard.deallocate()
    }
}
