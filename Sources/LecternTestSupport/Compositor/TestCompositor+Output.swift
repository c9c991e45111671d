import CWaylandServer

// wl_output: one output of a configurable size, scale and transform, and outputs plugged in
// and out at run time (a second screen).

/// An output plugged in at run time (`TestCompositor.plugOutput`): a second screen, at scale 1.
public final class PluggedOutput {
    public let name: String
    public let width: Int32
    public let height: Int32
    unowned let compositor: TestCompositor
    var global: OpaquePointer?

    init(compositor: TestCompositor, name: String, width: Int32, height: Int32) {
        self.compositor = compositor
        self.name = name
        self.width = width
        self.height = height
    }

    /// The size a fullscreen surface gets on it.
    var logicalSize: (width: Int32, height: Int32) { (width, height) }
}

extension TestCompositor {
    func bindOutput(client: OpaquePointer, version: Int32, id: UInt32, plugged: PluggedOutput? = nil) {
        guard
            let output = makeResource(
                client: client, interface: interfaces.output, version: version, id: id,
                implementation: implementations.output,
                {
                    OutputResource(compositor: self, resource: $0, plugged: plugged)
                })
        else { return }
        output.sendState()
        // A surface already on screen on this output's screen is on it too.
        for surface in liveSurfaces where surface.client == client && surface.isShown(on: output) {
            surface.enter(output.resource)
        }
    }

    /// Plugs in another output (`wl_output` global) of `width` × `height` pixels at scale 1.
    @discardableResult
    public func plugOutput(name: String = "TEST-2", width: Int32, height: Int32) -> PluggedOutput {
        let output = PluggedOutput(compositor: self, name: name, width: width, height: height)
        pluggedOutputs.append(output)
        output.global = wl_global_create(
            display, interfaces.output, 4, Unmanaged.passUnretained(output).toOpaque(),
            { client, data, version, id in
                let output = Unmanaged<PluggedOutput>.fromOpaque(data!).takeUnretainedValue()
                output.compositor.bindOutput(client: client!, version: Int32(version), id: id, plugged: output)
            })
        if let global = output.global { globals.append(global) }
        return output
    }

    /// Unplugs an output `plugOutput` plugged in: its global goes (`wl_registry.global_remove`),
    /// and surfaces on it get `wl_surface.leave`.
    public func unplug(_ output: PluggedOutput) {
        for resource in liveObjects.values.compactMap({ $0 as? OutputResource }) where resource.plugged === output {
            for surface in liveSurfaces { surface.leave(resource.resource) }
        }
        if let global = output.global, let index = globals.firstIndex(of: global) {
            wl_global_destroy(globals.remove(at: index))
        }
        output.global = nil
        pluggedOutputs.removeAll { $0 === output }
    }

    func outputResources(of client: OpaquePointer) -> [OutputResource] {
        liveObjects.values.compactMap { $0 as? OutputResource }.filter { $0.client == client }
    }

    /// Withdraws the `wl_output` global (an output unplugged): clients get
    /// `wl_registry.global_remove`. Returns false if there was none.
    @discardableResult
    public func removeOutputGlobal() -> Bool {
        guard
            let index = globals.firstIndex(where: {
                String(cString: wl_global_get_interface($0).pointee.name) == "wl_output"
            })
        else { return false }
        wl_global_destroy(globals.remove(at: index))
        return true
    }

    /// Advertises a `wl_output` global again (an output plugged back in).
    public func addOutputGlobal() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let global = wl_global_create(
            display, interfaces.output, 4, me,
            { client, data, version, id in
                TestCompositor.from(data).bindOutput(client: client!, version: Int32(version), id: id)
            })
        {
            globals.append(global)
        }
    }

    /// The size a fullscreen surface gets on the output, in surface units: the mode turned by
    /// the transform (90° and 270° swap its sides), divided by the preferred fractional scale
    /// if there is one, else by the output's scale.
    public var logicalOutputSize: (width: Int32, height: Int32) {
        let turned = outputTransform % 2 == 1
        let (width, height) = turned ? (outputSize.height, outputSize.width) : outputSize
        let numerator = preferredScale ?? outputScale * 120
        return (width * 120 / max(1, numerator), height * 120 / max(1, numerator))
    }

    /// Changes the output's mode (in pixels, before the transform), scale and transform
    /// (`WL_OUTPUT_TRANSFORM_*`) and tells every client (`geometry`, `mode`, `scale`, `done`).
    /// It does not configure the toplevel: call `configure(width:height:)` for that (with
    /// `logicalOutputSize`), as a real compositor would after an output change.
    public func setOutput(width: Int32, height: Int32, scale: Int32 = 1, transform: Int32 = 0) {
        outputSize = (width, height)
        outputScale = scale
        outputTransform = transform
        for output in liveObjects.values.compactMap({ $0 as? OutputResource }) where output.plugged == nil {
            output.sendState()
        }
    }
}

final class OutputResource: ResourceObject {
    /// The plugged-in output it is bound to (nil: the compositor's own output).
    let plugged: PluggedOutput?

    init(compositor: TestCompositor, resource: WLResource, plugged: PluggedOutput?) {
        self.plugged = plugged
        super.init(compositor: compositor, resource: resource)
    }

    var name: String { plugged?.name ?? "TEST-1" }

    override func destroyed() {
        for surface in compositor.liveSurfaces { surface.forget(resource) }
        super.destroyed()
    }

    func sendState() {
        let (width, height) = plugged.map { ($0.width, $0.height) } ?? compositor.outputSize
        let scale = plugged == nil ? compositor.outputScale : 1
        let transform = plugged == nil ? compositor.outputTransform : 0
        // The physical size in millimetres: the compositor's (0 × 0 unless a test gives it).
        let millimetres = plugged == nil ? compositor.outputMillimetres : nil
        wl_output_send_geometry(
            resource, 0, 0, millimetres?.width ?? 0, millimetres?.height ?? 0,
            Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue), "Lectern", "TestCompositor", transform)
        wl_output_send_mode(
            resource, WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue,
            width, height, 60_000)
        if version >= 2 { wl_output_send_scale(resource, scale) }
        if version >= 4 {
            wl_output_send_name(resource, name)
            wl_output_send_description(resource, "Lectern test compositor output")
        }
        if version >= 2 { wl_output_send_done(resource) }
    }
}
