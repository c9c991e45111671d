import Foundation
import LecternCore
import Testing

@testable import LecternPDF

@Suite struct PNGWriterTests {
    /// MuPDF's decoding of the file: its size and the RGB at (x, y).
    func sample(_ path: String, x: Int, y: Int) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let image = try PNGReader.read(path: path)
        let i = (y * image.width + x) * 3
        return (image.width, image.height, Array(image.rgb[i..<i + 3]))
    }

    @Test func writtenPNGReopensWithMuPDFAtTheRightSize() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = try PDFDocument(path: Fixture.text3Pages)
        let region = PixelBox(x: 0, y: 0, width: 321, height: 123)
        let bitmap = try Bitmap.render(document, page: 0, scale: 1, region: region, padding: 8)
        let path = directory.appendingPathComponent("frame.png").path
        try bitmap.bytes.withUnsafeBytes { raw in
            try PNGWriter.write(
                bgra: raw.baseAddress!, width: bitmap.width, height: bitmap.height, stride: bitmap.stride, to: path)
        }
        // Pixel (70, 120) is inside the "P" of "Page One"; (300, 10) is white paper.
        #expect(bitmap.pixel(70, 120).0 < 64)
        let dark = try sample(path, x: 70, y: 120)
        #expect(dark.width == 321 && dark.height == 123)
        #expect(dark.rgb.allSatisfy { $0 < 64 })
        let white = try sample(path, x: 300, y: 10)
        #expect(white.rgb == [255, 255, 255])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // Atomic replace: only the final file is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["frame.png"])
        // Writing again replaces it.
        try bitmap.bytes.withUnsafeBytes { raw in
            try PNGWriter.write(bgra: raw.baseAddress!, width: 100, height: 50, stride: bitmap.stride, to: path)
        }
        let second = try sample(path, x: 0, y: 0)
        #expect(second.width == 100 && second.height == 50)
    }

    @Test func missingDirectoryIsWriteFailed() throws {
        let pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        let path = "/nonexistent-lectern-dir/frame.png"
        let error = try #require(throws: PDFError.self) {
            try pixels.withUnsafeBytes { raw in
                try PNGWriter.write(bgra: raw.baseAddress!, width: 4, height: 4, stride: 16, to: path)
            }
        }
        #expect(error.kind == .writeFailed)
        #expect(error.message.hasPrefix("cannot write \(path): "))
    }
}
