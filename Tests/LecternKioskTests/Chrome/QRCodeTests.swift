import Foundation
import LecternCore
import LecternPDF
import LecternTestSupport
import Testing

/// A tap on a web link shows its address and a QR code that a real decoder (zbarimg, Debian's
/// zbar-tools) reads back as the link; the next touch or the timeout takes it away (issue 14).
@Suite("QR codes for web links", .serialized)
struct QRCodeTests {
    /// What zbarimg decodes from the last commit ("" when it finds no code).
    func decoded(_ lectern: KioskHarness, _ name: String) throws -> String {
        let path = try #require(lectern.saveLastCommit(name))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "-q", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a web link's QR code decodes to the link; a touch takes it away; so does the timeout")
    func qrCodeDecodes() throws {
        let sample = LecternHarness.repository.appendingPathComponent("Sources/lectern/Resources/sample.pdf").path
        let pdf = try PDFDocument(path: sample)
        let web = try #require(try pdf.links(page: 5).first { $0.target == .uri("https://mupdf.com") })
        let point = TouchTests.onScreen((web.rect.minX + web.rect.maxX) / 2, (web.rect.minY + web.rect.maxY) / 2)
        let lectern = try KioskHarness([sample, "--page", "6"])
        #expect(lectern.settle())
        #expect(try decoded(lectern, "qr-before") == "", "no code before the tap")
        lectern.tap(x: point.x, y: point.y)
        #expect(lectern.settle())
        #expect(try decoded(lectern, "qr-shown") == "https://mupdf.com", "zbarimg reads the link back")
        // A tap in the right edge zone takes it away, and only that (no page turn under the card).
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.settle())
        #expect(try decoded(lectern, "qr-touched") == "", "the next touch takes it away")
        #expect(lectern.status.notice == nil)
        #expect(lectern.dominantPage == 6, "the touch that closed the card turned no page")

        lectern.tap(x: point.x, y: point.y)
        lectern.advance(by: 29)
        #expect(try decoded(lectern, "qr-29s") == "https://mupdf.com", "still there after 29 s")
        lectern.advance(by: 1.5)
        #expect(try decoded(lectern, "qr-31s") == "", "gone after 30 s (qr.seconds)")
        try lectern.stop()
    }
}
