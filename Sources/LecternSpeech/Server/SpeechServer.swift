import CEspeakNG
import Glibc
import LecternLinux
import Logging

/// The speech process's side: reads commands from the reader on its channel, synthesises with
/// espeak-ng and writes the samples to the output, telling the reader as each sentence starts
/// and finishes. One thread: while espeak-ng synthesises, every buffer it hands over (20 ms of
/// audio) is a point where commands are read, so a stop, a pause or a new speak acts within one
/// buffer. A paced output is written at most `lead` ahead of playback, and the wait for it is a
/// wait on the channel too.
final class SpeechServer {
    /// Audio per espeak-ng buffer: the longest a command waits while synthesis runs.
    static let bufferMilliseconds: Int32 = 20
    /// How far ahead of playback a paced output is written.
    static let lead = 0.05

    private let channel: MessageChannel
    private let logger: Logger
    /// espeak-ng's sample rate, or nil when it cannot be loaded (then `unavailable` says why).
    private let sampleRate: Int?
    private let unavailable: String?
    private var sink: (any AudioSink)?
    private var sinkFailure: String?

    /// The sentences still to speak, the one being spoken first.
    private var queue: [SpeechSentence] = []
    /// The speech volume (0 … 200): the cue's loudness follows it.
    private var volume = 100
    /// The language of the voice the reader asked for (a sentence in another goes back to it).
    private var language = "en"
    /// Commands that came during synthesis and wait for its end (voice, rate, volume, output).
    private var deferred: [SpeechCommand] = []
    /// When the speak under way was requested (its first sample's latency is from then).
    private var requestedAt = 0.0

    // The sentence under way.
    private var aborted = false
    private var hasStarted = false
    /// Samples of this sentence written, and when pacing began (playback's origin).
    private var pacedSamples = 0
    private var paceOrigin = 0.0
    /// When recent buffers were written, and the total written before each: what was written
    /// after a request made at a given time.
    private var writes: [(time: Double, totalBefore: Int)] = []
    private var total = 0

    init(channel: MessageChannel, logger: Logger) {
        self.channel = channel
        self.logger = logger
        var error: UnsafePointer<CChar>?
        let rate = CEspeakNG_initialize(Self.bufferMilliseconds, &error)
        if rate > 0 {
            sampleRate = Int(rate)
            unavailable = nil
        } else {
            sampleRate = nil
            unavailable = "espeak-ng cannot start: \(error.map { String(cString: $0) } ?? "unknown error")"
        }
    }

    /// Serves until the reader closes the channel; returns the exit status.
    func run() -> Int32 {
        while true {
            if !deferred.isEmpty {
                handle(deferred.removeFirst())
            } else if let sentence = queue.first {
                speak(sentence)
            } else if let command = receive() {
                handle(command)
            } else {
                return 0
            }
        }
    }

    private func receive() -> SpeechCommand? {
        guard let (bytes, fd) = channel.receive() else { return nil }
        if fd >= 0 { close(fd) }
        var reader = WireReader(bytes)
        do throws(WireError) {
            return try SpeechCommand.decode(&reader)
        } catch {
            logger.error("\(error)")
            return nil
        }
    }

    private func send(_ event: SpeechEvent) {
        // The reader is gone: nothing more to say to anyone.
        if !channel.send(event) { exit(0) }
    }

    /// A command while nothing is being spoken.
    private func handle(_ command: SpeechCommand) {
        switch command {
        case .configure(let output): configure(output)
        case .speak(let sentences, let time):
            queue = sentences
            requestedAt = time
            if let reason = unavailable ?? sinkFailure ?? (sink == nil ? "no output configured" : nil), !queue.isEmpty {
                queue.removeAll()
                send(.outputFailed(reason))
            }
        case .stop: send(.stopped(id: -1, samplesAfterRequest: 0))
        case .pause: send(.paused(id: -1, samplesAfterRequest: 0))
        case .resume: send(.resumed(id: -1))
        case .language(let code):
            if let voice = setVoice(code) {
                language = code
                send(.voice(voice))
            } else {
                send(.noVoice(language: code))
            }
        case .rate(let rate): if unavailable == nil { _ = CEspeakNG_set_rate(Int32(rate)) }
        case .volume(let volume):
            self.volume = volume
            if unavailable == nil { _ = CEspeakNG_set_volume(Int32(volume)) }
        case .cue: playCue()
        }
    }

    /// Writes the cue: two tones, 880 Hz then 660 Hz, 150 ms each with 10 ms ramps, at the
    /// speech volume's loudness (a tenth of full scale at 100).
    private func playCue() {
        guard let sink, let sampleRate else { return }
        let amplitude = 3277.0 * Double(volume) / 100
        var samples: [Int16] = []
        for frequency in [880.0, 660.0] {
            let count = sampleRate * 15 / 100, ramp = Double(sampleRate) / 100
            for i in 0..<count {
                let envelope = min(1, Double(i) / ramp, Double(count - i) / ramp)
                samples.append(Int16(amplitude * envelope * sin(2 * .pi * frequency * Double(i) / Double(sampleRate))))
            }
        }
        do throws(AudioSinkError) {
            try samples.withUnsafeBufferPointer { buffer throws(AudioSinkError) in try sink.write(buffer) }
            sink.endSentence()
        } catch {
            logger.error("\(error.description)")
        }
    }

    private func configure(_ output: SpeechOutput) {
        sink = nil
        sinkFailure = nil
        guard let sampleRate else {
            sinkFailure = unavailable
            send(.outputFailed(unavailable ?? ""))
            return
        }
        do throws(AudioSinkError) {
            let opened = try openSink(output, sampleRate: sampleRate)
            sink = opened
            logger.info("speech goes to \(opened.description)")
            send(.ready(output: opened.description, sampleRate: sampleRate))
        } catch {
            sinkFailure = error.description
            logger.error("\(error.description)")
            send(.outputFailed(error.description))
        }
    }

    /// espeak-ng's voice for `code`, now in force; nil when it has none (the voice stays).
    private func setVoice(_ code: String) -> SpeechVoice? {
        var name = [CChar](repeating: 0, count: 128)
        var identifier = [CChar](repeating: 0, count: 128)
        guard unavailable == nil, CEspeakNG_set_language(code, &name, &identifier, 128) == 0 else { return nil }
        return SpeechVoice(
            language: code, name: String(nulTerminated: name), identifier: String(nulTerminated: identifier))
    }

    /// Speaks `sentence` (the queue's first) unless a command interrupts it: in its own
    /// language's voice when it names one (and has one), then the voice goes back.
    private func speak(_ sentence: SpeechSentence) {
        if let own = sentence.language, own != language, let voice = setVoice(own) {
            send(.voice(voice))
            defer {
                if let back = setVoice(language) { send(.voice(back)) }
            }
            return synthesise(sentence)
        }
        synthesise(sentence)
    }

    private func synthesise(_ sentence: SpeechSentence) {
        aborted = false
        hasStarted = false
        pacedSamples = 0
        paceOrigin = SpeechTime.now
        let context = Unmanaged.passUnretained(self).toOpaque()
        let status = CEspeakNG_synthesize(
            sentence.text,
            { samples, count, context in
                guard let samples, let context else { return 0 }
                let server = Unmanaged<SpeechServer>.fromOpaque(context).takeUnretainedValue()
                return server.synthesised(UnsafeBufferPointer(start: samples, count: Int(count))) ? 0 : 1
            }, context)
        sink?.endSentence()
        if aborted { return }
        if status != 0 { logger.error("espeak-ng could not speak sentence \(sentence.id)") }
        queue.removeFirst()
        if !hasStarted { send(.started(id: sentence.id, latency: SpeechTime.now - requestedAt)) }
        send(.finished(id: sentence.id))
    }

    /// espeak-ng synthesised `samples`: commands first, then the pace, then the output.
    /// False aborts the sentence.
    private func synthesised(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        guard let sink, let sampleRate, let sentence = queue.first else { return false }
        while channel.waitReadable(milliseconds: 0) {
            if interrupts() { return false }
        }
        if sink.isPaced {
            while true {
                let ahead = Double(pacedSamples) / Double(sampleRate) - (SpeechTime.now - paceOrigin)
                guard ahead > Self.lead else { break }
                let wait = Int32(((ahead - Self.lead) * 1000).rounded(.up))
                if channel.waitReadable(milliseconds: max(1, wait)), interrupts() { return false }
            }
        }
        do throws(AudioSinkError) {
            try sink.write(samples)
        } catch {
            logger.error("\(error.description)")
            self.sink = nil
            sinkFailure = error.description
            send(.outputFailed(error.description))
            queue.removeAll()
            aborted = true
            return false
        }
        let now = SpeechTime.now
        writes.append((now, total))
        pacedSamples += samples.count
        total += samples.count
        if writes.count > 512 { writes.removeFirst(256) }
        if !hasStarted {
            hasStarted = true
            send(.started(id: sentence.id, latency: now - requestedAt))
        }
        return true
    }

    /// Reads the command waiting during synthesis; true when it ends the sentence.
    private func interrupts() -> Bool {
        guard let command = receive() else { exit(0) }
        return act(on: command)
    }

    /// A command during synthesis: true when it ends the sentence (a stop, a new speak).
    private func act(on command: SpeechCommand) -> Bool {
        let id = queue.first?.id ?? -1
        switch command {
        case .stop(let time):
            sink?.drop()
            queue.removeAll()
            aborted = true
            send(.stopped(id: id, samplesAfterRequest: written(after: time)))
            return true
        case .speak(let sentences, let time):
            sink?.drop()
            send(.stopped(id: id, samplesAfterRequest: written(after: time)))
            queue = sentences
            requestedAt = time
            aborted = true
            return true
        case .pause(let time):
            sink?.drop()
            send(.paused(id: id, samplesAfterRequest: written(after: time)))
            return waitForResume(id)
        case .resume: return false
        case .configure, .language, .rate, .volume, .cue:
            deferred.append(command)
            return false
        }
    }

    /// Paused during sentence `id`: waits for a resume (false: go on) or a command that ends
    /// the sentence (true).
    private func waitForResume(_ id: Int) -> Bool {
        while true {
            guard let command = receive() else { exit(0) }
            switch command {
            case .resume:
                send(.resumed(id: id))
                // Playback starts again now: what was written before the pause is behind it.
                pacedSamples = 0
                paceOrigin = SpeechTime.now
                return false
            case .stop, .speak: return act(on: command)
            case .pause: continue
            case .configure, .language, .rate, .volume, .cue: deferred.append(command)
            }
        }
    }

    /// The samples written after `time` (a request's): those of the buffers written since.
    private func written(after time: Double) -> Int {
        guard let first = writes.first(where: { $0.time > time }) else { return 0 }
        return total - first.totalBefore
    }
}
