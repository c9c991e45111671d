/// An integer rectangle in buffer pixels.
public struct PixelBox: Equatable, Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    public func intersection(_ other: PixelBox) -> PixelBox {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return PixelBox(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public func union(_ other: PixelBox) -> PixelBox {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelBox(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public func insetBy(dx: Int, dy: Int) -> PixelBox {
        PixelBox(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
}

/// Everything one frame shows, as values: two equal scenes give equal pixels.
/// The compositor diffs consecutive scenes to damage only what changed.
public struct Scene: Equatable, Sendable {
    /// A rendered page image placed at `frame` (scaled if the sizes differ).
    public struct PageItem: Equatable, Sendable {
        public var contentID: Int
        public var frame: PixelBox
        public init(contentID: Int, frame: PixelBox) {
            self.contentID = contentID
            self.frame = frame
        }
    }

    /// A full-screen message card: something went wrong, or is still on its way.
    public struct Message: Equatable, Sendable {
        public var title: String
        public var detail: String
        public var isError: Bool
        public init(title: String, detail: String, isError: Bool) {
            self.title = title
            self.detail = detail
            self.isError = isError
        }
    }

    public var width: Int
    public var height: Int
    public var background: Color = .background
    public var pages: [PageItem] = []
    public var message: Message?
    /// A one-line notice along the bottom edge (e.g. "damaged file, partly recovered").
    public var banner: String?

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
