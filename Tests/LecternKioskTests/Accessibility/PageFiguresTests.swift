import Foundation
import LecternCore
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// A tagged page's figures for a visitor who cannot see them, with real keys: speech says each
/// figure's /Alt where it falls in the reading order, and the keypad focus stops on it; a span's
/// /ActualText ("kilometres") is said in place of its glyphs ("km"); the word drawn on the first
/// figure ("Entrance": its /Alt says what it shows) and the running foot (an /Artifact) are not said.
/// Tests/Fixtures/tagged.pdf (make-structure-fixtures): a figure with /Alt between the first
/// and second paragraphs, a figure without /Alt before the last one, and an untagged image.
@Suite("Figures of tagged pages")
struct PageFiguresTests {
    static let tagged = LecternHarness.fixture("tagged.pdf")
    /// The page as it is read: its sentences, the figures among them; the untagged image and the
    /// running foot (artifacts) say nothing.
    static let page = [
        "Museum guide", "The museum opens at nine.", "Figure: A map of the ground floor.",
        "The park is 2 kilometres away.", "Bienvenue au musee.", "Figure with no description.", "The shop sells maps.",
    ]

    static func open(speech: Bool) throws -> KioskHarness {
        let directory = try SpeechKeysTests.directory()
        let wav = directory.appendingPathComponent("speech.wav").path
        let lectern = try KioskHarness(
            [tagged] + (speech ? ["--speech-output", wav, "--speech-language", "en-us", "--speech-unpaced"] : []))
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        return lectern
    }

    @Test("F1 reads a figure's /Alt at its place among the page's sentences; a tagged figure without /Alt says so")
    func speechSaysTheAltText() throws {
        let lectern = try Self.open(speech: true)
        lectern.press(NarratorTests.f1)
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.queue.last == "End of the document." })
        let queue = lectern.status.speech.queue
        let start = try #require(queue.firstIndex(of: "Museum guide"), "\(queue)")
        #expect(Array(queue[start...]) == Self.page + ["End of the document."])
        try lectern.stop()
    }

    @Test("a tagged document whose catalog names no language is read in its structure tree's /Lang")
    func structureLanguage() throws {
        // tagged.pdf with its catalog's /Lang (en-GB) blanked out, byte for byte (the xref holds):
        // the page's outermost /Lang is the French paragraph's.
        let directory = try SpeechKeysTests.directory()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.tagged))
        let catalogLanguage = Data("/Lang (en-GB)".utf8)
        let range = try #require(bytes.range(of: catalogLanguage))
        bytes.replaceSubrange(range, with: Data(repeating: 0x20, count: catalogLanguage.count))
        let path = directory.appendingPathComponent("no-catalog-lang.pdf").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let lectern = try KioskHarness(
            [path, "--speech-output", directory.appendingPathComponent("speech.wav").path, "--speech-unpaced"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(NarratorTests.f1)
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.queue.last == "End of the document." })
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.voice?.hasSuffix("/fr") == true })
        try lectern.stop()

        let english = try Self.open(speech: true)
        english.press(NarratorTests.f1)
        #expect(NarratorTests.turn(english) { english.status.speech.queue.last == "End of the document." })
        #expect(NarratorTests.turn(english) { !english.status.speech.isSpeaking })
        #expect(english.status.speech.voice?.hasSuffix("en-US") == true, "the catalog's /Lang wins")
        try english.stop()
    }

    @Test("the paragraph with /Lang fr-FR is said in espeak-ng's French voice, the rest in the English one")
    func elementLanguage() throws {
        let directory = try SpeechKeysTests.directory()
        let lectern = try KioskHarness(
            [Self.tagged, "--speech-output", directory.appendingPathComponent("speech.wav").path])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(NarratorTests.f1)
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.sentence == "Bienvenue au musee." })
        #expect(lectern.status.speech.voice?.hasSuffix("/fr") == true, "\(lectern.status.speech.voice ?? "none")")
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.sentence == "Figure with no description." })
        #expect(
            lectern.status.speech.voice?.hasSuffix("/en") == true,
            "back to the document's: \(lectern.status.speech.voice ?? "none")")
        lectern.press(LecternHarness.Key.escape)
        try lectern.stop()
    }

    @Test("keypad 2 stops on the figures in reading order and says their /Alt")
    func keypadReachesFigures() throws {
        let lectern = try Self.open(speech: true)
        var labels: [String] = []
        var kinds: [String] = []
        for _ in 0..<Self.page.count {
            lectern.press(KeypadFocusTests.Pad.down)
            lectern.settle()
            labels.append(lectern.status.focus.label ?? "none")
            kinds.append(lectern.status.focus.kind ?? "none")
        }
        #expect(labels == Self.page)
        #expect(kinds[2] == "figure" && kinds[5] == "figure", "\(kinds)")
        // With speech on (the keypad turned it on), the figure reached is what is said.
        lectern.press(KeypadFocusTests.Pad.up)
        lectern.press(KeypadFocusTests.Pad.up)
        lectern.press(KeypadFocusTests.Pad.up)
        lectern.press(KeypadFocusTests.Pad.up)
        #expect(lectern.status.focus.label == "Figure: A map of the ground floor.")
        #expect(lectern.status.speech.queue.count == 1, "the item alone: \(lectern.status.speech.queue)")
        #expect(lectern.status.speech.queue.first?.contains("Figure: A map of the ground floor.") == true)
        try lectern.stop()
    }
}
