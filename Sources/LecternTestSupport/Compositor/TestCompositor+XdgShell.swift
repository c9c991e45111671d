import CWaylandServer

// xdg_wm_base, xdg_surface, xdg_toplevel (xdg_positioner and xdg_popup accepted, popups refused).

/// A toplevel window's state as the client set it and the compositor configured it.
public struct ToplevelState: Sendable, Equatable {
    public var title: String?
    public var appID: String?
    /// Whether the client asked for fullscreen (and did not unset it).
    public var wantsFullscreen = false
    /// The serial of the last configure sent (0: none yet).
    public var lastConfigureSerial: UInt32 = 0
    /// The serial the client last acked (0: none yet).
    public var lastAckedSerial: UInt32 = 0
    /// The size in the last configure sent.
    public var configuredWidth: Int32 = 0
    public var configuredHeight: Int32 = 0
    /// The name of the output it asked to be fullscreen on (nil: none named).
    public var fullscreenOutput: String?
    /// The subsurfaces of its surface, oldest first.
    public var subsurfaces: [SubsurfaceState] = []
}

/// The states `TestCompositor.configure` can send (`xdg_toplevel.state`).
public enum ToplevelConfigureState: UInt32, Sendable {
    case maximized = 1, fullscreen = 2, resizing = 3, activated = 4
}

extension TestCompositor {
    func bindXdgWmBase(client: OpaquePointer, version: Int32, id: UInt32) {
        makeResource(
            client: client, interface: interfaces.xdgWmBase, version: version, id: id,
            implementation: implementations.xdgWmBase
        ) {
            XdgWmBase(compositor: self, resource: $0)
        }
    }

    /// The newest toplevel still alive that is not fullscreen on a plugged-in output (a
    /// presenter mirror): the one input goes to and `configure` configures.
    var currentToplevel: XdgToplevel? {
        liveObjects.values.compactMap { $0 as? XdgToplevel }.filter { $0.fullscreenOutput?.plugged == nil }
            .max { $0.serialNumber < $1.serialNumber }
    }

    /// The states of every live toplevel, oldest first.
    public var toplevels: [ToplevelState] {
        liveObjects.values.compactMap { $0 as? XdgToplevel }.sorted { $0.serialNumber < $1.serialNumber }
            .map(\.publicState)
    }

    /// The newest toplevel's state, nil if no client has a toplevel.
    public var toplevel: ToplevelState? { currentToplevel?.publicState }

    /// Sends `xdg_toplevel.configure` (size and states) and `xdg_surface.configure` with a new
    /// serial to the newest toplevel. 0x0 means "choose your own size".
    /// - Returns: the serial, or nil when there is no toplevel.
    @discardableResult
    public func configure(
        width: Int32, height: Int32, states: [ToplevelConfigureState] = [.fullscreen, .activated]
    ) -> UInt32? {
        currentToplevel?.sendConfigure(width: width, height: height, states: states)
    }

    /// Sends `xdg_toplevel.close` to the newest toplevel. Returns false if there is none.
    @discardableResult
    public func sendClose() -> Bool {
        guard let toplevel = currentToplevel else { return false }
        xdg_toplevel_send_close(toplevel.resource)
        return true
    }

    /// Sends a protocol error on the newest toplevel, as a compositor does when it decides a
    /// client broke the protocol (rightly or not): libwayland then disconnects the client.
    /// It is recorded in `protocolErrors` like the errors the compositor finds itself.
    /// - Returns: false if there is no toplevel.
    @discardableResult
    public func postProtocolError(code: UInt32 = 0, _ message: String = "test compositor: a fault on purpose") -> Bool {
        guard let toplevel = currentToplevel else { return false }
        postError(toplevel.resource, code: code, message)
        return true
    }

    /// Sends `xdg_wm_base.ping` to every client; answers arrive in `pongs`.
    /// - Returns: the serial sent.
    @discardableResult
    public func ping() -> UInt32 {
        let serial = wl_display_next_serial(display)
        for base in liveObjects.values.compactMap({ $0 as? XdgWmBase }) {
            xdg_wm_base_send_ping(base.resource, serial)
        }
        return serial
    }
}

extension TestCompositor {
    /// Serials of `xdg_wm_base.pong` received, in order.
    public var pongs: [UInt32] { receivedPongs }
}

final class XdgWmBase: ResourceObject {
    func createPositioner(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.xdgPositioner, version: version,
            id: id, implementation: compositor.implementations.xdgPositioner
        ) {
            XdgPositioner(compositor: compositor, resource: $0)
        }
    }

    func getXdgSurface(id: UInt32, surface surfaceResource: WLResource) {
        let surface = ResourceObject.from(surfaceResource, as: Surface.self)
        compositor.makeResource(
            client: client, interface: compositor.interfaces.xdgSurface, version: version,
            id: id, implementation: compositor.implementations.xdgSurface
        ) {
            let xdgSurface = XdgSurface(compositor: compositor, resource: $0, surface: surface)
            surface.xdgSurface = xdgSurface
            return xdgSurface
        }
    }

    func pong(serial: UInt32) { compositor.receivedPongs.append(serial) }
}

final class XdgPositioner: ResourceObject {}

final class XdgPopup: ResourceObject {}

final class XdgSurface: ResourceObject {
    weak var surface: Surface?
    weak var toplevel: XdgToplevel?
    var lastSentSerial: UInt32 = 0
    var lastAckedSerial: UInt32 = 0

    init(compositor: TestCompositor, resource: WLResource, surface: Surface) {
        self.surface = surface
        super.init(compositor: compositor, resource: resource)
    }

    func getToplevel(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.xdgToplevel, version: version,
            id: id, implementation: compositor.implementations.xdgToplevel
        ) {
            let toplevel = XdgToplevel(compositor: compositor, resource: $0, xdgSurface: self)
            self.toplevel = toplevel
            return toplevel
        }
    }

    func getPopup(id: UInt32) {
        // Lectern never opens popups; accept the object so the protocol stays in step, then refuse.
        compositor.makeResource(
            client: client, interface: compositor.interfaces.xdgPopup, version: version,
            id: id, implementation: compositor.implementations.xdgPopup
        ) {
            XdgPopup(compositor: compositor, resource: $0)
        }
        compositor.postError(
            resource, code: UInt32(XDG_WM_BASE_ERROR_ROLE.rawValue),
            "the test compositor does not support popups")
    }

    func ackConfigure(serial: UInt32) {
        guard serial != 0, serial <= lastSentSerial, serial >= lastAckedSerial else {
            compositor.postError(
                resource, code: UInt32(XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue),
                "ack_configure(\(serial)): not a serial that was sent (last sent \(lastSentSerial))")
            return
        }
        lastAckedSerial = serial
        toplevel?.state.lastAckedSerial = serial
    }

    /// Called before a buffer commit; false (after a protocol error) if the surface was never
    /// configured, as xdg-shell requires.
    func mayCommitBuffer() -> Bool {
        guard lastAckedSerial == 0 else { return true }
        compositor.postError(
            resource, code: UInt32(XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue),
            "buffer committed before the first configure was acked")
        return false
    }

    /// After every commit: the initial commit of a toplevel gets its first configure.
    func surfaceCommitted() {
        guard let toplevel, lastSentSerial == 0, compositor.autoConfigure else { return }
        let size = toplevel.fullscreenOutput?.plugged?.logicalSize ?? compositor.logicalOutputSize
        toplevel.sendConfigure(width: size.width, height: size.height, states: [.fullscreen, .activated])
    }
}

final class XdgToplevel: ResourceObject {
    weak var xdgSurface: XdgSurface?
    var state = ToplevelState()
    /// The output it asked to be fullscreen on.
    weak var fullscreenOutput: OutputResource?

    /// `state` with the subsurfaces of its surface.
    var publicState: ToplevelState {
        var state = state
        if let surface = xdgSurface?.surface {
            state.subsurfaces = compositor.subsurfaces(of: surface).map(\.publicState)
        }
        return state
    }

    func setFullscreen(on output: WLResource?) {
        state.wantsFullscreen = true
        fullscreenOutput = output.map { ResourceObject.from($0, as: OutputResource.self) }
        state.fullscreenOutput = fullscreenOutput?.name
    }
    let serialNumber: Int

    init(compositor: TestCompositor, resource: WLResource, xdgSurface: XdgSurface) {
        self.xdgSurface = xdgSurface
        compositor.objectCounter += 1
        serialNumber = compositor.objectCounter
        super.init(compositor: compositor, resource: resource)
    }

    @discardableResult
    func sendConfigure(width: Int32, height: Int32, states: [ToplevelConfigureState]) -> UInt32? {
        guard let xdgSurface else { return nil }
        var array = wl_array()
        wl_array_init(&array)
        for state in states {
            guard let slot = wl_array_add(&array, MemoryLayout<UInt32>.size) else { continue }
            slot.storeBytes(of: state.rawValue, as: UInt32.self)
        }
        xdg_toplevel_send_configure(resource, width, height, &array)
        wl_array_release(&array)
        let serial = wl_display_next_serial(compositor.display)
        xdg_surface_send_configure(xdgSurface.resource, serial)
        xdgSurface.lastSentSerial = serial
        state.lastConfigureSerial = serial
        state.configuredWidth = width
        state.configuredHeight = height
        return serial
    }
}
