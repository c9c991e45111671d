/// The coordinate spaces of a document view.
public enum CoordinateSpace: Hashable, Sendable {
    /// Surface pixels, origin at the viewport's top-left corner, y down.
    case view
    /// The layout's space: view pixels at zoom 1, origin at the content's top-left, y down.
    /// Under spread-based zooming, content maps to view through the current spread's zoom.
    case content
    /// A spread's natural space: origin at its top-left corner, y down, in points of the
    /// spread's common scale.
    case spread(Int)
    /// PDF user space of a page: origin bottom-left of the media box, y up, in points.
    case page(Int)
}

extension DocumentView {
    /// The transform from `space` to view space.
    public func transformToView(from space: CoordinateSpace) -> AffineTransform {
        switch space {
        case .view:
            return .identity
        case .content:
            return contentToView(spread: layout.spreadBasedZooming ? currentSpread : 0)
        case .spread(let s):
            return spreadToContent(spread: s).concatenating(contentToView(spread: s))
        case .page(let p):
            return pageToView(page: p)
        }
    }

    /// The transform that converts coordinates in `source` to coordinates in `destination`.
    public func transform(from source: CoordinateSpace, to destination: CoordinateSpace) -> AffineTransform {
        let up = transformToView(from: source)
        // Every space-to-view transform is a scale, a translation and quarter turns.
        let down = transformToView(from: destination).inverted() ?? .identity
        return up.concatenating(down)
    }

    /// Converts a point between any two spaces.
    public func convert(_ point: Point, from source: CoordinateSpace, to destination: CoordinateSpace) -> Point {
        transform(from: source, to: destination).apply(to: point)
    }

    /// Converts a rectangle between any two spaces (the bounding box of its corners).
    public func convert(_ rect: Rect, from source: CoordinateSpace, to destination: CoordinateSpace) -> Rect {
        transform(from: source, to: destination).apply(to: rect)
    }
}
