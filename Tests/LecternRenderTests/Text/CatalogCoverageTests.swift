import Foundation
import LecternCore
import LecternRender
import Testing

/// Every string of the chrome is in the template (kiosk/po/lectern.pot) and translated in every catalog
/// that ships (kiosk/po/LINGUAS); the compiled catalogs give those translations through gettext.
@Suite("Catalog coverage")
struct CatalogCoverageTests {
    static func key(_ entry: POFile.Entry) -> String { entry.plural.map { "\(entry.msgid) | \($0)" } ?? entry.msgid }

    @Test("kiosk/po/lectern.pot holds every tr/trn msgid of the sources, and no other (kiosk/po/update makes it)")
    func templateIsCurrent() throws {
        let directory = try Catalogs.temporaryDirectory("pot")
        let extracted = directory.appendingPathComponent("lectern.pot")
        let result = try Catalogs.run(Catalogs.po.appendingPathComponent("update").path, ["--pot", extracted.path])
        try #require(result.status == 0, "kiosk/po/update --pot failed: \(result.output)")
        let sources = Set(try POFile(contentsOf: extracted).entries.map(Self.key))
        let committed = Set(
            try POFile(contentsOf: Catalogs.po.appendingPathComponent("lectern.pot")).entries.map(Self.key))
        #expect(
            sources.subtracting(committed).sorted() == [],
            "in the sources but not in kiosk/po/lectern.pot: run kiosk/po/update and translate them")
        #expect(
            committed.subtracting(sources).sorted() == [],
            "in kiosk/po/lectern.pot but no longer in the sources: run kiosk/po/update")
    }

    @Test("every shipped catalog translates every msgid, with as many plural forms as its Plural-Forms says")
    func everyCatalogComplete() throws {
        let template = try POFile(contentsOf: Catalogs.po.appendingPathComponent("lectern.pot"))
        var missing: [String] = []
        for code in try Catalogs.languages() {
            let catalog = try POFile(contentsOf: Catalogs.po.appendingPathComponent("\(code).po"))
            let forms = catalog.header.firstMatch(of: /nplurals=\s*(\d+)/).flatMap { Int($0.1) }
            #expect(forms != nil, "kiosk/po/\(code).po has no Plural-Forms header")
            #expect(
                catalog.header.contains("Language: \(code)\n"), "kiosk/po/\(code).po's header names another language")
            let translated = Dictionary(
                catalog.entries.map { (Self.key($0), $0) }, uniquingKeysWith: { first, _ in first })
            for entry in template.entries {
                guard let found = translated[Self.key(entry)], found.isTranslated,
                    entry.plural == nil || found.translations.count == forms
                else {
                    missing.append("\(code): \(Self.key(entry))")
                    continue
                }
            }
        }
        #expect(missing == [], "untranslated, fuzzy or with the wrong number of plural forms (\(missing.count))")
    }

    @Test("the compiled catalogs give each translation through gettext, in each language")
    func lookupsGiveTheCatalogs() throws {
        let directory = try Catalogs.compiled.get()
        #expect(GettextTranslator.install(catalogs: directory.path))
        let translator = Translation.translator
        for code in try Catalogs.languages() {
            let language = try #require(
                Language.named(code), "kiosk/po/LINGUAS lists \(code), which Language does not ship")
            let catalog = try POFile(contentsOf: Catalogs.po.appendingPathComponent("\(code).po"))
            var wrong: [String] = []
            for entry in catalog.entries where entry.isTranslated {
                let found =
                    entry.plural.map { translator.text(entry.msgid, $0, count: 1, in: language) }
                    ?? translator.text(entry.msgid, in: language)
                let expected = entry.plural == nil ? entry.translations[0] : entry.translations[code == "ar" ? 1 : 0]
                if found != expected { wrong.append("\(entry.msgid) gave \(found)") }
            }
            #expect(wrong == [], "\(code)")
        }
    }
}
