/// A point in a two-dimensional coordinate space.
public struct Point: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, `(0, 0)`.
    public static let zero = Point(x: 0, y: 0)

    /// The distance from this point to `other`.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x
        let dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "(\(x), \(y))" }

    /// Component-wise sum.
    public static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    /// Component-wise difference.
    public static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }
    /// Scales both components.
    public static func * (lhs: Point, rhs: Double) -> Point { Point(x: lhs.x * rhs, y: lhs.y * rhs) }
}

/// A width and a height.
public struct Size: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates a size from its extents.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The empty size.
    public static let zero = Size(width: 0, height: 0)

    /// Width divided by height (0 when the height is 0).
    public var aspectRatio: Double { height == 0 ? 0 : width / height }

    /// The size with width and height exchanged, as after a quarter turn.
    public var transposed: Size { Size(width: height, height: width) }

    /// The extent along `axis`.
    public func extent(along axis: Axis) -> Double { axis == .horizontal ? width : height }

    /// Scales both extents.
    public static func * (lhs: Size, rhs: Double) -> Size { Size(width: lhs.width * rhs, height: lhs.height * rhs) }

    public var description: String { "\(width)×\(height)" }
}

/// The two directions a layout can stack its spreads in.
public enum Axis: String, Hashable, Codable, Sendable, CaseIterable {
    /// Left to right (or right to left under right-edge binding).
    case horizontal
    /// Top to bottom.
    case vertical

    /// The other axis.
    public var cross: Axis { self == .horizontal ? .vertical : .horizontal }
}

/// An axis-aligned rectangle given by its top-left origin and its size.
///
/// Every space in LecternCore except PDF page space has its y axis pointing down; in page
/// space the same struct describes a box whose `origin` is the bottom-left corner.
public struct Rect: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The corner with the smallest coordinates.
    public var origin: Point
    /// The extents; both are expected to be non-negative.
    public var size: Size

    /// Creates a rectangle from an origin and a size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its coordinates and extents.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The smallest rectangle containing both corners.
    public init(corner a: Point, corner b: Point) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The rectangle at the origin with no size.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge (the bottom edge in PDF page space).
    public var minY: Double { origin.y }
    /// The right edge.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge (the top edge in PDF page space).
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// The horizontal extent.
    public var width: Double { size.width }
    /// The vertical extent.
    public var height: Double { size.height }
    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }
    /// The area, `width × height`.
    public var area: Double { size.width * size.height }
    /// Whether the rectangle has no area.
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// The lower bound along `axis`.
    public func minimum(along axis: Axis) -> Double { axis == .horizontal ? minX : minY }
    /// The upper bound along `axis`.
    public func maximum(along axis: Axis) -> Double { axis == .horizontal ? maxX : maxY }

    /// Whether the two rectangles share a region of positive area.
    ///
    /// Rectangles that only touch along an edge do not intersect; this is the predicate the
    /// layouts' visible-spread queries are defined by.
    public func intersects(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty
            && minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The common region, or `nil` when the rectangles do not intersect.
    public func intersection(_ other: Rect) -> Rect? {
        guard intersects(other) else { return nil }
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both.
    public func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether `point` lies inside the rectangle (lower edges included, upper edges excluded).
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The rectangle shrunk by `insets` (grown for negative insets).
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: minX + insets.left, y: minY + insets.top,
            width: max(0, width - insets.left - insets.right),
            height: max(0, height - insets.top - insets.bottom))
    }

    /// The rectangle moved by `offset`.
    public func offsetBy(_ offset: Point) -> Rect { Rect(origin: origin + offset, size: size) }

    /// The largest rectangle of `size`'s aspect ratio that fits in this one, centred.
    public func aspectFit(_ content: Size) -> Rect {
        guard content.width > 0, content.height > 0, width > 0, height > 0 else {
            return Rect(origin: center, size: .zero)
        }
        let scale = min(width / content.width, height / content.height)
        let fitted = content * scale
        return Rect(x: midX - fitted.width / 2, y: midY - fitted.height / 2, width: fitted.width, height: fitted.height)
    }

    public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}

/// Distances from the four edges of a rectangle, as used for content and frame insets.
public struct EdgeInsets: Hashable, Codable, Sendable {
    /// The distance from the top edge.
    public var top: Double
    /// The distance from the left edge.
    public var left: Double
    /// The distance from the bottom edge.
    public var bottom: Double
    /// The distance from the right edge.
    public var right: Double

    /// Creates insets from the four edge distances.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same distance on every edge.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// No insets.
    public static let zero = EdgeInsets()

    /// The inset before the content along `axis` (top or left).
    public func leading(along axis: Axis) -> Double { axis == .horizontal ? left : top }
    /// The inset after the content along `axis` (bottom or right).
    public func trailing(along axis: Axis) -> Double { axis == .horizontal ? right : bottom }
    /// Both insets along `axis` added together.
    public func total(along axis: Axis) -> Double { leading(along: axis) + trailing(along: axis) }
}
