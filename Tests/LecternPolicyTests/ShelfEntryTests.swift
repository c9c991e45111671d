import Foundation
import LecternCore
import LecternPolicy
import Testing

/// Issue 31: `[[shelf]]` entries with a version of the document per language.
@Suite("[[shelf]] entries")
struct ShelfEntryTests {
    /// A directory with empty files for the entries to name.
    static let directory: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-shelf-\(UUID())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in ["a.pdf", "a-de.pdf", "b.pdf"] {
            _ = FileManager.default.createFile(atPath: url.appendingPathComponent(name).path, contents: Data())
        }
        return url.path
    }()

    func parse(_ text: String) throws(PolicyError) -> KioskConfiguration {
        try PolicyFile.parse(
            text, path: Self.directory + "/p.toml", over: KioskConfiguration(documentPath: "/srv/sample.pdf"))
    }

    static let twoEntries = """
        [[shelf]]
        title = "The harbour"
        documents = { en = "a.pdf", de = "a-de.pdf" }
        [[shelf]]
        document = "b.pdf"
        """

    @Test("each entry's version in the policy's language is on the shelf; titles and versions are kept")
    func versionsPerLanguage() throws {
        let d = Self.directory
        let english = try parse(Self.twoEntries)
        #expect(english.shelfPaths == ["\(d)/a.pdf", "\(d)/b.pdf"] && english.documentPath == "\(d)/a.pdf")
        let german = try parse("language = \"de\"\n" + Self.twoEntries)
        #expect(german.shelfPaths == ["\(d)/a-de.pdf", "\(d)/b.pdf"])
        #expect(
            german.shelfPaths(in: "fr") == ["\(d)/a-de.pdf", "\(d)/b.pdf"],
            "no French version: the policy's language's")
        #expect(german.versions(of: "\(d)/a.pdf") == ["en": "\(d)/a.pdf", "de": "\(d)/a-de.pdf"])
        #expect(german.shelfTitle(of: "\(d)/a-de.pdf") == "The harbour" && german.shelfTitle(of: "\(d)/b.pdf") == nil)
    }

    @Test(
        "a language Lectern does not ship, a missing file, an unknown key, and [[shelf]] beside documents are refused",
        arguments: [
            ("[[shelf]]\ndocuments = { xx = \"a.pdf\" }\n", "\"xx\" is not a language Lectern ships"),
            ("[[shelf]]\ndocument = \"nowhere.pdf\"\n", "no such document"),
            ("[[shelf]]\ndocument = \"a.pdf\"\ncolour = \"red\"\n", "unknown key colour"),
            (
                "documents = [\"a.pdf\", \"b.pdf\"]\n[[shelf]]\ndocument = \"a.pdf\"\n",
                "leave out document and documents"
            ),
        ])
    func refused(text: String, message: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.problems.contains { $0.description.contains(message) }, "\(error.problems)")
        }
    }
}
