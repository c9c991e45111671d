/// Premultiplied BGRA pixels (pixman `a8r8g8b8` on little endian) in memory this object owns,
/// or that an owner it keeps holds (memory shared with the render worker).
///
/// Made on a render worker, then handed to the main thread whole: after `init` and the
/// one render that fills it, nothing mutates it, which is why it is `Sendable`.
public final class RasterImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: UnsafeMutableRawPointer
    /// What holds `pixels` and frees them when it goes (nil: this image allocated them).
    private let owner: AnyObject?

    /// An image of `width` × `height` pixels; a scene tells images apart by identity.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "an image has pixels")
        self.width = width
        self.height = height
        stride = width * 4
        pixels = .allocate(byteCount: stride * height, alignment: 64)
        owner = nil
    }

    /// An image over `pixels` (`width * 4` bytes a row), which `owner` holds: it is kept as
    /// long as the image, and frees them.
    public init(width: Int, height: Int, pixels: UnsafeMutableRawPointer, owner: AnyObject) {
        precondition(width > 0 && height > 0, "an image has pixels")
        self.width = width
        self.height = height
        stride = width * 4
        self.pixels = pixels
        self.owner = owner
    }

    /// The colour at (x, y) as 0xAARRGGBB.
    public func pixel(x: Int, y: Int) -> UInt32 {
        pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    deinit { if owner == nil { pixels.deallocate() } }
}
