/// The international symbol of accessibility (the United Nations' figure with open arms in a
/// ring) as 8-bit coverage masks of a square `size` pixels wide: the disc it sits on, and the
/// figure. Drawn from circles and strokes, antialiased by 4 × 4 supersampling.
struct AccessibilitySymbol {
    let size: Int
    /// The disc's coverage, row by row.
    let disc: [UInt8]
    /// The figure's coverage (ring, head, arms, body, legs), row by row.
    let figure: [UInt8]

    init(size: Int) {
        self.size = size
        let n = Double(size)
        func segment(_ x: Double, _ y: Double, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1)
            let t = max(0, min(1, ((x - a.0) * dx + (y - a.1) * dy) / (dx * dx + dy * dy)))
            let (px, py) = (a.0 + t * dx - x, a.1 + t * dy - y)
            return (px * px + py * py).squareRoot()
        }
        func inFigure(_ x: Double, _ y: Double) -> Bool {
            let (u, v) = (x / n, y / n)
            let fromCentre = ((u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5)).squareRoot()
            if abs(fromCentre - 0.4) < 0.03 { return true }  // the ring
            if ((u - 0.5) * (u - 0.5) + (v - 0.24) * (v - 0.24)).squareRoot() < 0.065 { return true }  // head
            let strokes: [((Double, Double), (Double, Double), Double)] = [
                ((0.27, 0.39), (0.73, 0.39), 0.032),  // arms
                ((0.5, 0.35), (0.5, 0.58), 0.04),  // body
                ((0.5, 0.58), (0.36, 0.77), 0.032),  // legs
                ((0.5, 0.58), (0.64, 0.77), 0.032),
            ]
            return strokes.contains { segment(u, v, $0.0, $0.1) < $0.2 }
        }
        var disc = [UInt8](repeating: 0, count: size * size)
        var figure = [UInt8](repeating: 0, count: size * size)
        for row in 0..<size {
            for column in 0..<size {
                var inDisc = 0
                var inShape = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let x = Double(column) + (Double(sx) + 0.5) / 4
                        let y = Double(row) + (Double(sy) + 0.5) / 4
                        let dx = x / n - 0.5, dy = y / n - 0.5
                        if (dx * dx + dy * dy).squareRoot() < 0.5 { inDisc += 1 }
                        if inFigure(x, y) { inShape += 1 }
                    }
                }
                disc[row * size + column] = UInt8(inDisc * 255 / 16)
                figure[row * size + column] = UInt8(inShape * 255 / 16)
            }
        }
        self.disc = disc
        self.figure = figure
    }
}
