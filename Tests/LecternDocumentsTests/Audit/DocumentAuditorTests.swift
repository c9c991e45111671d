import Foundation
import LecternCore
import LecternPDF
import LecternRender
import LecternTestSupport
import Logging
import Testing

@testable import LecternDocuments

/// The document audit in a render worker of its own (`DocumentAuditor`), on the generated audit
/// document (`AuditFixture`: a scan, a slow page, a tagged page with a figure with /Alt and one
/// without, a text page).
@Suite("Document audit")
struct DocumentAuditorTests {
    /// A portrait screen 68 mm wide (a 540-pixel-wide panel of 8 pixels a millimetre), a budget
    /// the slow page overruns many times over and the others stay far under.
    static let screen = AuditScreen(width: 540, height: 960, widthMillimetres: 67.5)

    static func auditor(budget: Double = 750, deadline: Double = 60) throws -> DocumentAuditor {
        DocumentAuditor(
            settings: .init(
                executable: try LecternProcess.lecternExecutable().path, documentPath: "", password: nil, startPage: 0,
                channels: 1, addressSpace: 2048 << 20),
            screen: screen, budgetMilliseconds: budget, deadline: deadline, logger: Logger(label: "test"))
    }

    static func document(_ name: String = #function) throws -> String {
        try AuditFixture.temporary("audit", name)
    }

    @Test(
        "each page's findings: the scan, the slow page (its pixels handed over), the tagged page's figure without /Alt")
    func findings() throws {
        let path = try Self.document()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var handed: [TileKey] = []
        let report = try Self.auditor().audit(path: path) { key, image in
            handed.append(key)
            #expect(image.width == key.pageWidth && image.height == key.pageHeight)
        }
        #expect(report.error == nil)
        #expect(report.pages.map(\.page) == [1, 2, 3, 4])
        #expect(report.tagged && report.language == "en-GB" && !report.encrypted && !report.repairedXref)
        #expect(report.claimedPageCount == 4 && report.pageCount == 4)
        #expect(report.pagesWithoutText == [1, 2], "the scan, and the slow page (a pattern)")
        #expect(report.slowPages == [2], "\(report.pages.map { $0.renderMilliseconds ?? -1 })")
        #expect(report.pages.allSatisfy { $0.renderMilliseconds != nil && $0.renderFailure == nil })
        // The slow page fitted to 540 x 960: A4 is 540 x 764 there.
        #expect(handed == [TileKey(page: 1, pageWidth: 540, pageHeight: 764, kind: .preview)])
        let tagged = report.pages[2]
        #expect(tagged.figures == 2 && tagged.figuresWithoutAlt == 1 && report.figuresWithoutAlt == 1)
        #expect(tagged.annotations == 1 && tagged.fields == 1)
        #expect(tagged.substitutedFonts == ["Helvetica"] && report.substitutedFonts == ["Helvetica"])
        // 6 pt at 540/595 px a point and 0.125 mm a pixel.
        #expect(abs((tagged.smallestTextMillimetres ?? 0) - 6 * 540 / 595 * 0.125) < 0.01)
        #expect(report.smallestTextMillimetres == tagged.smallestTextMillimetres)
        let findings = report.findings
        #expect(findings.contains { $0.hasPrefix("slow pages (over 750 ms at 540x960): page 2 (") })
        #expect(findings.contains("without text (scans?): pages 1, 2"))
        #expect(findings.contains("figures without /Alt: 1 (page 3)"))
        #expect(findings.contains("fonts substituted (not embedded): Helvetica (pages 3, 4)"))
        #expect(findings.contains("smallest text: 0.7 mm on screen (6 pt, page 3)"))
        #expect(!findings.contains { $0.hasPrefix("not tagged") || $0.hasPrefix("no /Lang") })
    }

    @Test("a page that has not drawn by the deadline is slow and not drawn; the pages after it are audited")
    func deadline() throws {
        let path = try Self.document()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A cell of 0.01 points: minutes of drawing.
        try AuditFixture.write(to: path, slowStep: "0.01")
        let report = try Self.auditor(deadline: 0.5).audit(path: path)
        #expect(report.slowPages == [2])
        #expect(report.pages[1].renderMilliseconds == nil && report.pages[1].renderFailure != nil)
        #expect(report.pages[2].renderMilliseconds != nil && report.pages[3].renderMilliseconds != nil)
    }

    @Test("a sample of pages spread evenly, the first and the last among them")
    func sample() {
        #expect(DocumentAuditor.pages(of: 15_000, sample: 4) == [0, 4999, 9999, 14_999])
        #expect(DocumentAuditor.pages(of: 3, sample: 10) == [0, 1, 2])
        #expect(DocumentAuditor.pages(of: 3, sample: nil) == [0, 1, 2])
        #expect(DocumentAuditor.pages(of: 9, sample: 1) == [0])
    }

    @Test("a file that does not open is reported with why, and nothing else")
    func unopened() throws {
        let report = try Self.auditor().audit(path: "/nonexistent/menu.pdf")
        #expect(report.error?.contains("/nonexistent/menu.pdf") == true)
        #expect(report.pages.isEmpty && report.findings.count == 1)
    }
}
