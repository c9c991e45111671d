import CMuPDF
import LecternCore

extension PDFDocument {
    /// The most boxes `imageAreas` returns; past it the last box grows to hold the rest.
    public static let imageAreaLimit = 64

    /// Where the page's images are drawn in `region` of the page scaled by `scale` (as `render`
    /// draws it), in the region's pixels: each image's box, clipped by the clips in force. Image
    /// masks (one colour, like text), soft masks' and tiling patterns' images are not counted. A
    /// contrast mode leaves these pixels in their own colours.
    ///
    /// Replays the page's cached display list with a device that draws nothing, so after a
    /// `render` of the same page it costs a walk of the list, not a rasterization.
    /// - Throws: `.pageOutOfRange`, or `.renderFailed` when MuPDF cannot interpret the page.
    /// Corresponding C function: `CMuPDF_page_image_areas`.
    public func imageAreas(page index: Int, scale: Double, region: PixelBox) throws(PDFError) -> [PixelBox] {
        try checkIndex(index)
        var boxes = [Int32](repeating: 0, count: 4 * Self.imageAreaLimit)
        var count: Int32 = 0
        var error = CMuPDF_error()
        let status = CMuPDF_page_image_areas(
            handle, Int32(index), Float(scale), Int32(clamping: region.x), Int32(clamping: region.y),
            Int32(clamping: region.width), Int32(clamping: region.height), &boxes, Int32(Self.imageAreaLimit),
            &count, &error)
        guard status == 0 else {
            throw PDFError(
                .renderFailed, path: path,
                message: "cannot find the images of page \(index + 1) of \(path): \(error.text)")
        }
        return (0..<Int(count)).map { i in
            let x0 = Int(boxes[4 * i]), y0 = Int(boxes[4 * i + 1])
            return PixelBox(x: x0, y: y0, width: Int(boxes[4 * i + 2]) - x0, height: Int(boxes[4 * i + 3]) - y0)
        }
    }
}
