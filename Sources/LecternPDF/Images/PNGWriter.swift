import CMuPDF
import Glibc
import LecternLinux

/// Writes pixels as PNG files with MuPDF's PNG writer (frame dumps, screenshots).
public enum PNGWriter {
    /// Writes premultiplied BGRA pixels (pixman a8r8g8b8) to `path` as an opaque RGB PNG, atomically:
    /// the image goes to `path.tmp-PID` first and is renamed over `path`, so a reader never sees a
    /// half-written file.
    ///
    /// - Parameters:
    ///   - bgra: `stride * height` bytes, only read.
    ///   - width, height: the image size in pixels.
    ///   - stride: bytes per row, at least `4 * width`.
    ///   - path: the destination; its directory must exist.
    /// - Throws: `PDFError` of kind `.writeFailed`.
    /// Corresponding C function: `CMuPDF_write_png`.
    public static func write(
        bgra: UnsafeRawPointer, width: Int, height: Int, stride: Int, to path: String
    ) throws(PDFError) {
        guard width > 0, height > 0, stride >= width * 4, stride <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PDFError(
                .writeFailed, path: path,
                message: "cannot write \(path): invalid image size \(width)x\(height) with stride \(stride)")
        }
        let context: MuPDFContext
        do {
            context = try MuPDFContext.shared()
        } catch {
            throw PDFError(.writeFailed, path: path, message: "cannot write \(path): \(error.message)")
        }
        let temporary = "\(path).tmp-\(getpid())"
        var error = CMuPDF_error()
        let status = CMuPDF_write_png(
            context.handle, bgra.assumingMemoryBound(to: UInt8.self), Int32(width),
            Int32(height), stride, temporary, &error)
        guard status == 0 else {
            unlink(temporary)
            throw PDFError(.writeFailed, path: path, message: "cannot write \(path): \(error.text)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = errnoText(errno)
            unlink(temporary)
            throw PDFError(.writeFailed, path: path, message: "cannot write \(path): rename failed: \(reason)")
        }
    }
}
