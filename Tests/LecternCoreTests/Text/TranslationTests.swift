import LecternCore
import Testing

/// How a translation's placeholders are filled, and numbers written, in each language.
@Suite("Translation")
struct TranslationTests {
    @Test("%s takes the arguments in order, %2$s by position, %% is a percent sign")
    func placeholders() {
        #expect(Translation.format("Page %s of %s", ["iv", "x"], in: .english) == "Page iv of x")
        #expect(Translation.format("%2$s — %1$s pages", [12, "menu.pdf"], in: .english) == "menu.pdf — 12 pages")
        #expect(Translation.format("Searching… · %s%%", [45], in: .english) == "Searching… · 45%")
        // A placeholder without its argument is dropped, not shown.
        #expect(Translation.format("%s and %s", ["one"], in: .english) == "one and ")
    }

    @Test("whole numbers are written in the language's digits and grouping")
    func numbers() {
        #expect(Language.english.number(15_000) == "15,000")
        #expect(Language.english.number(999) == "999")
        #expect(Language.german.number(1234) == "1.234")
        #expect(Language.french.number(1234) == "1\u{202F}234")
        #expect(Language.spanish.number(1234) == "1234")
        #expect(Language.spanish.number(12_345) == "12.345")
        #expect(Language.arabic.number(1234) == "١٬٢٣٤")
        #expect(Language.arabic.number(7) == "٧")
        #expect(Language.hebrew.number(1234) == "1,234")
        #expect(Translation.format("Page %s of %s", [3, 12], in: .arabic) == "Page ٣ of ١٢")
    }

    @Test("a page label's digits follow the language; its letters stay")
    func labels() {
        #expect(Language.arabic.label("A-12") == "A-١٢")
        #expect(Language.arabic.label("iv") == "iv")
        #expect(Language.german.label("12") == "12")
    }

    @Test("each shipped language is named in itself and says its direction")
    func shipped() {
        #expect(Language.shipped.map(\.code) == ["en", "de", "fr", "es", "ar", "he"])
        #expect(Language.named("ar")?.name == "العربية")
        #expect(Language.shipped.filter(\.isRightToLeft).map(\.code) == ["ar", "he"])
        #expect(Language.named("xx") == nil)
    }
}
