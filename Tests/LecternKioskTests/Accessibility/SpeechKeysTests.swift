import Foundation
import Glibc
import LecternCore
import LecternLinux
import SystemPackage
import Testing

@testable import LecternKiosk

/// Starting speech without sight and hearing it privately, with real `wl_keyboard` events: the
/// keypad's 5 held for a second, the volume keys, and headphones plugged into the jack (a pipe
/// carrying the jack device's events in place of the device).
@Suite("Speech: the hold, repeat and volume keys, headphones, and what the screen tells")
struct SpeechKeysTests {
    typealias Pad = KeypadFocusTests.Pad
    static let volumeUp: UInt32 = 115
    static let volumeDown: UInt32 = 114
    static let orientation = ["Visiting the museum.", "Page 1 of 2.", "Press F1 for help."]

    /// A fresh directory for `speaker.wav` and `phones.wav`.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-speech-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("keypad 5 pressed selects (the first item is said); held for a second it starts reading the page")
    func holdFiveStartsReading() throws {
        let wav = try Self.directory().appendingPathComponent("speech.wav").path
        let lectern = try KioskHarness(
            [NarratorTests.columns, "--speech-output", wav, "--speech-unpaced", "--speech-language", "en-us"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(Pad.select)
        #expect(lectern.status.focus.isShown)
        #expect(lectern.status.speech.queue.count == 1, "a press says the item: \(lectern.status.speech.queue)")
        lectern.compositor.keyboardKey(Pad.select, pressed: true)
        lectern.advanceWithoutSettling(by: 0.9)
        #expect(lectern.status.speech.queue.count == 1, "not yet a second: \(lectern.status.speech.queue)")
        // (The repeats are stamped press + delay + n / rate; a frame-stepped clock fires them late.)
        lectern.advanceWithoutSettling(by: 0.4)
        lectern.compositor.keyboardKey(Pad.select, pressed: false)
        lectern.advanceWithoutSettling(by: 0.01)
        #expect(
            Array(lectern.status.speech.queue.prefix(3)) == Self.orientation,
            "held: the orientation, then the page: \(lectern.status.speech.queue)")
        #expect(lectern.status.speech.queue.contains("The museum opens at nine."))
        #expect(
            lectern.status.focus.label == "Visiting the city museum today",
            "the repeats of the held key did not select again and again: \(lectern.status.focus)")
        try lectern.stop()
    }

    @Test("Escape stops a page being read even while the focus ring shows; the next Escape is the focus's Back")
    func escapeStopsReadingFirst() throws {
        let wav = try Self.directory().appendingPathComponent("speech.wav").path
        let lectern = try KioskHarness([NarratorTests.columns, "--speech-output", wav, "--speech-language", "en-us"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(Pad.down)
        #expect(lectern.status.focus.isShown)
        lectern.press(NarratorTests.f1)
        #expect(Array(lectern.status.speech.queue.prefix(3)) == Self.orientation)
        lectern.press(LecternHarness.Key.escape)
        #expect(!lectern.status.speech.isOn, "Escape stopped reading")
        #expect(lectern.status.focus.isShown)
        lectern.press(LecternHarness.Key.escape)
        #expect(
            lectern.status.focus.lastSpoken?.hasSuffix("This is the document: there is nothing to go back to.") == true)
        try lectern.stop()
    }

    @Test("the volume keys make speech louder and softer and say the level; the idle reset puts it back")
    func volumeKeys() throws {
        let wav = try Self.directory().appendingPathComponent("speech.wav").path
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(NarratorTests.columns)\"\n[idle]\nreset = 30\ncountdown = 0\n[accessibility]\n"
                + "idle-factor = 1\n[speech]\noutput = \"\(wav)\"\nlanguage = \"en-us\"\nvolume = 100\n")
        let lectern = try KioskHarness(["--config", policy.path, "--speech-unpaced"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(Self.volumeUp)
        #expect(lectern.status.speech.volume == 120)
        #expect(lectern.status.speech.queue == ["Volume 6 of 10."])
        lectern.press(Self.volumeDown)
        lectern.press(Self.volumeDown)
        lectern.press(Self.volumeDown)
        #expect(lectern.status.speech.volume == 60)
        #expect(lectern.status.speech.queue == ["Volume 3 of 10."])
        #expect(NarratorTests.turn(lectern) { !lectern.status.speech.isSpeaking })
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline + 0.5 - lectern.clock.now)
        #expect(!lectern.status.speech.isOn, "the reset stops speech")
        #expect(lectern.status.speech.volume == 100, "and puts the operator's volume back")
        try lectern.stop()
    }

    @Test("headphones plugged in start reading into them alone and let a field's value be said; pulled out, it stops")
    func headphones() throws {
        let directory = try Self.directory()
        let speaker = directory.appendingPathComponent("speaker.wav").path
        let phones = directory.appendingPathComponent("phones.wav").path
        let document = directory.appendingPathComponent("form.pdf").path
        try FileManager.default.copyItem(atPath: AnnotationsOnScreenTests.fixture, toPath: document)
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(document)\"\n[speech]\noutput = \"\(speaker)\"\nheadphone-output = \"\(phones)\"\n")
        let (jackRead, jackWrite) = try FileDescriptor.pipe()
        defer { try? jackWrite.close() }
        _ = fcntl(jackRead.rawValue, F_SETFL, O_NONBLOCK)
        let lectern = try KioskHarness(
            ["--config", policy.path, "--speech-unpaced"],
            headphones: { HeadphoneJack(devices: [jackRead], loop: $0) })
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        #expect(!lectern.status.speech.headphonesIn)

        func plug(_ inserted: Bool) throws {
            _ = try HeadphoneJack.event(inserted: inserted).withUnsafeBytes { try jackWrite.write($0) }
            lectern.advanceWithoutSettling(by: 0.05)
        }
        try plug(true)
        #expect(lectern.status.speech.headphonesIn)
        #expect(lectern.status.speech.isOn, "plugging in starts reading")
        #expect(lectern.status.speech.output == phones)
        #expect(NarratorTests.turn(lectern) { Self.size(phones) > 44 }, "the headphones hear it")
        for _ in 0..<30 where lectern.status.focus.kind != "field" { lectern.press(Pad.down) }
        #expect(lectern.status.focus.label == "name, text field, filled in: Ada", "the value, into the headphones")
        #expect(lectern.status.speech.queue == ["name, text field, filled in: Ada"])
        #expect(NarratorTests.turn(lectern) { !lectern.status.speech.isSpeaking })
        #expect(Self.size(speaker) <= 44, "nothing went to the speaker: \(Self.size(speaker)) bytes")

        try plug(false)
        #expect(!lectern.status.speech.headphonesIn)
        #expect(!lectern.status.speech.isOn, "pulling them out stops it")
        lectern.press(Pad.up)
        lectern.press(Pad.down)
        #expect(lectern.status.focus.label == "name, text field, filled in (headphones say what)")
        #expect(lectern.status.speech.output == speaker)
        try lectern.stop()
    }

    @Test("the key with the dot says the sentence being said again, from its start, and reading goes on")
    func repeatSentence() throws {
        let (lectern, _) = try NarratorTests.reader(page: 2, paced: true)
        lectern.press(NarratorTests.f1)
        let sentence = "The museum opens at nine in the morning."
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.sentence == sentence })
        lectern.press(83)  // the keypad's decimal key (KP_Delete with Num Lock off)
        #expect(lectern.status.speech.queue.first == sentence, "\(lectern.status.speech.queue)")
        #expect(lectern.status.speech.queue.dropFirst().first == "Please book a tour in advance.")
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.sentence == "Please book a tour in advance." })
        lectern.press(LecternHarness.Key.escape)
        try lectern.stop()
    }

    @Test("while listening, a notice is said, and so is what a search found")
    func noticesAndSearchAreSaid() throws {
        let wav = try Self.directory().appendingPathComponent("speech.wav").path
        let lectern = try KioskHarness([NarratorTests.columns, "--speech-output", wav, "--speech-unpaced"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.type(page: 0)
        #expect(lectern.status.speech.queue.isEmpty, "not listening: nothing is said")
        lectern.press(NarratorTests.f1)
        lectern.type(page: 0)
        #expect(lectern.status.speech.queue == ["There is no page \u{201C}0\u{201D} in this document."])
        // Search by keys (as KeypadFocusTests.searchNoTrap): the Search button, then the key "1".
        lectern.press(Pad.up)
        lectern.press(Pad.up)
        lectern.press(Pad.select)
        #expect(lectern.status.focus.level == "search")
        for _ in 0..<4 { lectern.press(Pad.down) }
        #expect(lectern.status.focus.label == "1")
        lectern.press(Pad.select)
        #expect(lectern.wait { lectern.status.speech.queue == ["No matches."] }, "\(lectern.status.speech.queue)")
        try lectern.stop()
    }

    @Test("a navigation key interrupts the sentence being read within a tenth of a second of audio")
    func keyInterruptsSpeech() throws {
        let (lectern, _) = try NarratorTests.reader(page: 2, paced: true)
        lectern.press(NarratorTests.f1)
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.sentence == "Opening hours" })
        #expect(lectern.status.speech.audioAfterLastStop == nil)
        lectern.press(Pad.down)
        #expect(NarratorTests.turn(lectern) { lectern.status.speech.audioAfterLastStop != nil })
        let after = try #require(lectern.status.speech.audioAfterLastStop)
        #expect(after <= 0.1, "\(after) s of audio after the key")
        try lectern.stop()
    }

    @Test("a damaged file's banner is said in the orientation")
    func damagedFileIsSaid() throws {
        let wav = try Self.directory().appendingPathComponent("speech.wav").path
        let lectern = try KioskHarness(
            [LecternHarness.fixture("bad-xref.pdf"), "--speech-output", wav, "--speech-unpaced"])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(NarratorTests.f1)
        #expect(
            lectern.status.speech.queue.dropFirst().first == "This file is damaged: what could be recovered is read.")
        try lectern.stop()
    }

    @Test(
        "the countdown starts with a sound cue through the speech output; idle.cue = false plays none",
        arguments: [true, false])
    func countdownCue(cue: Bool) throws {
        let wav = try Self.directory().appendingPathComponent("speech.wav").path
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(NarratorTests.columns)\"\n[idle]\nreset = 30\ncountdown = 20\ncue = \(cue)\n"
                + "[speech]\noutput = \"\(wav)\"\n")
        let lectern = try KioskHarness(["--config", policy.path, "--speech-unpaced"])
        #expect(lectern.settle())
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline - 19.5 - lectern.clock.now)
        #expect(lectern.status.notice?.hasPrefix("Returning to the start") == true)
        if cue {
            // Two tones of 0.15 s at espeak-ng's 22,050 Hz, 16-bit.
            #expect(NarratorTests.turn(lectern) { Self.size(wav) >= 44 + 2 * 2 * 3307 }, "\(Self.size(wav)) bytes")
            #expect(!lectern.status.speech.isOn, "a cue is not speech")
        } else {
            lectern.advance(by: 1)
            #expect(lectern.status.speech.pid == nil, "no speech process for nothing")
            #expect(Self.size(wav) == 0)
        }
        try lectern.stop()
    }

    @Test("on the shelf the covers are said, a broken one as its card says; a broken document's card is said")
    func shelfAndFailureAreSaid() throws {
        let wav = try Self.directory().appendingPathComponent("speech.wav").path
        let broken = LecternHarness.fixture("not-a-pdf.pdf")
        let policy = try PolicyTests.PolicyDirectory(
            "documents = [\"\(NarratorTests.columns)\", \"\(broken)\"]\n[speech]\noutput = \"\(wav)\"\n")
        let shelf = try KioskHarness(["--config", policy.path, "--speech-unpaced"])
        #expect(shelf.wait { shelf.status.shelf.count == 2 && shelf.status.shelf[1].failure != nil })
        #expect(shelf.settle())
        #expect(shelf.enableKeyboard())
        shelf.press(Pad.down)
        #expect(shelf.status.focus.level == "shelf")
        #expect(shelf.status.speech.queue == ["Visiting the museum, button"], "no document is open: still said")
        shelf.press(Pad.down)
        #expect(shelf.status.speech.queue == ["not-a-pdf.pdf: this document cannot be opened, button"])
        try shelf.stop()

        let single = try KioskHarness([broken, "--speech-output", wav, "--speech-unpaced"])
        #expect(single.settle())
        #expect(single.enableKeyboard())
        single.press(Pad.down)
        #expect(
            single.wait { single.status.speech.queue == ["not-a-pdf.pdf: it is not a PDF document."] },
            "\(single.status.speech.queue)")
        try single.stop()
    }

    /// The size of the file at `path` in bytes (0: none).
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
