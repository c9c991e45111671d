import Foundation
import Glibc
import Testing

@testable import LecternSpeech

@Suite(.serialized) struct SpeechClientTests {
    static let orientation = "Welcome. This is the city museum guide, page one of four."
    static let sentences = [
        "The museum opens at nine in the morning.",
        "Children under twelve enter for free.",
        "The garden cafe closes at five.",
    ]
    static let distractors = [
        "The library is closed on sunday.", "Please turn off your phone.", "The train leaves at noon.",
    ]
    /// Long enough that a stop, a pause or a kill lands in its middle.
    static let long = String(
        repeating: "This sentence goes on and on, so that there is time to interrupt it in the middle. ", count: 6)

    @Test func speaksSentencesInOrderAndTheAudioHoldsThem() throws {
        let harness = try SpeechHarness()
        // The checker's model is US English (check-speech.py says why).
        harness.client.setLanguage("en-us")
        let all = [Self.orientation] + Self.sentences
        harness.client.speak(all.enumerated().map { SpeechSentence(id: $0.offset, text: $0.element) })
        #expect(harness.client.state.isSpeaking)
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.client.state.finished == [0, 1, 2, 3])
        let told = harness.events.filter {
            if case .started = $0 { return true }
            if case .finished = $0 { return true }
            return false
        }
        #expect(
            told == [
                .started(0), .finished(0), .started(1), .finished(1), .started(2), .finished(2), .started(3),
                .finished(3),
            ])
        let (status, output) = try harness.check(expect: all, distractors: Self.distractors)
        #expect(status == 0, "\(output)")
        // The checker tells the order.
        let swapped = [all[0], all[2], all[1], all[3]]
        #expect(try harness.check(expect: swapped, distractors: Self.distractors).status == 1)
    }

    @Test func stopInterruptsWithinATenthOfASecondOfAudio() throws {
        let harness = try SpeechHarness { .wav(path: $0.appendingPathComponent("speech.wav").path, paced: true) }
        harness.client.speak([SpeechSentence(id: 7, text: Self.long)])
        #expect(try harness.run { harness.client.state.sentence == 7 })
        harness.client.stop()
        #expect(!harness.client.state.isSpeaking)
        #expect(harness.client.state.sentence == nil)
        #expect(try harness.run { harness.events.contains(.stopped(7)) })
        let rate = try #require(harness.client.state.sampleRate)
        let after = try #require(harness.client.state.lastSamplesAfterStop)
        #expect(after <= rate / 10, "\(after) samples written after the stop")
        // Stopped early: the sentence is some thirty seconds long.
        #expect(try harness.wavSamples() < rate * 5)
        #expect(!harness.events.contains(.finished(7)))
    }

    @Test func aNewSpeakInterruptsTheOneUnderWay() throws {
        let harness = try SpeechHarness { .wav(path: $0.appendingPathComponent("speech.wav").path, paced: true) }
        harness.client.speak([SpeechSentence(id: 1, text: Self.long)])
        #expect(try harness.run { harness.client.state.sentence == 1 })
        harness.client.speak([SpeechSentence(id: 2, text: "Next page.")])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.client.state.finished == [2])
        #expect(harness.events.contains(.stopped(1)))
    }

    @Test func pauseAndResumeLoseNothing() throws {
        let text = "The garden cafe closes at five, and the shop at six."
        let reference = try SpeechHarness()
        reference.client.speak([SpeechSentence(id: 0, text: text)])
        #expect(try reference.run { !reference.client.state.isSpeaking })

        let harness = try SpeechHarness { .wav(path: $0.appendingPathComponent("speech.wav").path, paced: true) }
        harness.client.speak([SpeechSentence(id: 0, text: text)])
        #expect(try harness.run { harness.client.state.sentence == 0 })
        harness.client.pause()
        #expect(harness.client.state.isPaused)
        #expect(try harness.run { harness.events.contains(.paused(0)) })
        let atPause = try harness.wavSamples()
        // Paused: nothing more is written while the loop turns.
        try harness.run(turns: 4) { false }
        #expect(try harness.wavSamples() == atPause)
        harness.client.resume()
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.events.contains(.resumed(0)))
        #expect(harness.client.state.finished == [0])
        // The same samples as without the pause (espeak-ng is deterministic).
        #expect(try harness.wavSamples() == (try reference.wavSamples()))
    }

    @Test func repeatSpeaksTheLastSentenceAgain() throws {
        let harness = try SpeechHarness()
        harness.client.speak([
            SpeechSentence(id: 4, text: "Exit to the left."), SpeechSentence(id: 5, text: "Stairs ahead."),
        ])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        let once = try harness.wavSamples()
        harness.client.repeatLast()
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.client.state.finished == [5])
        #expect(try harness.wavSamples() > once)
    }

    @Test(arguments: [("en", "en"), ("de", "de"), ("fr", "fr"), ("es", "es"), ("ar", "ar"), ("he", "he")])
    func aLanguagePicksItsVoice(language: String, identifierEnd: String) throws {
        let harness = try SpeechHarness()
        harness.client.setLanguage(language)
        #expect(try harness.run { harness.client.state.voice?.language == language })
        let voice = try #require(harness.client.state.voice)
        #expect(voice.identifier.hasSuffix("/" + identifierEnd), "\(voice)")
        // It speaks with it.
        harness.client.speak([SpeechSentence(id: 0, text: language == "he" ? "שלום עולם" : "123")])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(try harness.wavSamples() > 0)
    }

    @Test func aSentenceInAnotherLanguageIsSaidInItsVoiceThenTheVoiceGoesBack() throws {
        let harness = try SpeechHarness()
        #expect(try harness.run { harness.client.state.voice?.language == "en" })
        harness.client.speak([
            SpeechSentence(id: 1, text: "Welcome."), SpeechSentence(id: 2, text: "Bienvenue.", language: "fr"),
            SpeechSentence(id: 3, text: "Goodbye."),
        ])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.client.state.finished == [1, 2, 3])
        let voices = harness.events.compactMap { event -> String? in
            if case .voice(let voice) = event { return voice.language }
            return nil
        }
        #expect(voices.suffix(2) == ["fr", "en"], "French for the one sentence, then back: \(voices)")
        #expect(harness.client.state.voice?.language == "en")
    }

    @Test func theCueIsTwoTonesAThirdOfASecondLong() throws {
        let harness = try SpeechHarness()
        #expect(try harness.run { harness.client.state.sampleRate != nil })
        let rate = try #require(harness.client.state.sampleRate)
        harness.client.cue()
        #expect(try harness.run { (try? harness.wavSamples()) == 2 * (rate * 15 / 100) })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: harness.wavPath)).dropFirst(44)
        let samples = stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        #expect(samples.map { abs(Int($0)) }.max() ?? 0 > 3000, "a tenth of full scale at volume 100")
    }

    @Test func resetReturnsToTheOperatorsSettings() throws {
        let harness = try SpeechHarness()
        #expect(try harness.run { harness.client.state.voice?.language == "en" })
        harness.client.setLanguage("he")
        harness.client.setRate(300)
        harness.client.setVolume(40)
        #expect(try harness.run { harness.client.state.voice?.language == "he" })
        harness.client.resetToDefaults()
        #expect(harness.client.settings == harness.client.defaults)
        #expect(try harness.run { harness.client.state.voice?.language == "en" })
    }

    @Test func theProcessKilledMidSentenceIsRestartedAndSpeaksAgain() throws {
        let harness = try SpeechHarness { .wav(path: $0.appendingPathComponent("speech.wav").path, paced: true) }
        harness.client.speak([SpeechSentence(id: 3, text: Self.long)])
        #expect(try harness.run { harness.client.state.sentence == 3 })
        let first = try #require(harness.client.state.pid)
        kill(first, SIGKILL)
        #expect(try harness.run { harness.client.state.restarts == 1 })
        #expect(harness.events.contains(.restarted(count: 1, interrupted: 3)))
        #expect(!harness.client.state.isSpeaking)
        let second = try #require(harness.client.state.pid)
        #expect(second != first)
        harness.client.speak([SpeechSentence(id: 4, text: "Still here.")])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.client.state.finished == [4])
    }

    @Test func aProcessThatKeepsFailingToStartIsStartedAgainLessAndLessOften() throws {
        // It ends at once, without a word: a failed start.
        let harness = try SpeechHarness(executable: "/bin/false")
        #expect(try harness.run { harness.client.state.pid == nil })
        #expect(harness.events == [.restarted(count: 1, interrupted: nil)])
        // Nothing is spoken meanwhile, and the client says so.
        harness.client.speak([SpeechSentence(id: 0, text: "Hello.")])
        #expect(!harness.client.state.isSpeaking)
        // The first wait is a second, the next two.
        harness.clock.advance(by: 0.9)
        try harness.run(turns: 2) { false }
        #expect(harness.client.state.restarts == 0)
        harness.clock.advance(by: 0.2)
        #expect(try harness.run { harness.events.count == 2 })
        #expect(harness.client.state.restarts == 1)
        #expect(harness.client.state.pid == nil)
        harness.clock.advance(by: 1.5)
        try harness.run(turns: 2) { false }
        #expect(harness.client.state.restarts == 1)
        harness.clock.advance(by: 0.6)
        #expect(try harness.run { harness.client.state.restarts == 2 })
    }

    @Test func espeakNGAndALSAAreMappedInTheSpeechProcessOnlyUnderItsFilter() throws {
        let harness = try SpeechHarness { _ in .alsa(device: "null") }
        harness.client.speak([SpeechSentence(id: 0, text: "Hello.")])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        let pid = try #require(harness.client.state.pid)
        let theirs = try Self.maps("/proc/\(pid)/maps")
        let ours = try Self.maps("/proc/self/maps")
        for library in ["libespeak-ng.so", "libasound.so"] {
            #expect(theirs.contains(library))
            #expect(!ours.contains(library))
        }
        // And it runs under its seccomp filter (mode 2).
        let status = try Self.maps("/proc/\(pid)/status")
        #expect(status.contains("Seccomp:\t2"), "\(status)")
    }

    /// A file of /proc whole (it has no size to read up to).
    static func maps(_ path: String) throws -> String {
        let file = try #require(FileHandle(forReadingAtPath: path))
        defer { try? file.close() }
        return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func theALSANullDeviceOpensAndSpeaks() throws {
        let harness = try SpeechHarness { _ in .alsa(device: "null") }
        #expect(try harness.run { harness.client.state.output != nil || harness.client.state.outputFailure != nil })
        #expect(harness.client.state.output == "ALSA null")
        #expect(harness.client.state.outputFailure == nil)
        harness.client.speak([SpeechSentence(id: 0, text: "Hello.")])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.client.state.finished == [0])
    }

    @Test func aDeviceThatDoesNotOpenIsReportedNotACrash() throws {
        let harness = try SpeechHarness { _ in .alsa(device: "hw:97,0") }
        #expect(try harness.run { harness.client.state.outputFailure != nil })
        let failure = try #require(harness.client.state.outputFailure)
        #expect(failure.contains("cannot open the ALSA device hw:97,0"), "\(failure)")
        harness.client.speak([SpeechSentence(id: 0, text: "Hello.")])
        #expect(try harness.run { !harness.client.state.isSpeaking })
        #expect(harness.client.state.finished.isEmpty)
        #expect(harness.client.state.restarts == 0)
        #expect(harness.events.filter { if case .outputFailed = $0 { true } else { false } }.count == 2)
    }
}
