import CWaylandServer

// wl_subcompositor and wl_subsurface: a subsurface's buffer, position, viewport and input region
// are kept (`ToplevelState.subsurfaces`) and composited with its parent (`composited`);
// `commits` holds the toplevels' frames only. Synchronized subsurfaces (the default) take their
// committed state with the parent's next commit, desynchronized ones at once. The stacking
// order (place_above/place_below) applies with the parent's next commit.

/// A subsurface of a toplevel's surface as the client set it up.
public struct SubsurfaceState: Sendable, Equatable {
    /// Its buffer in effect (0×0: none), and a copy of its pixels as `0xAARRGGBB` (alpha
    /// forced to 0xFF for `xrgb8888`, as in `Commit`).
    public var width = 0
    public var height = 0
    public var format = ShmFormat.argb8888
    public var pixels: [UInt32] = []
    /// `wl_surface.set_buffer_scale` and the `wp_viewport` source and destination in effect.
    public var bufferScale: Int32 = 1
    public var viewportSource: ViewportSource?
    public var viewportDestination: ViewportSize?
    /// `wl_subsurface.set_position` in effect (applied with the parent's commit).
    public var x: Int32 = 0
    public var y: Int32 = 0
    /// Whether touches and clicks on it reach it: false with an empty input region.
    public var takesInput = true

    /// Whether it shows: it has a buffer and its parent has one.
    public var isMapped = false

    public init(width: Int = 0, height: Int = 0, format: ShmFormat = .argb8888, pixels: [UInt32] = []) {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// Whether every pixel is fully transparent (argb8888 with alpha 0).
    public var isTransparent: Bool { format == .argb8888 && !pixels.isEmpty && pixels.allSatisfy { $0 >> 24 == 0 } }
}

extension TestCompositor {
    func bindSubcompositor(client: OpaquePointer, version: Int32, id: UInt32) {
        makeResource(
            client: client, interface: interfaces.subcompositor, version: version, id: id,
            implementation: implementations.subcompositor
        ) {
            SubcompositorResource(compositor: self, resource: $0)
        }
    }

    /// The live subsurfaces whose parent is `surface`, oldest first.
    func subsurfaces(of surface: Surface) -> [Subsurface] {
        liveObjects.values.compactMap { $0 as? Subsurface }.filter { $0.parent === surface }
            .sorted { $0.serialNumber < $1.serialNumber }
    }
}

final class SubcompositorResource: ResourceObject {
    func getSubsurface(id: UInt32, surface surfaceResource: WLResource, parent parentResource: WLResource) {
        let surface = ResourceObject.from(surfaceResource, as: Surface.self)
        let parent = ResourceObject.from(parentResource, as: Surface.self)
        guard surface !== parent, surface.subsurfaceRole == nil, surface.xdgSurface == nil else {
            compositor.postError(
                resource, code: UInt32(WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue),
                "get_subsurface: the surface is its own parent or already has a role")
            return
        }
        compositor.makeResource(
            client: client, interface: compositor.interfaces.subsurface, version: version, id: id,
            implementation: compositor.implementations.subsurface
        ) {
            let subsurface = Subsurface(compositor: compositor, resource: $0, surface: surface, parent: parent)
            surface.subsurfaceRole = subsurface
            // A new subsurface is the top of its parent's stack.
            parent.stackOrder.append(surface.serialNumber)
            parent.pendingStackOrder.append(surface.serialNumber)
            return subsurface
        }
    }
}

/// A `wl_subsurface`: the role of `surface` as a child of `parent`.
final class Subsurface: ResourceObject {
    weak var surface: Surface?
    weak var parent: Surface?
    let serialNumber: Int
    var isSynchronized = true
    /// What the subsurface's last commit set, waiting for the parent's commit (synchronized).
    private var cached: SubsurfaceState?
    private var pendingPosition: (x: Int32, y: Int32)?
    /// What is in effect.
    private(set) var state = SubsurfaceState()

    init(compositor: TestCompositor, resource: WLResource, surface: Surface, parent: Surface) {
        self.surface = surface
        self.parent = parent
        compositor.objectCounter += 1
        serialNumber = compositor.objectCounter
        super.init(compositor: compositor, resource: resource)
    }

    func setPosition(x: Int32, y: Int32) { pendingPosition = (x, y) }

    /// `place_above` / `place_below`: moves the surface next to `sibling` (the parent or another
    /// subsurface of it) in the parent's pending stack.
    func place(_ sibling: WLResource, above: Bool) {
        let other = ResourceObject.from(sibling, as: Surface.self)
        guard let parent, let surface, other !== surface,
            other === parent || other.subsurfaceRole?.parent === parent
        else {
            compositor.postError(
                resource, code: UInt32(WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue),
                "place_\(above ? "above" : "below"): not the parent or a sibling")
            return
        }
        parent.pendingStackOrder.removeAll { $0 == surface.serialNumber }
        guard let index = parent.pendingStackOrder.firstIndex(of: other.serialNumber) else { return }
        parent.pendingStackOrder.insert(surface.serialNumber, at: above ? index + 1 : index)
    }

    func setSynchronized(_ synchronized: Bool) {
        isSynchronized = synchronized
        if !synchronized { applyCached() }
    }

    /// The subsurface's own commit: its buffer (nil: none attached since; `detached`: a null
    /// attach), its scale and viewport (in `surfaceState`) and input region.
    func committed(buffer: SubsurfaceState?, detached: Bool, surfaceState: SubsurfaceState, takesInput: Bool) {
        var next = cached ?? state
        next.bufferScale = surfaceState.bufferScale
        next.viewportSource = surfaceState.viewportSource
        next.viewportDestination = surfaceState.viewportDestination
        if let buffer {
            next.width = buffer.width
            next.height = buffer.height
            next.format = buffer.format
            next.pixels = buffer.pixels
        } else if detached {
            next.width = 0
            next.height = 0
            next.pixels = []
        }
        next.takesInput = takesInput
        cached = next
        if !isSynchronized { applyCached() }
    }

    /// The parent committed: the position, and (synchronized) the cached state, take effect.
    func parentCommitted() {
        if let pendingPosition {
            state.x = pendingPosition.x
            state.y = pendingPosition.y
            cached?.x = pendingPosition.x
            cached?.y = pendingPosition.y
            self.pendingPosition = nil
        }
        if isSynchronized { applyCached() }
    }

    private func applyCached() {
        guard let cached else { return }
        state = cached
        self.cached = nil
    }

    /// The state in effect, with whether it shows now.
    var publicState: SubsurfaceState {
        var state = state
        state.isMapped = state.width > 0 && (parent?.isMapped ?? false) && !(surface?.isDestroyed ?? true)
        return state
    }

    override func destroyed() {
        if let surface {
            parent?.stackOrder.removeAll { $0 == surface.serialNumber }
            parent?.pendingStackOrder.removeAll { $0 == surface.serialNumber }
        }
        surface?.subsurfaceRole = nil
        super.destroyed()
    }
}
