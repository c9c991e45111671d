import CWaylandServer
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An in-process Wayland compositor for tests, on the real libwayland-server, after qtwayland's
/// mock compositor.
///
/// It listens on a socket in a private `XDG_RUNTIME_DIR` (see `environment`) and runs in lock
/// step on the calling thread: nothing happens unless a test calls `dispatch(timeout:)` or
/// `wait(timeout:until:)`. It offers `wl_compositor`, `wl_subcompositor`, `wl_shm`, `wl_output`,
/// `xdg_wm_base` and `wl_seat`, records every commit of a buffer as a `Commit` with a copy of its pixels, and
/// answers as switched by `autoConfigure`, `autoRelease` and `autoFrameCallback`.
///
/// Not thread-safe: create, use and tear it down on one thread.
public final class TestCompositor {
    // MARK: Switches (qtwayland's mock compositor has the same three)

    /// Send a configure of `logicalOutputSize` with states [fullscreen, activated] in answer to a new
    /// toplevel's initial commit.
    public var autoConfigure = true
    /// Release a buffer (`wl_buffer.release`) as soon as its pixels were copied at commit.
    /// When false, buffers stay busy until `releaseBuffers()`.
    public var autoRelease = true
    /// Send `wl_callback.done` for committed frame callbacks at the start of the next dispatch.
    /// When false, they wait for `sendFrameCallbacks()`.
    public var autoFrameCallback = true

    // MARK: What a test reads

    /// `XDG_RUNTIME_DIR` and `WAYLAND_DISPLAY` for a client of this compositor.
    public var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory.path, "WAYLAND_DISPLAY": socketName]
    }
    /// The private runtime directory holding the socket.
    public let runtimeDirectory: TemporaryRuntimeDirectory
    /// The socket's name inside `runtimeDirectory` (the `WAYLAND_DISPLAY` value).
    public let socketName = "wayland-0"
    /// The commits that had a buffer attached, oldest first (all of them, or the latest
    /// `commitHistoryLimit`). Each holds a copy of the pixels.
    public internal(set) var commits: [Commit] = []
    /// When set, `commits` keeps only this many of the latest commits (a 1280x720 commit is
    /// 3.5 MiB: long benchmarks should set it). Count with `commitCount` then.
    public var commitHistoryLimit: Int?
    /// Number of commits with a buffer so far (the `sequence` of the last one).
    public var commitCount: Int { nextCommitSequence - 1 }
    /// Commits that brought a new buffer to a surface, a toplevel's or a subsurface's (a move
    /// of a subsurface's viewport brings none).
    public internal(set) var bufferCommitCount = 0
    /// The most recent entry of `commits`.
    public var lastCommit: Commit? { commits.last }
    /// Every `wl_surface.commit`, with or without a buffer.
    public internal(set) var surfaceCommitCount = 0
    /// Protocol errors this compositor sent to clients (a client bug, or a bug here).
    public internal(set) var protocolErrors: [String] = []
    /// Number of clients currently connected.
    public var clientCount: Int { clients.count }
    /// Number of clients that ever connected.
    public private(set) var connectedClientCount = 0

    /// The output size sent in `wl_output.mode` and, with `autoConfigure`, in the first configure.
    public internal(set) var outputSize: (width: Int32, height: Int32)
    /// The `wl_output.scale` sent to clients.
    public internal(set) var outputScale: Int32
    /// The `wl_output.transform` sent to clients (`WL_OUTPUT_TRANSFORM_*`: 1 is 90°).
    public internal(set) var outputTransform: Int32 = 0
    /// The physical size sent in `wl_output.geometry`, in millimetres (before the transform):
    /// nil sends 0 × 0, a size not known, as headless and virtual outputs do. Set it before the
    /// client binds the output.
    public var outputMillimetres: (width: Int32, height: Int32)?
    /// The scale × 120 sent in `wp_fractional_scale_v1.preferred_scale` (nil: no
    /// `wp_fractional_scale_manager_v1` is offered; see `setPreferredScale(_:)`).
    public internal(set) var preferredScale: Int32?
    /// The `wl_seat` version advertised: 8 has `axis_value120`, 5 to 7 `axis_discrete`
    /// (cage 0.1.4 offers 7), 5 and later `wl_pointer.frame`.
    public let seatVersion: Int32
    /// The newest `wl_seat` version the test compositor speaks.
    public static let newestSeatVersion: Int32 = 8

    // MARK: libwayland state

    let display: OpaquePointer
    private let eventLoop: OpaquePointer
    let interfaces: Interfaces
    let implementations: Implementations
    var globals: [OpaquePointer] = []
    /// Outputs plugged in at run time (`plugOutput`).
    var pluggedOutputs: [PluggedOutput] = []
    private var clients: [OpaquePointer: SignalListener] = [:]
    private var clientCreatedListener: SignalListener?
    /// Every Swift object behind a live `wl_resource`, keyed by identity; a resource's destructor
    /// removes its object. Empty after the clients are gone, or something leaked.
    var liveObjects: [ObjectIdentifier: ResourceObject] = [:]
    /// The `wl_data_source` a client set as the selection (`TestCompositor+DataDevice.swift`).
    weak var selectionSource: DataSourceResource?
    /// The serial the selection was set with.
    public internal(set) var selectionSerial: UInt32?
    /// Frame callbacks committed and not yet answered.
    var committedFrameCallbacks: [Callback] = []
    /// `wp_presentation_feedback`s of committed frames, answered with the frame callbacks.
    var committedFeedbacks: [PresentationFeedbackResource] = []
    /// Frames reported presented so far.
    public internal(set) var presentedFrames = 0
    /// Buffers copied but not released yet (when `autoRelease` is off).
    var busyBuffers: [BusyBuffer] = []
    private var isTornDown = false
    let startInstant = ContinuousClock.now
    var nextCommitSequence = 1
    /// The `wl_display.sync` requests received so far, from every client (`roundTrips`).
    public internal(set) var roundTrips = 0
    /// What counts them (`countRoundTrips()`).
    var protocolLogger: OpaquePointer?
    var objectCounter = 0
    var receivedPongs: [UInt32] = []
    var seatCapabilities: SeatCapabilities = [.touch, .pointer]
    /// `wl_keyboard.repeat_info` for new keyboards: per second, milliseconds.
    var keyboardRepeat: (rate: Int32, delay: Int32) = (25, 600)

    /// Starts a compositor listening in a new private runtime directory.
    /// - Parameters:
    ///   - outputWidth: width of the one output, in pixels.
    ///   - outputHeight: height of the one output, in pixels.
    ///   - outputScale: `wl_output.scale`.
    ///   - seatVersion: the `wl_seat` version to advertise, 1 to `newestSeatVersion`.
    public init(
        outputWidth: Int32 = 1280, outputHeight: Int32 = 720, outputScale: Int32 = 1,
        seatVersion: Int32 = TestCompositor.newestSeatVersion
    ) throws {
        precondition(
            (1...Self.newestSeatVersion).contains(seatVersion),
            "wl_seat version \(seatVersion): the test compositor speaks 1 to \(Self.newestSeatVersion)")
        outputSize = (outputWidth, outputHeight)
        self.outputScale = outputScale
        self.seatVersion = seatVersion
        runtimeDirectory = try TemporaryRuntimeDirectory()
        guard let display = wl_display_create() else {
            runtimeDirectory.remove()
            throw TestCompositorError.wayland(call: "wl_display_create")
        }
        self.display = display
        eventLoop = wl_display_get_event_loop(display)
        interfaces = Interfaces()
        implementations = Implementations()

        do {
            // Our own listening socket rather than wl_display_add_socket_auto: that one reads
            // XDG_RUNTIME_DIR from this process's environment, which parallel tests share.
            let socket = try Self.listeningSocket(path: "\(runtimeDirectory.path)/\(socketName)")
            guard wl_display_add_socket_fd(display, socket) == 0 else {
                close(socket)
                throw TestCompositorError.wayland(call: "wl_display_add_socket_fd")
            }
            guard wl_display_init_shm(display) == 0 else {
                throw TestCompositorError.wayland(call: "wl_display_init_shm")
            }
        } catch {
            isTornDown = true  // deinit runs after a throwing init: nothing left for it to do
            wl_display_destroy(display)
            interfaces.deallocate()
            implementations.deallocate()
            runtimeDirectory.remove()
            throw error
        }

        let created = SignalListener { [unowned self] data in
            guard let data else { return }
            clientConnected(OpaquePointer(data))
        }
        wl_display_add_client_created_listener(display, created.listener)
        clientCreatedListener = created
        countRoundTrips()

        let me = Unmanaged.passUnretained(self).toOpaque()
        globals = [
            wl_global_create(display, interfaces.compositor, 5, me) { client, data, version, id in
                TestCompositor.from(data).bindCompositor(client: client!, version: Int32(version), id: id)
            },
            wl_global_create(display, interfaces.subcompositor, 1, me) { client, data, version, id in
                TestCompositor.from(data).bindSubcompositor(client: client!, version: Int32(version), id: id)
            },
            wl_global_create(display, interfaces.output, 4, me) { client, data, version, id in
                TestCompositor.from(data).bindOutput(client: client!, version: Int32(version), id: id)
            },
            wl_global_create(display, interfaces.xdgWmBase, 5, me) { client, data, version, id in
                TestCompositor.from(data).bindXdgWmBase(client: client!, version: Int32(version), id: id)
            },
            wl_global_create(display, interfaces.seat, seatVersion, me) { client, data, version, id in
                TestCompositor.from(data).bindSeat(client: client!, version: Int32(version), id: id)
            },
            wl_global_create(display, interfaces.presentation, 1, me) { client, data, version, id in
                TestCompositor.from(data).bindPresentation(client: client!, version: Int32(version), id: id)
            },
        ].map { $0! }
    }

    deinit {
        if !isTornDown { try? teardown() }
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> TestCompositor {
        Unmanaged<TestCompositor>.fromOpaque(data!).takeUnretainedValue()
    }

    // MARK: Lock-step dispatch

    /// Runs one round: answers due frame callbacks (with `autoFrameCallback`), sends what is
    /// queued, waits up to `timeout` for client requests and handles them, and sends the answers.
    /// Corresponding C functions: `wl_event_loop_dispatch`, `wl_display_flush_clients`.
    public func dispatch(timeout: Duration = .zero) {
        precondition(!isTornDown, "dispatch after teardown")
        if autoFrameCallback { sendFrameCallbacks() }
        wl_display_flush_clients(display)
        wl_event_loop_dispatch(eventLoop, Self.milliseconds(timeout))
        wl_display_flush_clients(display)
    }

    /// Dispatches until `condition` holds or `timeout` has passed; returns whether it holds.
    /// The condition is checked at least every 10 ms, so it may watch things other than the
    /// protocol (a child process's `isRunning`, a file appearing).
    @discardableResult
    public func wait(timeout: Duration, until condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if condition() { return true }
            let now = clock.now
            if now >= deadline { return false }
            dispatch(timeout: min(deadline - now, .milliseconds(10)))
        }
    }

    /// Waits until at least `count` buffer commits were made in total (`commitCount`).
    @discardableResult
    public func waitForCommits(_ count: Int, timeout: Duration = .seconds(10)) -> Bool {
        wait(timeout: timeout) { commitCount >= count }
    }

    // MARK: Frame callbacks and buffers

    /// Sends `wl_callback.done` for every frame callback committed so far (and destroys them,
    /// as the protocol says).
    public func sendFrameCallbacks() {
        let due = committedFrameCallbacks
        committedFrameCallbacks.removeAll()
        let time = timestampMilliseconds
        for callback in due where !callback.isDestroyed {
            wl_callback_send_done(callback.resource, time)
            wl_resource_destroy(callback.resource)
        }
        sendPresented(at: time)
    }

    /// Number of frame callbacks committed and not answered yet.
    public var pendingFrameCallbackCount: Int {
        committedFrameCallbacks.filter { !$0.isDestroyed }.count
    }

    /// Sends `wl_buffer.release` for every buffer still busy (when `autoRelease` is off).
    public func releaseBuffers() {
        let busy = busyBuffers
        busyBuffers.removeAll()
        for buffer in busy { buffer.release() }
    }

    /// Number of committed buffers not released yet.
    public var busyBufferCount: Int { busyBuffers.count }

    // MARK: Clients

    /// Destroys every client connection (`wl_client_destroy`), as if the compositor went away.
    public func disconnectClients() {
        for client in Array(clients.keys) {
            wl_client_destroy(client)
        }
        wl_display_flush_clients(display)
    }

    private func clientConnected(_ client: OpaquePointer) {
        connectedClientCount += 1
        let destroyed = SignalListener { [unowned self] _ in
            clients.removeValue(forKey: client)?.remove()
        }
        wl_client_add_destroy_listener(client, destroyed.listener)
        clients[client] = destroyed
    }

    // MARK: Teardown

    /// Whether no client objects are left: every surface, buffer callback and role was destroyed.
    public var isClean: Bool { liveObjects.isEmpty }

    /// Disconnects the clients, destroys the globals and the display, and removes the runtime
    /// directory: setup in reverse. Throws `notCleanAtTeardown` if any object or listener
    /// survived the display (a leak in the compositor). Idempotent.
    public func teardown() throws {
        guard !isTornDown else { return }
        isTornDown = true
        disconnectClients()
        busyBuffers.removeAll()  // their buffers died with their clients
        committedFrameCallbacks.removeAll()
        for global in globals.reversed() { wl_global_destroy(global) }
        globals.removeAll()
        clientCreatedListener?.remove()
        clientCreatedListener = nil
        if let protocolLogger { wl_protocol_logger_destroy(protocolLogger) }
        protocolLogger = nil
        wl_display_destroy(display)

        var leaks: [String] = []
        if !liveObjects.isEmpty {
            leaks.append(
                "\(liveObjects.count) objects still alive: "
                    + liveObjects.values.map { String(describing: type(of: $0)) }.sorted().joined(separator: ", "))
        }
        if !clients.isEmpty { leaks.append("\(clients.count) client destroy listeners not fired") }
        liveObjects.removeAll()
        for listener in clients.values { listener.remove() }
        clients.removeAll()
        interfaces.deallocate()
        implementations.deallocate()
        runtimeDirectory.remove()
        if !leaks.isEmpty { throw TestCompositorError.notCleanAtTeardown(leaks) }
    }

    // MARK: Helpers

    /// Where event timestamps (milliseconds) come from when not given: by default the time
    /// since this compositor started; a test on a manual clock sets its own.
    public var eventTimestamp: (() -> UInt32)?

    /// The timestamp of an event sent now (give later events explicit times from it for
    /// exact spacing).
    public var timestampMilliseconds: UInt32 {
        eventTimestamp?() ?? UInt32(truncatingIfNeeded: Self.milliseconds(ContinuousClock.now - startInstant))
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }

    /// Records a protocol error and sends it to the client, which is then disconnected.
    /// `wl_resource_post_error` is variadic (Swift cannot call it); we call it through a
    /// non-variadic pointer with a "%s" format, which the x86-64 and AArch64 Linux calling
    /// conventions allow.
    func postError(_ resource: WLResource, code: UInt32, _ message: String) {
        protocolErrors.append(message)
        typealias PostError = @convention(c) (WLResource?, UInt32, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
        guard let symbol = dlsym(nil, "wl_resource_post_error") else {
            wl_client_destroy(wl_resource_get_client(resource))
            return
        }
        let post = unsafeBitCast(symbol, to: PostError.self)
        post(resource, code, "%s", message)
    }

    private static func listeningSocket(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestCompositorError.system(call: "socket", errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw TestCompositorError.system(call: "socket path \(path)", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let error = errno
            close(fd)
            throw TestCompositorError.system(call: "bind/listen \(path)", errno: error)
        }
        return fd
    }
}
