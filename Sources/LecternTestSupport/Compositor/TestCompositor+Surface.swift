import CWaylandServer

// wl_compositor, wl_surface, wl_region, wl_callback.

extension TestCompositor {
    func bindCompositor(client: OpaquePointer, version: Int32, id: UInt32) {
        makeResource(
            client: client, interface: interfaces.compositor, version: version, id: id,
            implementation: implementations.compositor
        ) {
            CompositorResource(compositor: self, resource: $0)
        }
    }

    /// The surfaces clients have created and not destroyed, oldest first.
    var liveSurfaces: [Surface] {
        liveObjects.values.compactMap { $0 as? Surface }.sorted { $0.serialNumber < $1.serialNumber }
    }

    /// Number of live `wl_surface`s of all clients.
    public var surfaceCount: Int { liveSurfaces.count }
}

final class CompositorResource: ResourceObject {
    func createSurface(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.surface, version: version, id: id,
            implementation: compositor.implementations.surface
        ) {
            Surface(compositor: compositor, resource: $0)
        }
    }

    func createRegion(id: UInt32) {
        compositor.makeResource(
            client: client, interface: compositor.interfaces.region, version: version, id: id,
            implementation: compositor.implementations.region
        ) {
            Region(compositor: compositor, resource: $0)
        }
    }
}

/// A region: only whether it is empty is kept (a surface's input region: `SubsurfaceState.takesInput`).
/// Subtracted rectangles are not: a region made by subtracting everything counts as not empty.
final class Region: ResourceObject {
    private(set) var isEmpty = true

    func add(width: Int32, height: Int32) {
        if width > 0 && height > 0 { isEmpty = false }
    }
}

/// A frame callback, answered by `TestCompositor.sendFrameCallbacks()`.
final class Callback: ResourceObject {}

final class Surface: ResourceObject {
    /// Creation order, for "the newest surface".
    let serialNumber: Int

    /// The attached buffer (nil: a null attach) and whether anything was attached since the
    /// last commit.
    private var pendingBuffer: WLResource?
    private var pendingBufferListener: SignalListener?
    private var pendingAttach = false
    private var pendingSurfaceDamage: [DamageRect] = []
    private var pendingBufferDamage: [DamageRect] = []
    private var pendingFrameCallbacks: [Callback] = []
    /// `wp_presentation.feedback` asked for the next commit.
    var pendingFeedbacks: [PresentationFeedbackResource] = []
    private var pendingScale: Int32 = 1
    private(set) var bufferScale: Int32 = 1
    /// `wp_viewport.set_destination` pending, and in effect (nil: none, or unset with -1).
    var pendingDestination: (width: Int32, height: Int32)?
    private(set) var viewportDestination: (width: Int32, height: Int32)?
    /// `wp_viewport.set_source` pending, and in effect (nil: none, or unset with -1).
    var pendingSource: ViewportSource?
    private(set) var viewportSource: ViewportSource?
    /// The buffer a toplevel's surface shows, as its last commit with a buffer recorded it (nil:
    /// none; a subsurface's is its role's state): what `composited` draws.
    var shown: SubsurfaceState?
    /// The surface and its subsurfaces by `serialNumber`, bottom first: in effect, and as
    /// `place_above`/`place_below` left it for the next commit.
    var stackOrder: [Int] = []
    var pendingStackOrder: [Int] = []
    /// The surface's `wp_viewport` and `wp_fractional_scale_v1`, if it has them.
    weak var viewport: Viewport?
    weak var fractionalScale: FractionalScale?
    /// The outputs (`wl_output` resources) it was sent `enter` for.
    private(set) var enteredOutputs: [WLResource] = []
    /// Whether a buffer is on screen.
    private(set) var isMapped = false
    private var hasEnteredOutputs = false
    /// The xdg_surface that gave this surface its role, if any.
    weak var xdgSurface: XdgSurface?
    /// The wl_subsurface that gave this surface its role, if any.
    weak var subsurfaceRole: Subsurface?
    /// `wl_surface.set_input_region` pending (nil: unchanged), and in effect: whether input on
    /// the surface reaches it (false: an empty input region).
    private var pendingTakesInput: Bool?
    private(set) var takesInput = true

    override init(compositor: TestCompositor, resource: WLResource) {
        compositor.objectCounter += 1
        serialNumber = compositor.objectCounter
        stackOrder = [serialNumber]
        pendingStackOrder = [serialNumber]
        super.init(compositor: compositor, resource: resource)
    }

    func attach(buffer: WLResource?) {
        dropPendingBuffer()
        pendingAttach = true
        pendingBuffer = buffer
        if let buffer {
            // A buffer may be destroyed between attach and commit; forget it then.
            let listener = SignalListener { [unowned self] _ in
                pendingBuffer = nil
                dropPendingBufferListener()
            }
            wl_resource_add_destroy_listener(buffer, listener.listener)
            pendingBufferListener = listener
        }
    }

    private func dropPendingBuffer() {
        pendingBuffer = nil
        dropPendingBufferListener()
    }

    private func dropPendingBufferListener() {
        pendingBufferListener?.remove()
        pendingBufferListener = nil
    }

    func damage(_ rect: DamageRect) { pendingSurfaceDamage.append(rect) }
    func damageBuffer(_ rect: DamageRect) { pendingBufferDamage.append(rect) }
    func setBufferScale(_ scale: Int32) { pendingScale = scale }

    /// `wl_surface.set_input_region`: nil is the whole surface.
    func setInputRegion(_ region: WLResource?) {
        pendingTakesInput = region.map { !ResourceObject.from($0, as: Region.self).isEmpty } ?? true
    }

    func frame(id: UInt32) {
        if let callback = compositor.makeResource(
            client: client, interface: compositor.interfaces.callback,
            version: 1, id: id, implementation: nil,
            {
                Callback(compositor: compositor, resource: $0)
            })
        {
            pendingFrameCallbacks.append(callback)
        }
    }

    func commit() {
        compositor.surfaceCommitCount += 1
        bufferScale = pendingScale
        viewportDestination = pendingDestination
        viewportSource = pendingSource
        stackOrder = pendingStackOrder
        compositor.committedFrameCallbacks += pendingFrameCallbacks
        pendingFrameCallbacks.removeAll()
        compositor.committedFeedbacks += pendingFeedbacks
        pendingFeedbacks.removeAll()
        let surfaceDamage = pendingSurfaceDamage, bufferDamage = pendingBufferDamage
        pendingSurfaceDamage.removeAll()
        pendingBufferDamage.removeAll()

        if let pendingTakesInput {
            takesInput = pendingTakesInput
            self.pendingTakesInput = nil
        }
        if pendingAttach, pendingBuffer != nil { compositor.bufferCommitCount += 1 }
        if let subsurfaceRole {
            committedAsSubsurface(subsurfaceRole)
            return
        }

        if pendingAttach {
            pendingAttach = false
            let buffer = pendingBuffer
            dropPendingBuffer()
            if let buffer {
                if let xdgSurface, !xdgSurface.mayCommitBuffer() { return }
                compositor.record(
                    buffer: buffer, surface: self, surfaceDamage: surfaceDamage, bufferDamage: bufferDamage)
                isMapped = true
                enterOutputsOnce()
            } else {
                isMapped = false
                shown = nil
            }
        }
        shown?.bufferScale = bufferScale
        shown?.viewportSource = viewportSource
        shown?.viewportDestination = viewportDestination.map { ViewportSize(width: $0.width, height: $0.height) }
        for child in compositor.subsurfaces(of: self) { child.parentCommitted() }
        xdgSurface?.surfaceCommitted()
    }

    /// A subsurface's commit: its buffer is kept by its role, not recorded as a frame.
    private func committedAsSubsurface(_ role: Subsurface) {
        var buffer: SubsurfaceState?
        let detached = pendingAttach && pendingBuffer == nil
        if pendingAttach, let resource = pendingBuffer {
            if let color = compositor.singlePixelColor(of: resource) {
                buffer = SubsurfaceState(width: 1, height: 1, format: .argb8888, pixels: [color])
                compositor.releaseOrKeep(resource)
            } else if let (width, height, format, pixels, _) = compositor.copyPixels(of: resource, surface: self) {
                buffer = SubsurfaceState(width: width, height: height, format: format, pixels: pixels)
                compositor.releaseOrKeep(resource)
            }
        }
        pendingAttach = false
        dropPendingBuffer()
        isMapped = buffer != nil || (isMapped && !detached)
        var surfaceState = SubsurfaceState()
        surfaceState.bufferScale = bufferScale
        surfaceState.viewportSource = viewportSource
        surfaceState.viewportDestination = viewportDestination.map { ViewportSize(width: $0.width, height: $0.height) }
        role.committed(buffer: buffer, detached: detached, surfaceState: surfaceState, takesInput: takesInput)
        for child in compositor.subsurfaces(of: self) { child.parentCommitted() }
    }

    private func enterOutputsOnce() {
        guard !hasEnteredOutputs else { return }
        hasEnteredOutputs = true
        for output in compositor.outputResources(of: client) where isShown(on: output) { enter(output.resource) }
    }

    /// Whether the surface shows on `output`'s screen: a toplevel fullscreen on a plugged-in
    /// output on that one, every other surface on the compositor's own output.
    func isShown(on output: OutputResource) -> Bool {
        output.plugged === xdgSurface?.toplevel?.fullscreenOutput?.plugged
    }

    /// Sends `wl_surface.enter` for `output` (a `wl_output` of this surface's client) once it
    /// shows a buffer; before, the first buffer's commit does.
    func enter(_ output: WLResource) {
        guard hasEnteredOutputs, !enteredOutputs.contains(output) else { return }
        enteredOutputs.append(output)
        wl_surface_send_enter(resource, output)
    }

    /// Forgets `output` without an event (its resource is going away).
    func forget(_ output: WLResource) {
        enteredOutputs.removeAll { $0 == output }
    }

    /// Sends `wl_surface.leave` for `output` if it was entered.
    func leave(_ output: WLResource) {
        guard let index = enteredOutputs.firstIndex(of: output) else { return }
        enteredOutputs.remove(at: index)
        wl_surface_send_leave(resource, output)
    }

    override func destroyed() {
        dropPendingBuffer()
        pendingFrameCallbacks.removeAll()
        super.destroyed()
    }
}
