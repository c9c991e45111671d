import Foundation
import LecternTestSupport
import Testing

/// The audit of each document the kiosk opens or reloads (`DocumentAudits`), on the generated
/// audit document: its findings in the status (as `lectern ctl status` reports them) and in the
/// metrics file, and again for a new version.
@Suite("Document audit in the kiosk", .serialized)
struct DocumentAuditsTests {
    /// A directory with the audit document and a policy naming a metrics file.
    final class AuditDirectory {
        let url: URL
        var document: String { url.appendingPathComponent("audit.pdf").path }
        var metrics: MetricsTests.MetricsDirectory

        init() throws {
            metrics = try MetricsTests.MetricsDirectory()
            url = metrics.url
            try AuditFixture.write(to: document)
        }
    }

    @Test(
        "a document opened is audited beside the reader: the slow page, the scan, a figure without /Alt; a new version is audited again"
    )
    func auditedOnOpenAndReload() throws {
        let directory = try AuditDirectory()
        let lectern = try KioskHarness([
            directory.document, "--config", directory.metrics.policy, "--audit-pages", "10", "--audit-budget-ms", "750",
        ])
        #expect(lectern.settle())
        #expect(
            lectern.wait(timeout: .seconds(60)) { lectern.status.audit.map { !$0.isRunning } == true },
            "\(String(describing: lectern.status.audit))")
        let audit = try #require(lectern.status.audit)
        #expect(audit.document == directory.document && audit.pagesAudited == 4)
        #expect(audit.slowPages == [2], "\(audit.findings)")
        #expect(audit.pagesWithoutText == [1, 2] && audit.figuresWithoutAlt == 1)
        #expect(audit.tagged && audit.language == "en-GB" && audit.substitutedFonts == ["Helvetica"])
        #expect(audit.findings.contains("figures without /Alt: 1 (page 3)"))

        lectern.advance(by: 15.5)
        #expect(lectern.wait { lectern.status.metricsWritten >= 1 })
        let samples = try #require(directory.metrics.samples)
        #expect(samples["lectern_audits_total"] == 1, "\(samples)")
        #expect(samples["lectern_audit_pages"] == 4 && samples["lectern_audit_slow_pages"] == 1)
        #expect(samples["lectern_audit_pages_without_text"] == 2 && samples["lectern_audit_figures_without_alt"] == 1)
        #expect(samples["lectern_audit_substituted_fonts"] == 1)

        // A new version, renamed over it: audited again.
        let temporary = directory.url.appendingPathComponent(".audit.pdf.new").path
        try AuditFixture.write(to: temporary, slowStep: "4")
        #expect(rename(temporary, directory.document) == 0)
        #expect(lectern.wait { lectern.status.hasPendingFileChanges })
        lectern.advance(by: 0.1)
        #expect(lectern.settle())
        #expect(lectern.status.documentReloads == 1)
        #expect(
            lectern.wait(timeout: .seconds(60)) {
                lectern.status.audit.map { !$0.isRunning && $0.slowPages.isEmpty } == true
            }, "the new version has no slow page: \(String(describing: lectern.status.audit))")
        try lectern.stop()
    }

    @Test("a slow page, once audited, is shown without a render: taken from the pages kept in the state directory")
    func slowPageShownWithoutRender() throws {
        let directory = try AuditDirectory()
        // A deadline the slow page cannot overrun, even beside the other tests.
        let lectern = try KioskHarness([
            directory.document, "--page", "4", "--audit-pages", "10", "--audit-budget-ms", "750", "--render-deadline",
            "120",
        ])
        #expect(lectern.settle())
        #expect(lectern.wait(timeout: .seconds(120)) { lectern.status.audit.map { !$0.isRunning } == true })
        #expect(lectern.status.audit?.slowPages == [2])
        #expect(!lectern.status.pagesRequested.contains(1), "page 2 was not asked for before")
        lectern.tap(x: 40, y: 360)
        #expect(lectern.waitForPage(3))
        lectern.tap(x: 40, y: 360)
        #expect(lectern.waitForPage(2))
        #expect(lectern.status.pagesOnScreen.first { $0.page == 1 }?.isSharp == true, "shown sharp")
        #expect(
            !lectern.status.pagesRequested.contains(1),
            "the render worker was never asked for page 2: \(lectern.status.pagesRequested.sorted())")
        #expect(lectern.status.prerenderedPagesServed >= 1)
        try lectern.stop()
    }
}
