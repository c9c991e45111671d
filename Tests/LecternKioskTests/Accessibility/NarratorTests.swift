import Foundation
import Glibc
import LecternCore
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// Speech as a visitor starts it with real `wl_keyboard` events: F1 speaks the orientation and
/// then the page in reading order (columns.pdf: two columns, drawn right column first on page 2,
/// which MuPDF's own order would read first), checked in the WAV output with pocketsphinx
/// (Tests/LecternSpeechTests/check-speech.py); the sentence spoken is highlighted; Escape stops.
@Suite("Speech")
struct NarratorTests {
    static let columns = LecternHarness.fixture("columns.pdf")
    static let f1: UInt32 = 59
    static let space: UInt32 = 57

    /// Lectern on columns.pdf `page` with speech into a WAV file in a fresh directory.
    static func reader(page: Int, paced: Bool) throws -> (KioskHarness, wav: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-speech-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wav = directory.appendingPathComponent("speech.wav").path
        // The checker's model is US English: an English document speaks with the policy's en-us.
        let lectern = try KioskHarness(
            [columns, "--page", "\(page)", "--speech-output", wav, "--speech-language", "en-us"]
                + (paced ? [] : ["--speech-unpaced"]))
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        return (lectern, wav)
    }

    /// Turns the loop (real time passes for the speech process) until `condition`, at most 60 s.
    static func turn(_ lectern: KioskHarness, until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            lectern.turn(wait: .milliseconds(20))
        }
        return condition()
    }

    /// What check-speech.py says of `wav`: its exit status and what it heard.
    static func check(
        _ wav: String, skipping: Int, expect: [String], distractors: [String]
    ) throws -> (Int32, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("LecternSpeechTests/check-speech.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", script.path, wav, "--skip-first", "\(skipping)", "--expect"] + expect + ["--distractor"]
            + distractors
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static let leftColumn = [
        "The museum opens at nine in the morning.", "Please book a tour in advance.",
        "Children under twelve enter for free.",
    ]
    static let rightColumn = [
        "The garden cafe closes at five.", "Music plays in the yard.", "The roof terrace has a view.",
    ]

    @Test("F1 speaks the orientation, then the page's columns in reading order, left before right")
    func readsThePageInReadingOrder() throws {
        let (lectern, wav) = try Self.reader(page: 2, paced: false)
        lectern.press(Self.f1)
        #expect(lectern.status.speech.isOn)
        #expect(lectern.status.isAccessibilityInUse, "speech is accessibility mode")
        #expect(Self.turn(lectern) { lectern.status.speech.sentence == "End of the document." })
        #expect(Self.turn(lectern) { !lectern.status.speech.isSpeaking })
        #expect(lectern.status.speech.voice?.hasSuffix("en-US") == true, "\(lectern.status.speech.voice ?? "none")")
        let orientation = ["Visiting the museum.", "Page 2 of 2.", "Press F1 for help."]
        let page = ["Opening hours"] + Self.leftColumn + Self.rightColumn + ["End of the document."]
        #expect(lectern.status.speech.queue == orientation + page, "what was asked to be said")
        // The audio: the orientation's three sentences are there (pocketsphinx cannot hear "Page
        // 2 of 2" reliably: check-speech.py), then the page, heard in this order.
        let distractors = ["Dogs must stay outside.", "The shop sells old maps.", "Lockers are near the stairs."]
        let (status, heard) = try Self.check(wav, skipping: orientation.count, expect: page, distractors: distractors)
        #expect(status == 0, "\(heard)")
        // The checker tells the columns apart: MuPDF's order (the right column drawn first) fails.
        let mupdfOrder = ["Opening hours"] + Self.rightColumn + Self.leftColumn + ["End of the document."]
        #expect(try Self.check(wav, skipping: orientation.count, expect: mupdfOrder, distractors: distractors).0 == 1)
        try lectern.stop()
    }

    @Test("the sentence spoken is highlighted on the page; space pauses; Escape stops and takes the highlight away")
    func highlightsAndStops() throws {
        let (lectern, _) = try Self.reader(page: 2, paced: true)
        lectern.press(Self.f1)
        #expect(Self.turn(lectern) { lectern.status.speech.sentence == "Please book a tour in advance." })
        lectern.press(Self.space)
        #expect(Self.turn(lectern) { lectern.status.speech.isPaused })
        lectern.settle()
        let page = try #require(lectern.status.pagesOnScreen.first)
        // "Please book a tour in advance." is the left column's second line, from x 50, its box y 125…142
        // of 842 from the top, its baseline at 138: at y 127 the box is above the letters.
        let scale = Double(page.frame.height) / 842
        let y = page.frame.y + Int(127 * scale)
        let x = page.frame.x + Int(60 * scale)
        let commit = try #require(lectern.lastCommit)
        let highlighted = commit.pixel(x: x, y: y)
        #expect(highlighted & 0xFF_FFFF != 0xFF_FFFF, "the line is highlighted: \(String(highlighted, radix: 16))")
        lectern.press(LecternHarness.Key.escape)
        #expect(!lectern.status.speech.isOn)
        lectern.settle()
        #expect(try #require(lectern.lastCommit).pixel(x: x, y: y) & 0xFF_FFFF == 0xFF_FFFF, "no highlight")
        #expect(!lectern.status.isAccessibilityInUse)
        try lectern.stop()
    }

    @Test("a Hebrew document (/Lang he) is read with a Hebrew voice, whatever the policy's language")
    func hebrewVoice() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-speech-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wav = directory.appendingPathComponent("speech.wav").path
        let lectern = try KioskHarness(
            [
                LecternHarness.fixture("hebrew.pdf"), "--speech-output", wav, "--speech-language", "en-us",
                "--speech-unpaced",
            ])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(Self.f1)
        #expect(Self.turn(lectern) { lectern.status.speech.voice != nil && !lectern.status.speech.isSpeaking })
        #expect(lectern.status.speech.voice?.hasSuffix("/he") == true, "\(lectern.status.speech.voice ?? "none")")
        #expect(lectern.status.speech.queue.contains("שלום עולם"), "the page's text: \(lectern.status.speech.queue)")
        try lectern.stop()
    }

    @Test("the idle reset stops speech and ends accessibility mode; F1 starts it again")
    func idleResetStopsSpeech() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-speech-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wav = directory.appendingPathComponent("speech.wav").path
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.columns)\"\n[idle]\nreset = 30\n[accessibility]\nidle-factor = 1\n"
                + "[speech]\noutput = \"\(wav)\"\nlanguage = \"en-us\"\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(Self.f1)
        #expect(Self.turn(lectern) { lectern.status.speech.sentence != nil })
        #expect(lectern.status.isAccessibilityInUse)
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline + 0.5 - lectern.clock.now)
        // The countdown is being said: the reset comes once that sentence ends.
        #expect(Self.turn(lectern) { !lectern.status.speech.isSpeaking })
        lectern.advance(by: 1.1)
        #expect(!lectern.status.speech.isOn, "the reset stops speech")
        #expect(!lectern.status.isAccessibilityInUse)
        lectern.press(Self.f1)
        #expect(lectern.status.speech.isOn, "the next visitor starts it as before")
        try lectern.stop()
    }

    @Test("the speech process killed mid-sentence is started again and reading goes on; the reader stays up")
    func speechProcessKilled() throws {
        let (lectern, _) = try Self.reader(page: 2, paced: true)
        lectern.press(Self.f1)
        #expect(Self.turn(lectern) { lectern.status.speech.sentence == "Opening hours" })
        let pid = try #require(lectern.status.speech.pid)
        #expect(kill(pid, SIGKILL) == 0)
        #expect(Self.turn(lectern) { lectern.status.speech.restarts == 1 && lectern.status.speech.pid != pid })
        #expect(
            Self.turn(lectern) { lectern.status.speech.sentence == "The museum opens at nine in the morning." },
            "reading goes on in the new process")
        #expect(lectern.status.document == .open(pageCount: 2), "the reader is untouched")
        lectern.press(LecternHarness.Key.escape)
        try lectern.stop()
    }

    @Test("keypad 2 says the item the focus moved to, interrupting the page being read")
    func keypadFocusIsSpoken() throws {
        let (lectern, _) = try Self.reader(page: 2, paced: true)
        lectern.press(Self.f1)
        #expect(Self.turn(lectern) { lectern.status.speech.sentence == "Visiting the museum." })
        lectern.press(80)  // keypad 2 (KP_Down): the next item, the page's first
        #expect(lectern.status.focus.isShown)
        #expect(lectern.status.speech.queue.count == 1, "the item alone: \(lectern.status.speech.queue)")
        #expect(lectern.status.speech.queue.first?.contains("Opening hours") == true, "\(lectern.status.speech.queue)")
        #expect(Self.turn(lectern) { lectern.status.speech.sentence?.contains("Opening hours") == true })
        #expect(Self.turn(lectern) { !lectern.status.speech.isSpeaking }, "it ends there: no page is read on")
        #expect(lectern.status.speech.page == 1, "and stays on the page")
        try lectern.stop()
    }

    @Test("in speech mode the idle countdown is said, and the reset waits for the sentence being spoken")
    func countdownIsSpokenAndNotCut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-speech-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wav = directory.appendingPathComponent("speech.wav").path
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.columns)\"\n[idle]\nreset = 30\n[accessibility]\nidle-factor = 1\n"
                + "[speech]\noutput = \"\(wav)\"\nlanguage = \"en-us\"\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.press(Self.f1)
        #expect(Self.turn(lectern) { lectern.status.speech.sentence != nil })
        let deadline = try #require(lectern.status.idleResetDeadline)
        lectern.advance(by: deadline - 19.5 - lectern.clock.now)
        #expect(
            lectern.status.speech.queue == ["Returning to the start in 20 s — touch to stay"], "the countdown is said")
        // The clock runs to the deadline in much less real time than the last notice takes to say.
        lectern.advance(by: deadline + 0.2 - lectern.clock.now)
        #expect(lectern.status.speech.isSpeaking, "\(lectern.status.speech)")
        #expect(
            lectern.status.speech.isOn && lectern.status.isAccessibilityInUse, "no reset while a sentence is spoken")
        #expect(Self.turn(lectern) { !lectern.status.speech.isSpeaking })
        lectern.advance(by: 1.1)
        #expect(!lectern.status.speech.isOn, "the reset once it ended")
        #expect(!lectern.status.isAccessibilityInUse)
        try lectern.stop()
    }
}
