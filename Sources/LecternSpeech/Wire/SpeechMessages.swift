import Glibc
import LecternLinux

/// Where the speech process sends what it says.
public enum SpeechOutput: Equatable, Sendable {
    /// An ALSA PCM device ("default", "null", "hw:1,0").
    case alsa(device: String)
    /// A WAV file: every sentence spoken is appended, and the header is right after each one
    /// (so the file is whole even if the process dies). `paced`: written at the pace of
    /// playback, as a sound card takes it (else as fast as espeak-ng synthesises).
    case wav(path: String, paced: Bool)

    public static let defaultDevice = SpeechOutput.alsa(device: "default")
}

/// One sentence to speak, with the id the reader knows it by (to highlight it while spoken).
public struct SpeechSentence: Equatable, Sendable {
    public var id: Int
    public var text: String
    /// The language it is in when it is not the voice's (a French paragraph of an English
    /// document: its /Lang): said in that language's voice, then the voice goes back.
    public var language: String?

    public init(id: Int, text: String, language: String? = nil) {
        self.id = id
        self.text = text
        self.language = language
    }
}

/// The espeak-ng voice a language code chose.
public struct SpeechVoice: Equatable, Sendable {
    /// The language code asked for ("he").
    public var language: String
    /// espeak-ng's name for the voice ("Hebrew").
    public var name: String
    /// espeak-ng's file identifier ("roa/he"; the language family, then the voice).
    public var identifier: String

    public init(language: String, name: String, identifier: String) {
        self.language = language
        self.name = name
        self.identifier = identifier
    }
}

/// The time both processes read: CLOCK_MONOTONIC, in seconds. A request carries the time it
/// was made, so the speech process measures latency and what it wrote after a stop from then.
public enum SpeechTime {
    public static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

/// What the reader asks of the speech process: one message each. Each case's tag, encoding and
/// decoding are side by side.
public enum SpeechCommand: Equatable, Sendable {
    case configure(SpeechOutput)
    /// Speaks these sentences in order, replacing whatever is being spoken.
    case speak([SpeechSentence], requestedAt: Double)
    case stop(requestedAt: Double)
    case pause(requestedAt: Double)
    case resume
    /// The voice for a language code.
    case language(String)
    /// Words per minute.
    case rate(Int)
    /// 0 … 200.
    case volume(Int)
    /// A short sound (two falling tones, a third of a second) after what is being said: the idle
    /// countdown's cue.
    case cue

    private enum Tag: UInt8 { case configure = 1, speak, stop, pause, resume, language, rate, volume, cue }

    func encode(into writer: inout WireWriter) {
        switch self {
        case .configure(.alsa(let device)):
            writer.put(Tag.configure)
            writer.put(UInt8(0))
            writer.put(device)
        case .configure(.wav(let path, let paced)):
            writer.put(Tag.configure)
            writer.put(UInt8(1))
            writer.put(path)
            writer.put(paced)
        case .speak(let sentences, let time):
            writer.put(Tag.speak)
            writer.put(time)
            writer.put(sentences.count)
            for sentence in sentences {
                writer.put(sentence.id)
                writer.put(sentence.text)
                writer.put(sentence.language ?? "")
            }
        case .stop(let time):
            writer.put(Tag.stop)
            writer.put(time)
        case .pause(let time):
            writer.put(Tag.pause)
            writer.put(time)
        case .resume: writer.put(Tag.resume)
        case .language(let code):
            writer.put(Tag.language)
            writer.put(code)
        case .rate(let rate):
            writer.put(Tag.rate)
            writer.put(rate)
        case .volume(let volume):
            writer.put(Tag.volume)
            writer.put(volume)
        case .cue: writer.put(Tag.cue)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> SpeechCommand {
        let byte = try reader.byte()
        guard let tag = Tag(rawValue: byte) else { throw WireError("unknown speech command \(byte)") }
        switch tag {
        case .configure:
            switch try reader.byte() {
            case 0: return .configure(.alsa(device: try reader.string()))
            case 1: return .configure(.wav(path: try reader.string(), paced: try reader.bool()))
            case let kind: throw WireError("unknown speech output \(kind)")
            }
        case .speak:
            let time = try reader.double()
            var sentences: [SpeechSentence] = []
            for _ in 0..<(try reader.count()) {
                let id = try reader.int(), text = try reader.string(), language = try reader.string()
                sentences.append(SpeechSentence(id: id, text: text, language: language.isEmpty ? nil : language))
            }
            return .speak(sentences, requestedAt: time)
        case .stop: return .stop(requestedAt: try reader.double())
        case .pause: return .pause(requestedAt: try reader.double())
        case .resume: return .resume
        case .language: return .language(try reader.string())
        case .rate: return .rate(try reader.int())
        case .volume: return .volume(try reader.int())
        case .cue: return .cue
        }
    }
}

/// What the speech process tells the reader. Sample counts are of the output's sample rate
/// (`ready`); a sentence id of -1 is "none".
public enum SpeechEvent: Equatable, Sendable {
    /// The output is open: its description and sample rate.
    case ready(output: String, sampleRate: Int)
    /// The output (or espeak-ng) cannot be used: why. Sentences asked for are not spoken.
    case outputFailed(String)
    case voice(SpeechVoice)
    /// No voice for that language code; the voice in force stays.
    case noVoice(language: String)
    /// The sentence's first sample was written, `latency` seconds after the request.
    case started(id: Int, latency: Double)
    /// Its last sample was written.
    case finished(id: Int)
    /// Stopped (by a stop or a new speak) during sentence `id`; `samplesAfterRequest` were
    /// written after the request was made.
    case stopped(id: Int, samplesAfterRequest: Int)
    case paused(id: Int, samplesAfterRequest: Int)
    case resumed(id: Int)

    private enum Tag: UInt8 {
        case ready = 1, outputFailed, voice, noVoice, started, finished, stopped, paused, resumed
    }

    func encode(into writer: inout WireWriter) {
        switch self {
        case .ready(let output, let rate):
            writer.put(Tag.ready)
            writer.put(output)
            writer.put(rate)
        case .outputFailed(let reason):
            writer.put(Tag.outputFailed)
            writer.put(reason)
        case .voice(let voice):
            writer.put(Tag.voice)
            for text in [voice.language, voice.name, voice.identifier] { writer.put(text) }
        case .noVoice(let language):
            writer.put(Tag.noVoice)
            writer.put(language)
        case .started(let id, let latency):
            writer.put(Tag.started)
            writer.put(id)
            writer.put(latency)
        case .finished(let id):
            writer.put(Tag.finished)
            writer.put(id)
        case .stopped(let id, let samples):
            writer.put(Tag.stopped)
            writer.put(id)
            writer.put(samples)
        case .paused(let id, let samples):
            writer.put(Tag.paused)
            writer.put(id)
            writer.put(samples)
        case .resumed(let id):
            writer.put(Tag.resumed)
            writer.put(id)
        }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> SpeechEvent {
        let byte = try reader.byte()
        guard let tag = Tag(rawValue: byte) else { throw WireError("unknown speech event \(byte)") }
        switch tag {
        case .ready: return .ready(output: try reader.string(), sampleRate: try reader.int())
        case .outputFailed: return .outputFailed(try reader.string())
        case .voice:
            return .voice(
                SpeechVoice(language: try reader.string(), name: try reader.string(), identifier: try reader.string()))
        case .noVoice: return .noVoice(language: try reader.string())
        case .started: return .started(id: try reader.int(), latency: try reader.double())
        case .finished: return .finished(id: try reader.int())
        case .stopped: return .stopped(id: try reader.int(), samplesAfterRequest: try reader.int())
        case .paused: return .paused(id: try reader.int(), samplesAfterRequest: try reader.int())
        case .resumed: return .resumed(id: try reader.int())
        }
    }
}

extension MessageChannel {
    /// Sends `command`; false when the speech process is gone.
    func send(_ command: SpeechCommand) -> Bool {
        var writer = WireWriter()
        command.encode(into: &writer)
        return send(writer.bytes)
    }

    /// Sends `event`; false when the reader is gone.
    func send(_ event: SpeechEvent) -> Bool {
        var writer = WireWriter()
        event.encode(into: &writer)
        return send(writer.bytes)
    }
}
