/// Premultiplied BGRA pixels (pixman `a8r8g8b8` on little endian) in memory this object owns.
///
/// Made on a render worker, then handed to the main thread whole: after `init` and the
/// one render that fills it, nothing mutates it, which is why it is `Sendable`.
public final class RasterImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: UnsafeMutableRawPointer

    /// An image of `width` × `height` pixels; a scene tells images apart by identity.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "an image has pixels")
        self.width = width
        self.height = height
        stride = width * 4
        pixels = .allocate(byteCount: stride * height, alignment: 64)
    }

    /// The colour at (x, y) as 0xAARRGGBB.
    public func pixel(x: Int, y: Int) -> UInt32 {
        pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    deinit { pixels.deallocate() }
}
