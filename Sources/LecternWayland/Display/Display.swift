import CWaylandClient
import CWaylandProtocols
import Glibc
import LecternCore
import LecternLinux
import Logging

/// The connection to the compositor and the globals Lectern binds from its registry.
///
/// Each global has a required and a preferred version; Lectern binds
/// `min(advertised, preferred)` and a missing required global is a clear error.
public final class Display {
    /// The `wl_display`.
    let connection: OpaquePointer
    private let registry: OpaquePointer
    private let registryListener: Listener<wl_registry_listener>
    private let wmBaseListener: Listener<xdg_wm_base_listener>
    private let shmListener: Listener<wl_shm_listener>
    let logger: Logger
    /// The loop that reads this connection (and runs the seat's key repeat).
    public let loop: EventLoop

    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    /// The pixel formats `wl_shm` advertised (`wl_shm.format`).
    public private(set) var shmFormats: Set<UInt32> = []
    private(set) var wmBase: OpaquePointer?
    public private(set) var seat: Seat?
    public private(set) var outputs: [UInt32: Output] = [:]
    /// `wp_viewporter` and `wp_fractional_scale_manager_v1`, when offered: together they let a
    /// surface draw at a fractional scale (1.25, 1.5) with a buffer of that many pixels.
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaleManager: OpaquePointer?
    /// `wp_single_pixel_buffer_manager_v1`, when offered: with `wp_viewporter`, the curtain is one
    /// black pixel stretched over the window.
    private(set) var singlePixelBufferManager: OpaquePointer?
    /// `wl_data_device_manager`, when offered: the selection (`offerSelection(_:)`).
    private(set) var dataDeviceManager: OpaquePointer?
    /// `wl_subcompositor`, when offered: a toplevel's `ScanOutBlocker`.
    private(set) var subcompositor: OpaquePointer?
    /// `wp_presentation`, when offered: when each frame reached the screen (`XdgToplevel.commit`).
    private(set) var presentation: OpaquePointer?
    private var presentationListener: Listener<wp_presentation_listener>?
    /// The listener of each frame's `wp_presentation_feedback`.
    let presentationFeedbackListener = PresentationFeedback.makeListener()
    /// The clock `Presented` times are on (`wp_presentation.clock_id`: CLOCK_MONOTONIC under
    /// sway 1.7, CLOCK_MONOTONIC_RAW under weston 10; cage 0.1.4 offers no `wp_presentation`);
    /// nil before the compositor said, or without `wp_presentation`.
    public private(set) var presentationClock: clockid_t?
    /// Presentation times are on CLOCK_MONOTONIC, as wlroots compositors stamp input events
    /// (in milliseconds): the two can be compared.
    public var presentsOnMonotonicClock: Bool { presentationClock == CLOCK_MONOTONIC }
    private var dataDevice: DataDevice?
    /// Told when an output appeared, changed (`wl_output.done`) or went away.
    private var outputObservers: [ObjectIdentifier: () -> Void] = [:]

    /// Receives every input event (touch, pointer, keyboard) for the toplevel's surface, in
    /// surface coordinates, on the event loop's thread. Set it any time: the seat may come later
    /// or not at all (weston's headless backend offers none).
    public var onInput: ((InputEvent) -> Void)?
    /// The surface whose input counts (the toplevel's; `XdgToplevel` sets it).
    var inputSurface: OpaquePointer?
    /// Runs while a round trip waits (see `init`); nil: round trips block in libwayland.
    private let whileWaiting: (() -> Void)?
    private let syncListener: Listener<wl_callback_listener>
    private var isSyncDone = false

    /// Connects to `$WAYLAND_DISPLAY` (or `name`: a socket name or an absolute path), binds
    /// the globals (two round trips, or one: `awaitsBoundState`) and joins `loop`, which reads
    /// the connection from then on.
    /// - Parameters:
    ///   - name: the socket; nil: `$WAYLAND_DISPLAY`.
    ///   - loop: the event loop that will read this connection.
    ///   - logger: where the Wayland layer logs.
    ///   - whileWaiting: for a compositor in the same thread (tests): round trips do not block
    ///     but poll the connection and call this between polls, so the compositor can answer.
    ///   - awaitsBoundState: whether a second round trip waits for the first events of what
    ///     was bound (outputs' modes, the seat's devices, `wl_shm`'s formats). False: one round
    ///     trip only, and those events come with the caller's next one, before the answer to
    ///     anything it asked after: a window's first configure (`FirstFrame.commitEarly`, where
    ///     the second round trip took about 0.45 of the 2 ms from `main` to a repeat start's
    ///     frame under the test compositor).
    public init(
        name: String? = nil, loop: EventLoop, logger: Logger, whileWaiting: (() -> Void)? = nil,
        awaitsBoundState: Bool = true
    ) throws(WaylandError) {
        self.logger = logger
        self.loop = loop
        self.whileWaiting = whileWaiting
        syncListener = Listener(
            wl_callback_listener(done: { data, callback, _ in
                wl_callback_destroy(callback)
                guard let data else { return }
                Unmanaged<Display>.fromOpaque(data).takeUnretainedValue().isSyncDone = true
            }))
        // The connection made at the top of the start, if there is one for this name: its
        // globals' answer may be waiting.
        func cannotConnect(_ code: Int32) -> WaylandError {
            .cannotConnect(
                display: name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0", errno: code)
        }
        let early: EarlyConnection?
        switch EarlyConnection.take(name: name) {
        case .connected(let connection): early = connection
        case .failed(_, let code): throw cannotConnect(code)
        case nil: early = nil
        }
        if let early {
            connection = early.connection
            registry = early.registry
        } else {
            guard let connection = wl_display_connect(name) else { throw cannotConnect(errno) }
            self.connection = connection
            registry = wl_display_get_registry(connection)
        }
        registryListener = Listener(
            wl_registry_listener(
                global: { data, _, name, interface, version in
                    guard let data, let interface else { return }
                    Unmanaged<Display>.fromOpaque(data).takeUnretainedValue()
                        .global(name: name, interface: String(cString: interface), version: version)
                },
                global_remove: { data, _, name in
                    guard let data else { return }
                    Unmanaged<Display>.fromOpaque(data).takeUnretainedValue().globalRemoved(name: name)
                }))
        wmBaseListener = Listener(
            xdg_wm_base_listener(ping: { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) }))
        shmListener = Listener(
            wl_shm_listener(format: { data, _, format in
                guard let data else { return }
                Unmanaged<Display>.fromOpaque(data).takeUnretainedValue().shmFormats.insert(format)
            }))
        wl_registry_add_listener(registry, registryListener.pointer, Unmanaged.passUnretained(self).toOpaque())
        // First round trip: globals (asked for early: then its answer may be here); second: the
        // initial events of what we bound (output modes, seat caps), unless the caller's next
        // round trip brings them.
        if let early { try wait(for: early.sync) } else { try roundtrip() }
        if awaitsBoundState { try roundtrip() }
        guard compositor != nil else { throw .missingGlobal(interface: "wl_compositor", requiredVersion: 4) }
        guard shm != nil else { throw .missingGlobal(interface: "wl_shm", requiredVersion: 1) }
        guard wmBase != nil else { throw .missingGlobal(interface: "xdg_wm_base", requiredVersion: 1) }
        loop.connection = self
    }

    /// The format Lectern's frames use: `xrgb8888` when offered (frames are opaque, and a
    /// compositor need not blend an opaque format), else `argb8888` (every `wl_shm` must
    /// offer both; Lectern's pixels have alpha 0xFF either way).
    public var frameFormat: UInt32 { Self.frameFormat(among: shmFormats) }

    /// The frame format among `formats` (see `frameFormat`).
    public static func frameFormat(among formats: Set<UInt32>) -> UInt32 {
        formats.contains(WL_SHM_FORMAT_XRGB8888.rawValue)
            ? WL_SHM_FORMAT_XRGB8888.rawValue : WL_SHM_FORMAT_ARGB8888.rawValue
    }

    /// Offers `text` as the Wayland selection (what a paste in another client gets), or
    /// withdraws it (nil). Does nothing where the compositor offers no data device or no seat.
    public func offerSelection(_ text: String?) {
        guard let manager = dataDeviceManager, let seat else { return }
        if dataDevice == nil { dataDevice = DataDevice(manager: manager, seat: seat, display: self) }
        dataDevice?.offer(text, serial: seat.inputSerial)
    }

    /// A pool of `wl_shm` buffers for one surface's frames, in `frameFormat` (opaque) or, with
    /// `hasAlpha`, `argb8888` (a layer the surfaces below show through: `PanSurface`'s chrome).
    public func makeBufferPool(hasAlpha: Bool = false) -> ShmBufferPool {
        ShmBufferPool(display: self, format: hasAlpha ? WL_SHM_FORMAT_ARGB8888.rawValue : nil)
    }

    /// Whether a window's pages can be a subsurface that a pan moves (`ContentSurface`):
    /// `wl_subcompositor` and `wp_viewporter` are offered.
    public var offersContentSurfaces: Bool { subcompositor != nil && viewporter != nil }

    private func bind(
        _ name: UInt32, _ interface: UnsafePointer<wl_interface>, advertised: UInt32, preferred: UInt32
    )
        -> (OpaquePointer?, UInt32)
    {
        let version = min(advertised, preferred)
        let proxy = wl_registry_bind(registry, name, interface, version)
        return (proxy.map { OpaquePointer($0) }, version)
    }

    private func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor" where version >= 4:
            compositor = bind(name, CWaylandClient_compositor_interface(), advertised: version, preferred: 5).0
        case "wl_shm":
            shm = bind(name, CWaylandClient_shm_interface(), advertised: version, preferred: 1).0
            wl_shm_add_listener(shm, shmListener.pointer, Unmanaged.passUnretained(self).toOpaque())
        case "xdg_wm_base":
            let (proxy, _) = bind(name, CWaylandProtocols_xdg_wm_base_interface(), advertised: version, preferred: 5)
            wmBase = proxy
            xdg_wm_base_add_listener(proxy, wmBaseListener.pointer, nil)
        case "wl_seat" where seat == nil:
            // Version 8: wl_pointer.axis_value120 (libwayland 1.21 knows it; 9 it does not).
            let (proxy, bound) = bind(name, CWaylandClient_seat_interface(), advertised: version, preferred: 8)
            if let proxy {
                seat = Seat(proxy: proxy, version: bound, globalName: name, display: self, logger: logger)
            }
        case "wl_output":
            let (proxy, bound) = bind(name, CWaylandClient_output_interface(), advertised: version, preferred: 4)
            if let proxy {
                let output = Output(proxy: proxy, version: bound, globalName: name)
                output.onChange = { [unowned self] in outputsChanged() }
                outputs[name] = output
            }
        case "wl_data_device_manager" where dataDeviceManager == nil:
            dataDeviceManager =
                bind(
                    name, CWaylandClient_data_device_manager_interface(), advertised: version, preferred: 3
                ).0
        case "wl_subcompositor" where subcompositor == nil:
            subcompositor = bind(name, CWaylandClient_subcompositor_interface(), advertised: version, preferred: 1).0
        case "wp_presentation" where presentation == nil:
            presentation = bind(name, CWaylandProtocols_presentation_interface(), advertised: version, preferred: 1).0
            let listener = Listener(
                wp_presentation_listener(clock_id: { data, _, clock in
                    guard let data else { return }
                    Unmanaged<Display>.fromOpaque(data).takeUnretainedValue().presentationClock = clockid_t(clock)
                }))
            presentationListener = listener
            wp_presentation_add_listener(presentation, listener.pointer, Unmanaged.passUnretained(self).toOpaque())
        case "wp_viewporter":
            viewporter = bind(name, CWaylandProtocols_viewporter_interface(), advertised: version, preferred: 1).0
        case "wp_single_pixel_buffer_manager_v1" where singlePixelBufferManager == nil:
            singlePixelBufferManager =
                bind(name, CWaylandProtocols_single_pixel_buffer_manager_interface(), advertised: version, preferred: 1)
                .0
        case "wp_fractional_scale_manager_v1":
            fractionalScaleManager =
                bind(name, CWaylandProtocols_fractional_scale_manager_interface(), advertised: version, preferred: 1).0
        default:
            return
        }
        logger.debug("bound \(interface) v\(version)")
    }

    private func globalRemoved(name: UInt32) {
        if outputs.removeValue(forKey: name) != nil {
            logger.info("output \(name) removed")
            outputsChanged()
        }
        if let seat, seat.globalName == name {
            logger.info("seat removed")
            dataDevice = nil
            seat.removeAllDevices()
            self.seat = nil
        }
    }

    /// Calls `body` whenever an output appears, changes or goes away, until `removeOutputObserver(_:)`.
    public func addOutputObserver(_ owner: AnyObject, _ body: @escaping () -> Void) {
        outputObservers[ObjectIdentifier(owner)] = body
    }

    public func removeOutputObserver(_ owner: AnyObject) {
        outputObservers[ObjectIdentifier(owner)] = nil
    }

    private func outputsChanged() {
        // An observer may remove another (the presenter mirror closing its window when its
        // output goes): each is looked up when its turn comes, not from a copy taken before.
        for owner in Array(outputObservers.keys) { outputObservers[owner]?() }
    }

    /// The output behind a `wl_output` proxy (from `wl_surface.enter`), if it is still there.
    func output(proxy: OpaquePointer) -> Output? {
        outputs.values.first { $0.proxy == proxy }
    }

    /// The size of the first output's current mode in surface coordinates, if known.
    public var outputSize: (width: Int, height: Int)? {
        outputs.sorted { $0.key < $1.key }.lazy.compactMap { $0.value.logicalSize }.first
    }

    /// Blocks until the compositor has processed every request sent so far, and delivers the
    /// input that arrived meanwhile.
    public func roundtrip() throws(WaylandError) {
        guard whileWaiting != nil else {
            if wl_display_roundtrip(connection) < 0 { throw connectionError() }
            flushInput()
            return
        }
        try wait(for: wl_display_sync(connection))
    }

    /// Dispatches until the `wl_display.sync` `callback` is done (a round trip's end), then
    /// delivers the input that arrived meanwhile.
    private func wait(for callback: OpaquePointer?) throws(WaylandError) {
        isSyncDone = false
        wl_callback_add_listener(callback, syncListener.pointer, Unmanaged.passUnretained(self).toOpaque())
        while !isSyncDone {
            guard let whileWaiting else {
                if wl_display_dispatch(connection) < 0 {
                    wl_callback_destroy(callback)
                    throw connectionError()
                }
                continue
            }
            do { try readWithoutBlocking() } catch {
                if !isSyncDone { wl_callback_destroy(callback) }
                throw error
            }
            if !isSyncDone { whileWaiting() }
        }
        flushInput()
    }

    /// Flushes, reads what has arrived and dispatches it, without waiting: the round trips of a
    /// client whose compositor runs on the same thread (the event loop does this otherwise).
    private func readWithoutBlocking() throws(WaylandError) {
        do {
            var fd = pollfd(fd: try prepareToPoll().descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 0) < 0 { fd.revents = 0 }
            try finishPoll(events: fd.revents)
        } catch let error as WaylandError {
            throw error
        } catch {
            throw .connectionLost("\(error)")
        }
    }

    /// Delivers the touch and pointer events that are waiting for a `frame` event that may
    /// never come (cage 0.1.4 sends none). `EventLoop` calls it after every dispatch; a loop
    /// of your own calls it after every `wl_display_dispatch_pending`.
    public func flushInput() {
        seat?.flush()
    }

    /// The reason the connection failed, for messages.
    public func connectionError() -> WaylandError {
        let code = wl_display_get_error(connection)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(connection, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown"
            return .connectionLost("protocol error \(protocolCode) on \(name)@\(id)")
        }
        return .connectionLost(code == 0 ? "the compositor closed the connection" : errnoText(code))
    }

    deinit {
        // The data device came from the seat and the manager: it goes first.
        dataDevice = nil
        if let dataDeviceManager { wl_data_device_manager_destroy(dataDeviceManager) }
        seat = nil
        outputs.removeAll()
        if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let presentation { wp_presentation_destroy(presentation) }
        if let singlePixelBufferManager { wp_single_pixel_buffer_manager_v1_destroy(singlePixelBufferManager) }
        if let subcompositor { wl_subcompositor_destroy(subcompositor) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        wl_registry_destroy(registry)
        wl_display_flush(connection)
        wl_display_disconnect(connection)
    }
}
