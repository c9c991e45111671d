import Foundation
import LecternCore
import LecternPDF
import LecternTestSupport
import Testing

/// Issue 4: a 15,000-page document (kiosk/make-text-pdf) opens, shows its first page and, after
/// a jump by typed page number, page 9,000. The committed pixels are compared with MuPDF's own
/// rendering of the same page at the same scale.
@Suite("A 15,000-page document")
struct LargeDocumentTests {
    @Test("a 15,000-page document shows its first page and, after a jump, page 9,000")
    func fifteenThousandPages() throws {
        let path = try LargeDocument.path()
        let pdf = try PDFDocument(path: path)
        #expect(pdf.pageCount == 15000)
        // The page compared with MuPDF's whole: no accessibility button over its corner.
        let lectern = try KioskHarness([path, "--no-accessibility-button"], width: 1280, height: 720)
        #expect(lectern.settle(timeout: .seconds(30)))

        // Page 1: its page area matches MuPDF's rendering at the fitted scale.
        let firstCommit = lectern.lastCommit
        let first = try #require(firstCommit)
        let box = try #require(PageArea.find(in: first), "a page on screen")
        // The page's pixel frame is the fitted one (within rounding), and Lectern draws the page
        // to fill it: at the scale of the frame's width (492 / 595 here, not 696 / 842: at the
        // latter MuPDF's text lands a fraction of a pixel off, a mean difference of about 3).
        let fitted = try PageArea.fitted(pdf, page: 0, window: (1280, 720))
        #expect(PageArea.close(box, fitted.box), "page 1 is at \(box), fitted would be \(fitted.box)")
        let reference1 = try PageArea.reference(pdf, page: 0, box: box)
        let firstDiff = PageArea.meanDifference(first, box: box, reference: reference1)
        #expect(firstDiff < 2, "page 1 on screen matches MuPDF's page 1: mean difference \(firstDiff), box \(box)")
        #expect(lectern.dominantPage == 1)

        #expect(lectern.wait(timeout: .seconds(60)) { lectern.status.pageSizesKnown }, "every page's size was read")
        #expect(lectern.status.document == .open(pageCount: 15000))
        #expect(lectern.enableKeyboard())
        lectern.type(page: 9000)
        #expect(lectern.waitForPage(9000), "view state: \(lectern.viewState ?? "none")")

        // The pages differ (another body text, chapter head and number), so the comparison can fail.
        let reference9000 = try PageArea.reference(pdf, page: 8999, box: box)
        let between = PageArea.meanDifference(reference1, reference9000)
        #expect(between > 10, "MuPDF's pages 1 and 9000 differ clearly: mean difference \(between)")

        // Wait until the page is drawn (tiles arrive after the jump), then compare.
        var checkedCommit = 0
        var diff9000 = Double.infinity
        _ = lectern.wait(timeout: .seconds(20)) {
            guard let commit = lectern.lastCommit, commit.sequence != checkedCommit else { return false }
            checkedCommit = commit.sequence
            guard let area = PageArea.find(in: commit), area == box else { return false }
            diff9000 = PageArea.meanDifference(commit, box: box, reference: reference9000)
            return diff9000 < 2
        }
        let lastCommit = lectern.lastCommit
        let shown = try #require(lastCommit)
        #expect(PageArea.find(in: shown) == box, "page 9000 is fitted like page 1 (same size)")
        #expect(diff9000 < 2, "page 9000 on screen matches MuPDF's page 9000: mean difference \(diff9000)")
        let against1 = PageArea.meanDifference(shown, box: box, reference: reference1)
        #expect(against1 > 10, "and not page 1: mean difference \(against1)")
        #expect(lectern.dominantPage == 9000)
        try lectern.stop()
    }
}

/// kiosk/make-text-pdf's 15,000 pages, made once and kept in a temporary directory keyed by the
/// generator's modification time, so later runs reuse it.
enum LargeDocument {
    static func path() throws -> String { try cached.get() }

    private static let cached = Result { () throws -> String in
        let script = LecternHarness.repository.appendingPathComponent("kiosk/make-text-pdf")
        let javascript = LecternHarness.repository.appendingPathComponent("kiosk/make-text-pdf.js")
        func modified(_ url: URL) throws -> Int {
            let date = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
            return Int(date?.timeIntervalSince1970 ?? 0)
        }
        let key = "\(try modified(script))-\(try modified(javascript))"
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-kiosk-tests-cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let output = cache.appendingPathComponent("text-15000-\(key).pdf")
        if FileManager.default.fileExists(atPath: output.path) { return output.path }
        let process = Process()
        process.executableURL = script
        process.arguments = [output.path, "15000"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LargeDocumentError(message: "kiosk/make-text-pdf failed with status \(process.terminationStatus)")
        }
        return output.path
    }
}

struct LargeDocumentError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The page on screen: where it is in a commit, and how it compares with MuPDF's rendering.
enum PageArea {
    struct Box: Equatable, CustomStringConvertible {
        var x: Int, y: Int, width: Int, height: Int
        var description: String { "\(width)x\(height) at (\(x), \(y))" }
    }

    /// The bounding box of the pixels clearly lighter than the background (the top-left pixel):
    /// a text page's edges are white, while its drop shadow is darker than the background.
    static func find(in commit: Commit) -> Box? {
        let background = Commit.luminance(commit.pixel(x: 0, y: 0))
        var minX = commit.width, minY = commit.height, maxX = -1, maxY = -1
        for y in 0..<commit.height {
            for x in 0..<commit.width where Commit.luminance(commit.pixels[y * commit.width + x]) > background + 40 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= minX, maxY >= minY else { return nil }
        return Box(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// Where the default layout puts `page`: fitted into the window less a 12-px margin on each
    /// side, centred.
    static func fitted(_ pdf: PDFDocument, page: Int, window: (Int, Int)) throws -> (scale: Double, box: Box) {
        let size = try pdf.pageInfo(at: page).displaySize
        let scale = min(Double(window.0 - 24) / size.width, Double(window.1 - 24) / size.height)
        let width = Int((size.width * scale).rounded()), height = Int((size.height * scale).rounded())
        let box = Box(
            x: Int((Double(window.0 - width) / 2).rounded()), y: Int((Double(window.1 - height) / 2).rounded()),
            width: width, height: height)
        return (scale, box)
    }

    /// Whether two boxes agree within `tolerance` pixels on each edge.
    static func close(_ a: Box, _ b: Box, tolerance: Int = 1) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
            && abs(a.x + a.width - b.x - b.width) <= tolerance && abs(a.y + a.height - b.y - b.height) <= tolerance
    }

    /// MuPDF's rendering (BGRA, `box.width` x `box.height`) of `page` drawn to fill `box`'s
    /// width, as Lectern draws a page into its whole-pixel frame.
    static func reference(_ pdf: PDFDocument, page: Int, box: Box) throws -> [UInt8] {
        let size = try pdf.pageInfo(at: page).displaySize
        return try reference(pdf, page: page, scale: Double(box.width) / size.width, box: box)
    }

    static func reference(_ pdf: PDFDocument, page: Int, scale: Double, box: Box) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: box.width * box.height * 4)
        var failure: PDFError?
        bytes.withUnsafeMutableBytes { raw in
            do throws(PDFError) {
                try pdf.render(
                    page: page, scale: scale, region: PixelBox(x: 0, y: 0, width: box.width, height: box.height),
                    into: raw.baseAddress!, stride: box.width * 4)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// The mean absolute difference per colour channel between the commit's `box` and `reference`.
    static func meanDifference(_ commit: Commit, box: Box, reference: [UInt8]) -> Double {
        var total = 0
        for y in 0..<box.height {
            for x in 0..<box.width {
                let argb = commit.pixels[(box.y + y) * commit.width + box.x + x]
                let o = (y * box.width + x) * 4
                total += abs(Int(argb & 0xFF) - Int(reference[o]))
                total += abs(Int(argb >> 8 & 0xFF) - Int(reference[o + 1]))
                total += abs(Int(argb >> 16 & 0xFF) - Int(reference[o + 2]))
            }
        }
        return Double(total) / Double(box.width * box.height * 3)
    }

    /// The mean absolute difference per colour channel between two BGRA images of one size.
    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var total = 0
        for i in stride(from: 0, to: a.count, by: 4) {
            for c in 0..<3 { total += abs(Int(a[i + c]) - Int(b[i + c])) }
        }
        return Double(total) / Double(a.count / 4 * 3)
    }
}
