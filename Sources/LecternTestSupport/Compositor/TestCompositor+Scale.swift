import CWaylandServer

// wp_viewporter and wp_fractional_scale_manager_v1: a surface drawn at a fractional scale.

extension TestCompositor {
    /// Offers `wp_viewporter` and `wp_fractional_scale_manager_v1` (from now on) and sends
    /// `preferred_scale` of `numerator` / 120 (180: 1.5) to every surface's
    /// `wp_fractional_scale_v1`, now and when one is created. `logicalOutputSize` follows.
    public func setPreferredScale(_ numerator: Int32) {
        preferredScale = numerator
        let me = Unmanaged.passUnretained(self).toOpaque()
        offerViewporter()
        if !globalNames.contains("wp_fractional_scale_manager_v1"),
            let global = wl_global_create(
                display, interfaces.fractionalScaleManager, 1, me,
                { client, data, version, id in
                    TestCompositor.from(data).bindFractionalScaleManager(
                        client: client!, version: Int32(version), id: id)
                })
        {
            globals.append(global)
        }
        for scale in liveObjects.values.compactMap({ $0 as? FractionalScale }) { scale.sendPreferred() }
    }

    /// The interfaces of the globals offered now.
    var globalNames: Set<String> { Set(globals.map { String(cString: wl_global_get_interface($0).pointee.name) }) }

    /// Offers `wp_viewporter` (from now on), once.
    public func offerViewporter() {
        guard !globalNames.contains("wp_viewporter"),
            let global = wl_global_create(
                display, interfaces.viewporter, 1, Unmanaged.passUnretained(self).toOpaque(),
                { client, data, version, id in
                    TestCompositor.from(data).bindViewporter(client: client!, version: Int32(version), id: id)
                })
        else { return }
        globals.append(global)
    }

    func bindViewporter(client: OpaquePointer, version: Int32, id: UInt32) {
        makeResource(
            client: client, interface: interfaces.viewporter, version: version, id: id,
            implementation: implementations.viewporter
        ) { ViewporterResource(compositor: self, resource: $0) }
    }

    func bindFractionalScaleManager(client: OpaquePointer, version: Int32, id: UInt32) {
        makeResource(
            client: client, interface: interfaces.fractionalScaleManager, version: version, id: id,
            implementation: implementations.fractionalScaleManager
        ) { FractionalScaleManager(compositor: self, resource: $0) }
    }
}

final class ViewporterResource: ResourceObject {
    func getViewport(id: UInt32, surface: WLResource) {
        let target = ResourceObject.from(surface, as: Surface.self)
        guard target.viewport == nil else {
            compositor.postError(
                resource, code: UInt32(WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS.rawValue), "the surface has a viewport")
            return
        }
        target.viewport = compositor.makeResource(
            client: client, interface: compositor.interfaces.viewport, version: version, id: id,
            implementation: compositor.implementations.viewport
        ) { Viewport(compositor: compositor, resource: $0, surface: target) }
    }
}

/// The source rectangle of a `wp_viewport`, in surface-local units before the viewport scales
/// (buffer pixels divided by the buffer scale).
public struct ViewportSource: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
}

/// The destination size of a `wp_viewport`, in surface units.
public struct ViewportSize: Sendable, Equatable {
    public var width: Int32, height: Int32
    public init(width: Int32, height: Int32) { (self.width, self.height) = (width, height) }
}

/// A surface's `wp_viewport`: its source and destination apply at the surface's next commit.
final class Viewport: ResourceObject {
    weak var surface: Surface?

    init(compositor: TestCompositor, resource: WLResource, surface: Surface) {
        self.surface = surface
        super.init(compositor: compositor, resource: resource)
    }

    func setDestination(width: Int32, height: Int32) {
        if width == -1 && height == -1 {
            surface?.pendingDestination = nil
        } else if width > 0 && height > 0 {
            surface?.pendingDestination = (width, height)
        } else {
            compositor.postError(
                resource, code: UInt32(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue),
                "viewport destination \(width)x\(height)")
        }
    }

    func setSource(x: Double, y: Double, width: Double, height: Double) {
        if x == -1 && y == -1 && width == -1 && height == -1 {
            surface?.pendingSource = nil
        } else if x >= 0 && y >= 0 && width > 0 && height > 0 {
            surface?.pendingSource = ViewportSource(x: x, y: y, width: width, height: height)
        } else {
            compositor.postError(
                resource, code: UInt32(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue),
                "viewport source \(x),\(y) \(width)x\(height)")
        }
    }

    override func destroyed() {
        // The protocol: destroying the viewport removes its state at the next commit.
        surface?.pendingDestination = nil
        surface?.pendingSource = nil
        super.destroyed()
    }
}

final class FractionalScaleManager: ResourceObject {
    func getFractionalScale(id: UInt32, surface: WLResource) {
        let target = ResourceObject.from(surface, as: Surface.self)
        guard target.fractionalScale == nil else {
            compositor.postError(
                resource, code: UInt32(WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue),
                "the surface has a fractional scale object")
            return
        }
        let scale = compositor.makeResource(
            client: client, interface: compositor.interfaces.fractionalScale, version: version, id: id,
            implementation: compositor.implementations.fractionalScale
        ) { FractionalScale(compositor: compositor, resource: $0) }
        target.fractionalScale = scale
        scale?.sendPreferred()
    }
}

/// A surface's `wp_fractional_scale_v1`: told the compositor's preferred scale.
final class FractionalScale: ResourceObject {
    func sendPreferred() {
        guard let numerator = compositor.preferredScale else { return }
        wp_fractional_scale_v1_send_preferred_scale(resource, UInt32(numerator))
    }
}
