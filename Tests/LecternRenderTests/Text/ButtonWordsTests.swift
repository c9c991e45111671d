import LecternCore
import LecternRender
import Logging
import Testing

/// The translations written on buttons fit their buttons, in every shipped language, at the
/// chrome's standard text size (a larger text size widens the buttons with it: `ChromeMetrics.scaled`).
@Suite("Button words")
struct ButtonWordsTests {
    @Test("every button's word fits its button in every language")
    func buttonWordsFit() throws {
        let directory = try Catalogs.compiled.get()
        #expect(GettextTranslator.install(catalogs: directory.path))
        let font = try #require(TextRenderer(pixelSize: ChromeMetrics.standard.textSize, logger: Logger(label: "test")))
        let title = Scene.Chrome.buttonBox(0).width
        let buttons: [(label: StaticString, width: Int)] = [
            ("Pages", title), ("Contents", title), ("Search", title),
            ("‹ Shelf", Scene.Chrome.backButton(width: 1280, height: 800).width),
            ("Close", Scene.ThumbnailSheet.closeButton(width: 1280, height: 800).width),
            ("Done", Scene.AnnotationBar.doneButton(width: 1280, height: 800).width),
            ("QR code", Int(Scene.TextSelection.qrButtonSize.width)),
            ("More time", Scene.bannerButtonWidth),
        ]
        var tooWide: [String] = []
        for code in try Catalogs.languages() {
            let language = try #require(Language.named(code))
            for button in buttons {
                let text = Translation.text(button.label, in: language)
                // 8 units of the button's colour at least on each side.
                if font.width(of: text) > button.width - 16 {
                    tooWide.append("\(code): \(text) (\(font.width(of: text)) of \(button.width - 16))")
                }
            }
        }
        // The language button: each language in its own name.
        for language in Language.shipped where font.width(of: language.name) > title - 16 {
            tooWide.append("language button: \(language.name)")
        }
        #expect(tooWide == [])
    }
}
