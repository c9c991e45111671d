import Foundation
import LecternCore
import LecternPDF
import LecternTestSupport
import Testing

/// What the audit reads with MuPDF (`PDFDocument.documentFacts()`, `pageFacts(page:)`), on the
/// generated audit document (`AuditFixture`) and on fixtures that are repaired, encrypted or lie
/// about their page count.
@Suite("Audit facts")
struct AuditFactsTests {
    /// The audit document, written for the test `name` (tests run in parallel).
    static func auditDocument(_ name: String = #function) throws -> String {
        try AuditFixture.temporary("audit-facts", name)
    }

    @Test("a tagged document: its /Lang, not encrypted, not repaired, four pages claimed and found")
    func documentFacts() throws {
        let path = try Self.auditDocument()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let facts = try PDFDocument(path: path).documentFacts()
        #expect(
            facts
                == DocumentFacts(
                    isTagged: true, language: "en-GB", isEncrypted: false, wasRepaired: false, claimedPageCount: 4,
                    pageCount: 4))
    }

    @Test(
        "a scan has no text; the tagged page: the smallest text, a substituted font, a note, a field, a figure without /Alt"
    )
    func pageFacts() throws {
        let path = try Self.auditDocument()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let document = try PDFDocument(path: path)
        let scan = try document.pageFacts(page: AuditFixture.scanPage)
        #expect(scan.characterCount == 0 && scan.smallestTextSize == nil && scan.substitutedFonts.isEmpty)
        #expect(scan.size == Size(width: 595, height: 842))
        let tagged = try document.pageFacts(page: AuditFixture.taggedPage)
        #expect(tagged.characterCount > 30)
        #expect(abs((tagged.smallestTextSize ?? 0) - 6) < 0.01)
        #expect(tagged.substitutedFonts == ["Helvetica"])
        #expect(tagged.annotationCount == 1 && tagged.fieldCount == 1)
        #expect(tagged.figureCount == 2 && tagged.figuresWithoutAlt == 1)
        let text = try document.pageFacts(page: AuditFixture.textPage)
        #expect(abs((text.smallestTextSize ?? 0) - 12) < 0.01 && text.figureCount == 0)
    }

    @Test("a repaired file, an encrypted one, one whose root /Count lies, one untagged")
    func flaggedDocuments() throws {
        let repaired = try PDFDocument(path: Fixture.path("bad-xref.pdf")).documentFacts()
        #expect(repaired.wasRepaired && !repaired.isTagged && repaired.language == nil)
        let encrypted = try PDFDocument(path: Fixture.path("encrypted.pdf"), password: "lectern-user").documentFacts()
        #expect(encrypted.isEncrypted)
        let lying = try PDFDocument(path: Fixture.path("count-root-lie.pdf")).documentFacts()
        #expect(lying.claimedPageCount != lying.pageCount)
    }
}
