/// The geometry of one PDF page: its boxes, its /Rotate, and how PDF user space maps to
/// the page as displayed.
///
/// *Page space* is PDF user space: origin bottom-left of the media box, y up, in points.
/// *Page display space* is the page as a reader sees it: origin at the top-left corner of
/// the rotated crop box, y down, in points, `displaySize` big.
public struct PageGeometry: Hashable, Codable, Sendable {
    /// The media box in PDF user space.
    public let mediaBox: Rect
    /// The crop box in PDF user space (the visible region; its origin is the crop offset).
    public let cropBox: Rect
    /// The clockwise display rotation in degrees: 0, 90, 180 or 270.
    public let rotation: Int

    /// Creates a page geometry.
    ///
    /// - Parameters:
    ///   - mediaBox: The media box in PDF points.
    ///   - cropBox: The crop box; `nil` means the media box. It is clipped to the media box.
    ///   - rotation: The /Rotate value; any multiple of 90, negative values allowed.
    /// - Throws: `DocumentViewError.invalidRotation` or `.invalidPageBox`.
    public init(mediaBox: Rect, cropBox: Rect? = nil, rotation: Int = 0) throws(DocumentViewError) {
        guard rotation % 90 == 0 else { throw .invalidRotation(rotation) }
        let visible = (cropBox ?? mediaBox).intersection(mediaBox) ?? .zero
        for box in [mediaBox, visible] {
            guard box.width > 0, box.height > 0, box.width.isFinite, box.height.isFinite,
                box.minX.isFinite, box.minY.isFinite
            else { throw .invalidPageBox(cropBox ?? mediaBox) }
        }
        self.mediaBox = mediaBox
        self.cropBox = visible
        self.rotation = ((rotation % 360) + 360) % 360
    }

    /// A page of `size` points with its media box at the origin.
    public init(size: Size, rotation: Int = 0) throws(DocumentViewError) {
        try self.init(mediaBox: Rect(origin: .zero, size: size), rotation: rotation)
    }

    /// The size of the crop box before rotation, in points.
    public var cropSize: Size { cropBox.size }

    /// The size of the page as displayed (the crop box after /Rotate), in points.
    public var displaySize: Size { rotation % 180 == 0 ? cropBox.size : cropBox.size.transposed }

    /// Whether the displayed page is wider than tall.
    public var isLandscape: Bool { displaySize.width > displaySize.height }

    /// Maps PDF user space to page display space (top-left origin, y down, rotated).
    public var pageToDisplay: AffineTransform {
        let w = cropBox.width, h = cropBox.height
        // Flip to a y-down space anchored at the crop box's top-left corner…
        let flip = AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: -cropBox.minX, ty: cropBox.maxY)
        // …then turn clockwise, moving the rotated box back into the positive quadrant.
        let turn: AffineTransform =
            switch rotation {
            case 90: AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
            case 180: AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
            case 270: AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
            default: .identity
            }
        return flip.concatenating(turn)
    }

    /// Maps page display space back to PDF user space.
    public var displayToPage: AffineTransform {
        // pageToDisplay is a flip, a quarter turn and a translation: always invertible.
        pageToDisplay.inverted()!
    }

    /// Converts a point from PDF user space to page display space.
    public func displayPoint(fromPage point: Point) -> Point { pageToDisplay.apply(to: point) }

    /// Converts a point from page display space to PDF user space.
    public func pagePoint(fromDisplay point: Point) -> Point { displayToPage.apply(to: point) }
}
