import CWaylandClient

/// A `wl_output`: its current mode, scale and transform (to size a 0x0 configure, and to draw
/// at the density of the output a surface is on).
public final class Output {
    let proxy: OpaquePointer
    /// The registry name of its global.
    public let globalName: UInt32
    let version: UInt32
    private let listener: Listener<wl_output_listener>
    public private(set) var modeSize: (width: Int, height: Int)?
    public private(set) var scale = 1
    public private(set) var transform: Int32 = 0
    /// The panel's size in millimetres as the compositor reports it (`wl_output.geometry`),
    /// unrotated; nil when it reports none (0 × 0, as headless outputs do).
    public private(set) var physicalSize: (width: Int, height: Int)?
    private var pending: (width: Int, height: Int)?
    /// Called after the compositor finished describing a change (`wl_output.done`).
    var onChange: (() -> Void)?

    init(proxy: OpaquePointer, version: UInt32, globalName: UInt32) {
        self.proxy = proxy
        self.globalName = globalName
        self.version = version
        listener = Listener(
            wl_output_listener(
                geometry: { data, _, _, _, width, height, _, _, _, transform in
                    guard let data else { return }
                    let output = Unmanaged<Output>.fromOpaque(data).takeUnretainedValue()
                    output.transform = transform
                    output.physicalSize = width > 0 && height > 0 ? (Int(width), Int(height)) : nil
                },
                mode: { data, _, flags, width, height, _ in
                    guard let data, flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
                    let output = Unmanaged<Output>.fromOpaque(data).takeUnretainedValue()
                    output.pending = (Int(width), Int(height))
                    if output.version < 2 {
                        output.modeSize = output.pending
                        output.onChange?()
                    }
                },
                done: { data, _ in
                    guard let data else { return }
                    let output = Unmanaged<Output>.fromOpaque(data).takeUnretainedValue()
                    if let pending = output.pending { output.modeSize = pending }
                    output.onChange?()
                },
                scale: { data, _, factor in
                    guard let data else { return }
                    Unmanaged<Output>.fromOpaque(data).takeUnretainedValue().scale = max(1, Int(factor))
                },
                name: { _, _, _ in },
                description: { _, _, _ in }))
        wl_output_add_listener(proxy, listener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Mode size divided by scale, with 90°/270° transforms swapping width and height.
    public var logicalSize: (width: Int, height: Int)? {
        guard let modeSize else { return nil }
        let rotated = transform % 2 == 1
        let w = (rotated ? modeSize.height : modeSize.width) / scale
        let h = (rotated ? modeSize.width : modeSize.height) / scale
        return (w, h)
    }

    /// The physical size in millimetres as a reader of the screen sees it: 90°/270° transforms
    /// swap width and height.
    public var physicalLogicalSize: (width: Int, height: Int)? {
        guard let physicalSize else { return nil }
        return transform % 2 == 1 ? (physicalSize.height, physicalSize.width) : physicalSize
    }

    deinit {
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }
}
