import Foundation
import LecternCore

@testable import LecternPDF

/// The shared PDF fixtures in Tests/Fixtures (made by Tests/Fixtures/make-fixtures).
enum Fixture {
    /// Tests/Fixtures, found from this file's path. Symlinks are resolved so that a scratch package
    /// linking to Tests/LecternPDFTests still finds the fixtures next to the real folder.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .resolvingSymlinksInPath()
        .deletingLastPathComponent()  // LecternPDFTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static var text3Pages: String { path("text-3pages.pdf") }

    /// The repository root (Tests/..).
    static let repositoryRoot: URL = directory.deletingLastPathComponent().deletingLastPathComponent()

    /// The bundled sample document (kiosk/sample/make-sample.js): 9 pages, /PageLabels, /Rotate 90 on page 5.
    static var sample: String { repositoryRoot.appendingPathComponent("Sources/lectern/Resources/sample.pdf").path }

    /// A 15,000-page text PDF made by kiosk/make-text-pdf, generated once per run into a cache directory.
    static func text15000Pages() throws -> String { try bigDocument.get() }

    /// A one-page PDF with a 4000x3000 photo-like JPEG made by kiosk/make-photo-pdf, once per run.
    static func photo() throws -> String { try photoDocument.get() }

    private static let bigDocument = Result { () throws -> String in
        try generate("text-15000.pdf", script: "kiosk/make-text-pdf", arguments: ["15000"])
    }

    private static let photoDocument = Result { () throws -> String in
        try generate("photo.pdf", script: "kiosk/make-photo-pdf", arguments: [])
    }

    /// Runs a generator script of the repository into the test cache directory. Regenerated once per
    /// run (the scripts write a temporary file and rename it), so it is never stale.
    private static func generate(_ name: String, script: String, arguments: [String]) throws -> String {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-pdf-tests-cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let output = cache.appendingPathComponent(name)
        let process = Process()
        process.executableURL = repositoryRoot.appendingPathComponent(script)
        process.arguments = [output.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PDFError(.unreadable, path: output.path, message: "\(script) failed")
        }
        return output.path
    }
}

/// A premultiplied BGRA image in Swift memory, for rendering into and inspecting.
struct Bitmap: Equatable {
    let width: Int
    let height: Int
    let stride: Int
    var bytes: [UInt8]

    init(width: Int, height: Int, padding: Int = 0) {
        self.width = width
        self.height = height
        self.stride = width * 4 + padding
        // Not white and not zero, so a render that does not clear shows up.
        self.bytes = [UInt8](repeating: 0x5A, count: stride * height)
    }

    /// Renders `region` of page `index` into a new bitmap of the region's size.
    static func render(
        _ document: PDFDocument, page index: Int, scale: Double, region: PixelBox,
        padding: Int = 0, cookie: RenderCookie? = nil
    ) throws(PDFError) -> Bitmap {
        let (bitmap, failure) = renderKeepingPixels(
            document, page: index, scale: scale, region: region,
            padding: padding, cookie: cookie)
        if let failure { throw failure }
        return bitmap
    }

    /// Like `render`, but returns the pixels also when rendering throws.
    static func renderKeepingPixels(
        _ document: PDFDocument, page index: Int, scale: Double, region: PixelBox,
        padding: Int = 0, cookie: RenderCookie? = nil
    ) -> (Bitmap, PDFError?) {
        var bitmap = Bitmap(width: region.width, height: region.height, padding: padding)
        let stride = bitmap.stride
        var failure: PDFError?
        bitmap.bytes.withUnsafeMutableBytes { raw in
            do throws(PDFError) {
                try document.render(
                    page: index, scale: scale, region: region, into: raw.baseAddress!, stride: stride,
                    cookie: cookie)
            } catch {
                failure = error
            }
        }
        return (bitmap, failure)
    }

    /// Renders the whole displayed page at `scale`.
    static func renderPage(
        _ document: PDFDocument, page index: Int, scale: Double,
        cookie: RenderCookie? = nil
    ) throws(PDFError) -> Bitmap {
        let size = try document.pageInfo(at: index).pixelSize(scale: scale)
        return try render(
            document, page: index, scale: scale,
            region: PixelBox(x: 0, y: 0, width: size.width, height: size.height), cookie: cookie)
    }

    /// (b, g, r, a) at (x, y).
    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let o = y * stride + x * 4
        return (bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3])
    }

    /// Pixels in `rect` whose red, green and blue are all below 128.
    func darkPixels(in rect: PixelBox) -> Int {
        var count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let (b, g, r, _) = pixel(x, y)
                if b < 128 && g < 128 && r < 128 { count += 1 }
            }
        }
        return count
    }

    var fullRect: PixelBox { PixelBox(x: 0, y: 0, width: width, height: height) }

    /// How many pixels differ from `other` (sizes must match; a size mismatch counts every pixel).
    /// Used instead of `==` so a failing test prints a number, not a megabyte of bytes.
    func differingPixels(from other: Bitmap) -> Int {
        guard width == other.width, height == other.height else {
            return max(width * height, other.width * other.height)
        }
        return zip(crop(fullRect).chunks4, other.crop(other.fullRect).chunks4).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// The pixels of `rect` only, row by row, without stride padding.
    func crop(_ rect: PixelBox) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.y..<(rect.y + rect.height) {
            let start = y * stride + rect.x * 4
            out.append(contentsOf: bytes[start..<(start + rect.width * 4)])
        }
        return out
    }
}

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-pdf-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

extension Array where Element == UInt8 {
    /// The array split into 4-byte pixels, each packed into a UInt32.
    var chunks4: [UInt32] {
        Swift.stride(from: 0, to: count - 3, by: 4).map {
            UInt32(self[$0]) | UInt32(self[$0 + 1]) << 8 | UInt32(self[$0 + 2]) << 16 | UInt32(self[$0 + 3]) << 24
        }
    }
}
