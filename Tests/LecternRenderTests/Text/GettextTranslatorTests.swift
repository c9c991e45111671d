import CGettext
import Foundation
import LecternCore
import LecternRender
import Synchronization
import Testing

/// glibc's gettext with the language chosen per lookup (Sources/CGettext), on catalogs msgfmt
/// compiled: a domain of the test's own, so that the shipped catalogs' binding is left alone.
@Suite("Gettext per language")
struct GettextTranslatorTests {
    static let domain = "lectern-gettext-test"

    /// Two small catalogs, German and Arabic (Arabic's six plural forms), compiled by msgfmt.
    static let directory: Result<String, Catalogs.CompileError> = {
        let catalogs = [
            "de": """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

            msgid "Close"
            msgstr "Schließen"

            #, c-format
            msgid "%s match"
            msgid_plural "%s matches"
            msgstr[0] "%s Treffer"
            msgstr[1] "%s Treffer insgesamt"
            """,
            "ar": """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;\\n"

            msgid "Close"
            msgstr "إغلاق"

            #, c-format
            msgid "%s match"
            msgid_plural "%s matches"
            msgstr[0] "لا نتائج"
            msgstr[1] "نتيجة واحدة"
            msgstr[2] "نتيجتان"
            msgstr[3] "%s نتائج"
            msgstr[4] "%s نتيجة"
            msgstr[5] "%s نتيجة"
            """,
        ]
        do {
            let directory = try Catalogs.temporaryDirectory("gettext")
            for (code, text) in catalogs {
                let folder = directory.appendingPathComponent("\(code)/LC_MESSAGES")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let source = directory.appendingPathComponent("\(code).po")
                try text.write(to: source, atomically: true, encoding: .utf8)
                let result = try Catalogs.run(
                    "msgfmt", ["--check", "-o", folder.appendingPathComponent("\(domain).mo").path, source.path])
                guard result.status == 0 else { return .failure(.init(output: result.output)) }
            }
            guard CGettext_bind(domain, directory.path) == 0 else { return .failure(.init(output: "bind failed")) }
            return .success(directory.path)
        } catch {
            return .failure(.init(output: "\(error)"))
        }
    }()

    func text(_ msgid: String, _ language: String) -> String {
        String(cString: CGettext_text(Self.domain, language, msgid))
    }

    func plural(_ count: UInt, _ language: String) -> String {
        String(cString: CGettext_plural(Self.domain, language, "%s match", "%s matches", count))
    }

    @Test("each lookup is in the language it names, one after the other")
    func languagePerLookup() throws {
        _ = try Self.directory.get()
        #expect(text("Close", "de") == "Schließen")
        #expect(text("Close", "ar") == "إغلاق")
        #expect(text("Close", "en") == "Close")
        #expect(text("Close", "de") == "Schließen")
        #expect(text("Not in the catalog", "de") == "Not in the catalog")
    }

    @Test("plural forms follow each catalog's Plural-Forms")
    func pluralForms() throws {
        _ = try Self.directory.get()
        #expect(plural(1, "de") == "%s Treffer")
        #expect(plural(5, "de") == "%s Treffer insgesamt")
        #expect(
            [0, 1, 2, 3, 11, 100].map { plural($0, "ar") } == [
                "لا نتائج", "نتيجة واحدة", "نتيجتان", "%s نتائج", "%s نتيجة", "%s نتيجة",
            ])
        #expect(plural(1, "en") == "%s match")
        #expect(plural(2, "en") == "%s matches")
    }

    @Test("threads looking up in different languages at once each get their own")
    func threads() async throws {
        _ = try Self.directory.get()
        let wrong = await withTaskGroup(of: Int.self) { group in
            for (language, expected) in [("de", "Schließen"), ("ar", "إغلاق"), ("en", "Close")] {
                group.addTask {
                    var wrong = 0
                    for _ in 0..<2000 where String(cString: CGettext_text(Self.domain, language, "Close")) != expected {
                        wrong += 1
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    @Test("the language in force is each thread's own")
    func languagePerThread() {
        GettextTranslator.install(catalogs: nil)
        let translator = GettextTranslator.shared
        translator.language = .german
        defer { translator.language = .english }
        let seen = Mutex<Language?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            seen.withLock { $0 = translator.language }
            translator.language = .arabic
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(seen.withLock { $0 } == .english)
        #expect(translator.language == .german)
    }
}
