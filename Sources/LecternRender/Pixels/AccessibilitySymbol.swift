import CPixman

/// The international symbol of accessibility (the United Nations' figure with open arms in a
/// ring) as 8-bit coverage masks of a square `size` pixels wide: the disc it sits on, and the
/// figure. Each pixel's coverage comes from its signed distance to the shapes' edges (circles
/// and strokes), which antialiases them in one evaluation a pixel: the first frame draws it.
/// Made once per size; every frame composites the same two pixman masks.
final class AccessibilitySymbol {
    let size: Int
    /// The disc's coverage (a8).
    let disc: OpaquePointer
    /// The figure's coverage (ring, head, arms, body, legs; a8).
    let figure: OpaquePointer
    /// The masks' pixels, which pixman reads in place.
    private let pixels: UnsafeMutableBufferPointer<UInt8>

    init?(size: Int) {
        let n = Double(size)
        /// Distance from (x, y) to the segment a–b (all in pixels).
        func segment(_ x: Double, _ y: Double, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1)
            let t = max(0, min(1, ((x - a.0) * dx + (y - a.1) * dy) / (dx * dx + dy * dy)))
            let (px, py) = (a.0 + t * dx - x, a.1 + t * dy - y)
            return (px * px + py * py).squareRoot()
        }
        func point(_ u: Double, _ v: Double) -> (Double, Double) { (u * n, v * n) }
        // Strokes: ends and half widths, as fractions of the size.
        let strokes: [((Double, Double), (Double, Double), Double)] = [
            (point(0.27, 0.39), point(0.73, 0.39), 0.032 * n),  // arms
            (point(0.5, 0.35), point(0.5, 0.58), 0.04 * n),  // body
            (point(0.5, 0.58), point(0.36, 0.77), 0.032 * n),  // legs
            (point(0.5, 0.58), point(0.64, 0.77), 0.032 * n),
        ]
        let centre = n / 2, head = point(0.5, 0.24)
        func coverage(_ signedDistance: Double) -> Double { max(0, min(1, 0.5 - signedDistance)) }
        // Rows padded to whole 32-bit words, as pixman wants them; the disc, then the figure.
        let stride = (size + 3) & ~3
        let pixels = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * stride * size)
        pixels.initialize(repeating: 0)
        for row in 0..<size {
            for column in 0..<size {
                let x = Double(column) + 0.5, y = Double(row) + 0.5
                let fromCentre = ((x - centre) * (x - centre) + (y - centre) * (y - centre)).squareRoot()
                var edge = abs(fromCentre - 0.4 * n) - 0.03 * n  // the ring
                edge = min(edge, ((x - head.0) * (x - head.0) + (y - head.1) * (y - head.1)).squareRoot() - 0.065 * n)
                for (a, b, half) in strokes { edge = min(edge, segment(x, y, a, b) - half) }
                pixels[row * stride + column] = UInt8(coverage(fromCentre - centre) * 255)
                pixels[(size + row) * stride + column] = UInt8(coverage(edge) * 255)
            }
        }
        func mask(_ first: Int) -> OpaquePointer? {
            UnsafeMutableRawPointer(pixels.baseAddress! + first).withMemoryRebound(to: UInt32.self, capacity: 1) {
                pixman_image_create_bits(PIXMAN_a8, Int32(size), Int32(size), $0, Int32(stride))
            }
        }
        guard let disc = mask(0), let figure = mask(size * stride) else {
            pixels.deallocate()
            return nil
        }
        self.size = size
        self.disc = disc
        self.figure = figure
        self.pixels = pixels
    }

    deinit {
        pixman_image_unref(disc)
        pixman_image_unref(figure)
        pixels.deallocate()
    }
}
