import LecternLinux
import Testing

@testable import LecternSpeech

@Suite struct SpeechMessagesTests {
    @Test func everyCommandRoundTrips() throws {
        let commands: [SpeechCommand] = [
            .configure(.alsa(device: "null")), .configure(.wav(path: "/tmp/a.wav", paced: true)),
            .speak(
                [SpeechSentence(id: 3, text: "Hello, world."), SpeechSentence(id: 4, text: "שלום")], requestedAt: 12.5),
            .speak([], requestedAt: 0), .stop(requestedAt: 1.25), .pause(requestedAt: 2), .resume, .language("he"),
            .rate(200), .volume(150),
        ]
        for command in commands {
            var writer = WireWriter()
            command.encode(into: &writer)
            var reader = WireReader(writer.bytes)
            #expect(try SpeechCommand.decode(&reader) == command)
            var cut = WireReader(Array(writer.bytes.dropLast()))
            #expect(throws: WireError.self, "\(command) cut short") { try SpeechCommand.decode(&cut) }
        }
    }

    @Test func everyEventRoundTrips() throws {
        let events: [SpeechEvent] = [
            .ready(output: "ALSA null", sampleRate: 22050), .outputFailed("no such device"),
            .voice(SpeechVoice(language: "he", name: "Hebrew", identifier: "sem/he")), .noVoice(language: "xx"),
            .started(id: 2, latency: 0.03), .finished(id: 2), .stopped(id: -1, samplesAfterRequest: 0),
            .paused(id: 1, samplesAfterRequest: 441), .resumed(id: 1),
        ]
        for event in events {
            var writer = WireWriter()
            event.encode(into: &writer)
            var reader = WireReader(writer.bytes)
            #expect(try SpeechEvent.decode(&reader) == event)
            var cut = WireReader(Array(writer.bytes.dropLast()))
            #expect(throws: WireError.self, "\(event) cut short") { try SpeechEvent.decode(&cut) }
        }
    }
}
