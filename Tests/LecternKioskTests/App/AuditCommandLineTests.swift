import Foundation
import LecternTestSupport
import Testing

/// `lectern audit FILE…` run as a kiosk operator runs it: the real binary, its render workers,
/// its output read back.
@Suite("lectern audit")
struct AuditCommandLineTests {
    func run(_ arguments: [String]) throws -> (status: Int32?, output: String, error: String) {
        let process = try LecternProcess(arguments: ["audit"] + arguments, environment: [:])
        let status = process.waitForExit(timeout: .seconds(60))
        return (status, process.output, process.errorOutput)
    }

    static func document(_ name: String = #function) throws -> String {
        try AuditFixture.temporary("audit-cli", name)
    }

    @Test("--json: an object per document with its pages; a document that does not open: its error and status 1")
    func json() throws {
        let path = try Self.document()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run([
            "--json", "--screen", "540x960", "--width-mm", "67.5", "--budget-ms", "750", path, "/nonexistent/menu.pdf",
        ])
        #expect(result.status == 1)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
        let documents = try #require(parsed, "\(result.output)\n\(result.error)")
        #expect(documents.count == 2)
        let audit = documents[0]
        #expect(audit["path"] as? String == path)
        #expect(audit["tagged"] as? Bool == true && audit["language"] as? String == "en-GB")
        #expect(audit["pageCount"] as? Int == 4 && audit["claimedPageCount"] as? Int == 4)
        let pages = try #require(audit["pages"] as? [[String: Any]])
        #expect(pages.map { $0["page"] as? Int } == [1, 2, 3, 4])
        #expect(pages.map { $0["isSlow"] as? Bool } == [false, true, false, false])
        #expect(pages.map { $0["hasText"] as? Bool } == [false, false, true, true])
        #expect(pages[2]["figuresWithoutAlt"] as? Int == 1 && pages[2]["fields"] as? Int == 1)
        #expect(pages[2]["substitutedFonts"] as? [String] == ["Helvetica"])
        #expect((documents[1]["error"] as? String)?.contains("/nonexistent/menu.pdf") == true)
    }

    @Test("for a person: the document, then a line per finding")
    func human() throws {
        let path = try Self.document()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run(["--screen", "540x960", "--width-mm", "67.5", "--budget-ms", "750", path])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\(path): 4 pages, tagged, /Lang en-GB, audited in ") == true)
        #expect(lines.contains { $0.hasPrefix("  slow pages (over 750 ms at 540x960): page 2 (") })
        #expect(lines.contains("  figures without /Alt: 1 (page 3)"))
    }

    @Test("a bad screen size is a usage error")
    func usage() throws {
        let result = try run(["--screen", "wide", "a.pdf"])
        #expect(result.status == 64)
        #expect(result.error.contains("--screen"))
    }
}
