/// The international symbol of accessibility (the United Nations' figure with open arms in a
/// ring) as 8-bit coverage masks of a square `size` pixels wide: the disc it sits on, and the
/// figure. Each pixel's coverage comes from its signed distance to the shapes' edges (circles
/// and strokes), which antialiases them in one evaluation a pixel: the first frame draws it.
struct AccessibilitySymbol {
    let size: Int
    /// The disc's coverage, row by row.
    let disc: [UInt8]
    /// The figure's coverage (ring, head, arms, body, legs), row by row.
    let figure: [UInt8]

    init(size: Int) {
        self.size = size
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
        var disc = [UInt8](repeating: 0, count: size * size)
        var figure = [UInt8](repeating: 0, count: size * size)
        for row in 0..<size {
            for column in 0..<size {
                let x = Double(column) + 0.5, y = Double(row) + 0.5
                let fromCentre = ((x - centre) * (x - centre) + (y - centre) * (y - centre)).squareRoot()
                var edge = abs(fromCentre - 0.4 * n) - 0.03 * n  // the ring
                edge = min(edge, ((x - head.0) * (x - head.0) + (y - head.1) * (y - head.1)).squareRoot() - 0.065 * n)
                for (a, b, half) in strokes { edge = min(edge, segment(x, y, a, b) - half) }
                disc[row * size + column] = UInt8(coverage(fromCentre - centre) * 255)
                figure[row * size + column] = UInt8(coverage(edge) * 255)
            }
        }
        self.disc = disc
        self.figure = figure
    }
}
