import CMuPDF
import Glibc

/// An image file decoded to 8-bit RGB, row by row, no padding.
public struct DecodedImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var rgb: [UInt8]

    /// The colour at (x, y) as 0xRRGGBB.
    public func pixel(x: Int, y: Int) -> UInt32 {
        let i = (y * width + x) * 3
        return UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2])
    }
}

/// Reads image files (PNG, JPEG, …) with MuPDF's decoders: frame dumps, reference images.
public enum PNGReader {
    /// Decodes the image at `path`.
    /// Corresponding C function: `CMuPDF_load_image_rgb`.
    public static func read(path: String) throws(PDFError) -> DecodedImage {
        let context = try MuPDFContext.shared()
        var error = CMuPDF_error()
        var width: Int32 = 0
        var height: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        let status = CMuPDF_load_image_rgb(context.handle, path, &width, &height, &pixels, &error)
        guard status == 0, let pixels else { throw PDFError.open(.unreadable, path, error.text) }
        defer { free(pixels) }
        let count = Int(width) * Int(height) * 3
        return DecodedImage(
            width: Int(width), height: Int(height), rgb: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }
}
