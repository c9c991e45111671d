/// A rectangle in PDF points (PDF user space: origin bottom-left, y up), as stored in the file.
public struct PDFRect: Sendable, Equatable, CustomStringConvertible {
    public var x0: Double
    public var y0: Double
    public var x1: Double
    public var y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    public var width: Double { x1 - x0 }
    public var height: Double { y1 - y0 }
    public var description: String { "[\(x0) \(y0) \(x1) \(y1)]" }
}

/// A size in PDF points.
public struct PDFSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// The geometry of one page.
public struct PageInfo: Sendable, Equatable {
    /// The page index this describes (0-based).
    public var index: Int
    /// /MediaBox (inherited if needed), in points.
    public var mediaBox: PDFRect
    /// /CropBox clipped to the media box (the media box when absent), in points: what is shown.
    public var cropBox: PDFRect
    /// /Rotate snapped to 0, 90, 180 or 270 (clockwise), like MuPDF.
    public var rotation: Int
    /// The crop box after rotation, in points: what is shown (fz_bound_page).
    public var displaySize: PDFSize
    /// The page label (/PageLabels, read by the shim: MuPDF 1.21 has no page-label API), e.g. "Cover",
    /// "iv" or "A-3"; nil when the document has no labels or none covers this page.
    public var label: String?

    public init(
        index: Int, mediaBox: PDFRect, cropBox: PDFRect, rotation: Int, displaySize: PDFSize, label: String? = nil
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

/// A rectangle in device pixels; origin top-left of the rendered (rotated, scaled) page.
public struct PixelRect: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
