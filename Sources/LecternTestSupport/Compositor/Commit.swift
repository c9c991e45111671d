/// A rectangle in surface or buffer coordinates, as the client sent it in a damage request.
public struct DamageRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}

/// A `wl_shm` pixel format code (`wl_shm.format`).
public struct ShmFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let argb8888 = ShmFormat(rawValue: 0)
    public static let xrgb8888 = ShmFormat(rawValue: 1)

    public var description: String {
        switch self {
        case .argb8888: "argb8888"
        case .xrgb8888: "xrgb8888"
        default: "format(0x\(String(rawValue, radix: 16)))"
        }
    }
}

/// What one `wl_surface.commit` with a buffer attached put on the (test) screen.
///
/// `pixels` is a copy taken at commit time, row by row without stride padding, one `UInt32`
/// per pixel as `0xAARRGGBB`. For `xrgb8888` buffers the alpha byte is forced to `0xFF`, so the
/// same picture compares equal in either format.
public struct Commit: Sendable {
    /// 1 for the first recorded commit of this compositor, then 2, 3, …
    public var sequence: Int
    /// When the compositor handled the commit.
    public var timestamp: ContinuousClock.Instant
    public var width: Int
    public var height: Int
    public var format: ShmFormat
    public var pixels: [UInt32]
    /// `wl_surface.damage` rectangles since the previous commit (surface coordinates).
    public var surfaceDamage: [DamageRect]
    /// `wl_surface.damage_buffer` rectangles since the previous commit (buffer coordinates).
    public var bufferDamage: [DamageRect]
    /// Whether the client had acked the last configure it was sent before this commit.
    public var configureAcked: Bool
    /// The serial of the last configure the client acked before this commit (0: none).
    public var ackedConfigureSerial: UInt32
    /// `wl_surface.set_buffer_scale` in effect for this commit.
    public var bufferScale: Int32
    /// `wp_viewport.set_destination` in effect for this commit (nil: no viewport destination):
    /// the surface size the buffer is scaled to.
    public var viewportDestination: (width: Int32, height: Int32)?
    /// The title of the toplevel the surface belongs to (nil: none), to tell windows apart.
    public var title: String?
    /// The buffer was a `wp_single_pixel_buffer_manager_v1` one (its pixel is `pixels[0]`).
    public var isSinglePixel: Bool
    /// Bytes from one row of the client's buffer to the next (0: not a `wl_shm` buffer).
    public var bufferStride: Int
    /// The round trips (`wl_display.sync` requests, from every client) the compositor had been
    /// asked for before this commit (`TestCompositor.roundTrips`).
    public var roundTripsBefore = 0

    public init(
        sequence: Int, timestamp: ContinuousClock.Instant, width: Int, height: Int, format: ShmFormat,
        pixels: [UInt32], surfaceDamage: [DamageRect] = [], bufferDamage: [DamageRect] = [],
        configureAcked: Bool = true, ackedConfigureSerial: UInt32 = 0, bufferScale: Int32 = 1,
        viewportDestination: (width: Int32, height: Int32)? = nil, title: String? = nil, isSinglePixel: Bool = false,
        bufferStride: Int = 0
    ) {
        self.isSinglePixel = isSinglePixel
        self.bufferStride = bufferStride
        precondition(pixels.count == width * height, "pixels must hold width*height values")
        self.sequence = sequence
        self.timestamp = timestamp
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
        self.surfaceDamage = surfaceDamage
        self.bufferDamage = bufferDamage
        self.configureAcked = configureAcked
        self.ackedConfigureSerial = ackedConfigureSerial
        self.bufferScale = bufferScale
        self.viewportDestination = viewportDestination
        self.title = title
    }

    /// All damage of this commit, surface and buffer damage together.
    public var damage: [DamageRect] { surfaceDamage + bufferDamage }

    /// The pixel at (x, y) as `0xAARRGGBB`.
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "(\(x), \(y)) is outside \(width)x\(height)")
        return pixels[y * width + x]
    }

    /// Whether every pixel has the same value (a blank or a solid-colour frame).
    public var isUniform: Bool {
        guard let first = pixels.first else { return true }
        return pixels.allSatisfy { $0 == first }
    }

    /// The number of different pixel values among every `sampleStep`-th pixel of every
    /// `sampleStep`-th row.
    public func distinctColors(sampleStep: Int = 1) -> Int {
        precondition(sampleStep > 0)
        var seen = Set<UInt32>()
        for y in stride(from: 0, to: height, by: sampleStep) {
            for x in stride(from: 0, to: width, by: sampleStep) {
                seen.insert(pixels[y * width + x])
            }
        }
        return seen.count
    }

    /// The fraction (0…1) of pixels in `rect` (clipped to the buffer; the whole buffer when nil)
    /// whose luminance is below `threshold` (0…255): how much of that area is "ink".
    public func darkFraction(in rect: DamageRect? = nil, threshold: Int = 96) -> Double {
        let area = rect ?? DamageRect(x: 0, y: 0, width: Int32(width), height: Int32(height))
        let x0 = max(0, Int(area.x)), y0 = max(0, Int(area.y))
        let x1 = min(width, Int(area.x) + Int(area.width)), y1 = min(height, Int(area.y) + Int(area.height))
        guard x1 > x0, y1 > y0 else { return 0 }
        var dark = 0
        for y in y0..<y1 {
            for x in x0..<x1 where Self.luminance(pixels[y * width + x]) < threshold {
                dark += 1
            }
        }
        return Double(dark) / Double((x1 - x0) * (y1 - y0))
    }

    /// Rec. 601 luma (0…255) of a `0xAARRGGBB` pixel, ignoring alpha.
    public static func luminance(_ pixel: UInt32) -> Int {
        let r = Int((pixel >> 16) & 0xFF), g = Int((pixel >> 8) & 0xFF), b = Int(pixel & 0xFF)
        return (299 * r + 587 * g + 114 * b) / 1000
    }
}
