import LecternLinux
import Testing

@testable import LecternSpeech

@Suite struct SpeechMessagesTests {
    /// Each message decodes to itself, and cut short it throws.
    private func roundTrip<Message: Equatable>(
        _ messages: [Message], encode: (Message, inout WireWriter) -> Void,
        decode: (inout WireReader) throws(WireError) -> Message
    ) throws {
        for message in messages {
            var writer = WireWriter()
            encode(message, &writer)
            var reader = WireReader(writer.bytes)
            #expect(try decode(&reader) == message)
            var cut = WireReader(Array(writer.bytes.dropLast()))
            #expect(throws: WireError.self, "\(message) cut short") { try decode(&cut) }
        }
    }

    @Test func everyCommandRoundTrips() throws {
        let commands: [SpeechCommand] = [
            .configure(.alsa(device: "null")), .configure(.wav(path: "/tmp/a.wav", paced: true)),
            .speak(
                [SpeechSentence(id: 3, text: "Hello, world."), SpeechSentence(id: 4, text: "שלום", language: "he")],
                requestedAt: 12.5),
            .speak([], requestedAt: 0), .stop(requestedAt: 1.25), .pause(requestedAt: 2), .resume, .language("he"),
            .rate(200), .volume(150),
        ]
        try roundTrip(commands, encode: { $0.encode(into: &$1) }, decode: SpeechCommand.decode)
    }

    @Test func everyEventRoundTrips() throws {
        let events: [SpeechEvent] = [
            .ready(output: "ALSA null", sampleRate: 22050), .outputFailed("no such device"),
            .voice(SpeechVoice(language: "he", name: "Hebrew", identifier: "sem/he")), .noVoice(language: "xx"),
            .started(id: 2, latency: 0.03), .finished(id: 2), .stopped(id: -1, samplesAfterRequest: 0),
            .paused(id: 1, samplesAfterRequest: 441), .resumed(id: 1),
        ]
        try roundTrip(events, encode: { $0.encode(into: &$1) }, decode: SpeechEvent.decode)
    }
}
