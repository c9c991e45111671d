/// A 2-D affine transform, in the row-vector convention of PDF and Core Graphics.
///
/// A point maps to `(a·x + c·y + tx, b·x + d·y + ty)`. `t1.concatenating(t2)` applies `t1`
/// first, then `t2`.
public struct AffineTransform: Hashable, Codable, Sendable {
    /// Scales x (and rotates) into x′.
    public var a: Double
    /// Feeds x into y′.
    public var b: Double
    /// Feeds y into x′.
    public var c: Double
    /// Scales y (and rotates) into y′.
    public var d: Double
    /// Translation added to x′.
    public var tx: Double
    /// Translation added to y′.
    public var ty: Double

    /// Creates a transform from its six coefficients.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The transform that changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `(x, y)`.
    public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale about the origin.
    public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A uniform scale about the origin.
    public static func scale(_ s: Double) -> AffineTransform { scale(x: s, y: s) }

    /// A rotation by `quarterTurns × 90°`, exact (no trigonometry), counter-clockwise in a
    /// y-up space and clockwise in a y-down space.
    public static func rotation(quarterTurns: Int) -> AffineTransform {
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        case 2: AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
        case 3: AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0)
        default: .identity
        }
    }

    /// This transform followed by `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The determinant of the linear part.
    public var determinant: Double { a * d - b * c }

    /// The inverse transform, or `nil` when the transform is singular.
    public func inverted() -> AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic),
            ty: -(tx * ib + ty * id))
    }

    /// Maps a point.
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// Maps a rectangle to the bounding box of its four mapped corners (exact for
    /// transforms made of scales, translations and quarter turns).
    public func apply(to rect: Rect) -> Rect {
        let p1 = apply(to: rect.origin)
        let p2 = apply(to: Point(x: rect.maxX, y: rect.maxY))
        let p3 = apply(to: Point(x: rect.minX, y: rect.maxY))
        let p4 = apply(to: Point(x: rect.maxX, y: rect.minY))
        let x0 = min(p1.x, p2.x, p3.x, p4.x), x1 = max(p1.x, p2.x, p3.x, p4.x)
        let y0 = min(p1.y, p2.y, p3.y, p4.y), y1 = max(p1.y, p2.y, p3.y, p4.y)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
