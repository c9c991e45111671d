import LecternCore

/// The geometry of one page. Rectangles are in PDF points (PDF user space: origin bottom-left,
/// y up), as stored in the file, as LecternCore's `Rect`.
public struct PageInfo: Sendable, Equatable {
    /// The page index this describes (0-based).
    public var index: Int
    /// /MediaBox (inherited if needed), in points.
    public var mediaBox: Rect
    /// /CropBox clipped to the media box (the media box when absent), in points: what is shown.
    public var cropBox: Rect
    /// /Rotate snapped to 0, 90, 180 or 270 (clockwise), like MuPDF.
    public var rotation: Int
    /// The crop box after rotation, in points: what is shown (fz_bound_page).
    public var displaySize: Size
    /// The page label (/PageLabels, read by the shim: MuPDF 1.21 has no page-label API), e.g. "Cover",
    /// "iv" or "A-3"; nil when the document has no labels or none covers this page.
    public var label: String?

    public init(
        index: Int, mediaBox: Rect, cropBox: Rect, rotation: Int, displaySize: Size, label: String? = nil
    ) {
        self.index = index
        self.mediaBox = mediaBox
        self.cropBox = cropBox
        self.rotation = rotation
        self.displaySize = displaySize
        self.label = label
    }

    /// The largest scale at which the displayed page fits inside `width` x `height` pixels.
    public func fitScale(width: Int, height: Int) -> Double {
        guard displaySize.width > 0, displaySize.height > 0 else { return 1 }
        return min(Double(width) / displaySize.width, Double(height) / displaySize.height)
    }

    /// The size in whole device pixels of the whole displayed page at `scale` (what `render` covers).
    public func pixelSize(scale: Double) -> (width: Int, height: Int) {
        (Int((displaySize.width * scale).rounded(.up)), Int((displaySize.height * scale).rounded(.up)))
    }
}
