import LecternLinux
import Logging
import SystemPackage

/// The reader's side of speech, on the event loop: it starts the speech process (takes the one
/// forked at start, or spawns `lectern --speech-worker`), sends it commands without waiting for
/// answers, and reads its events when the loop finds its channel readable, keeping `state` and
/// passing each event to `onEvent`. When the process dies it is started again at once with the
/// settings in force, and `onEvent` gets `.restarted`; the sentence it was speaking is not
/// spoken again.
public final class SpeechClient {
    /// How to start and set up the speech process.
    public struct Settings: Equatable, Sendable {
        /// The `lectern` executable (by default this process's own).
        public var executable = "/proc/self/exe"
        public var output = SpeechOutput.defaultDevice
        /// A language code espeak-ng has a voice for ("en", "de", "fr", "es", "ar", "he").
        public var language = "en"
        /// Words per minute (espeak-ng: 80 … 450).
        public var rate = SpeechClient.defaultRate
        /// 0 … 200.
        public var volume = SpeechClient.defaultVolume

        public init() {}
    }

    /// espeak-ng's own defaults.
    public static let defaultRate = 175
    public static let defaultVolume = 100

    /// What the client knows, for tests and the kiosk's status.
    public struct State: Equatable, Sendable {
        /// Sentences were asked for and not all spoken, nor stopped.
        public var isSpeaking = false
        /// The id of the sentence being spoken (its first sample written, its last not yet).
        public var sentence: Int?
        public var isPaused = false
        /// The voice in force, once the process said which.
        public var voice: SpeechVoice?
        /// Why the output cannot be used (nil: it can, or is not known yet).
        public var outputFailure: String?
        /// The output in use ("ALSA default") and its sample rate, once open.
        public var output: String?
        public var sampleRate: Int?
        /// The speech process's pid (nil: none runs).
        public var pid: Int32?
        /// Processes started after the first (after one died).
        public var restarts = 0
        /// Request → first sample written, of the last sentence that started (seconds).
        public var lastStartLatency: Double?
        /// Samples written after the last stop or pause was asked for.
        public var lastSamplesAfterStop: Int?
        /// Ids of the sentences that started and finished, in order, since the last `speak`.
        public var finished: [Int] = []
    }

    /// What `onEvent` is told, on the loop.
    public enum Event: Equatable, Sendable {
        case started(Int)
        case finished(Int)
        /// Stopped during the sentence (nil: none was being spoken).
        case stopped(Int?)
        case paused(Int?)
        case resumed(Int?)
        case voice(SpeechVoice)
        case noVoice(language: String)
        case ready(output: String)
        case outputFailed(String)
        /// The speech process died (killed, crashed) and another was started (or, when it died
        /// before saying anything, will be, after a wait that doubles each time, up to 30 s);
        /// `count`: processes started after the first, this one included. The sentence it was
        /// speaking, if any, is abandoned.
        case restarted(count: Int, interrupted: Int?)
    }

    public private(set) var state = State()
    public var onEvent: ((Event) -> Void)?
    /// The settings in force (each setter below changes one; `resetToDefaults()` restores them).
    public private(set) var settings: Settings
    /// The settings `resetToDefaults()` returns to (the operator's).
    public let defaults: Settings

    private let loop: EventLoop
    private let logger: Logger
    private var process: ChildProcess?
    private var watch: EventLoop.Watch?
    /// The sentences of the last speak, by id (repeat speaks the last one started again).
    private var sentences: [Int: SpeechSentence] = [:]
    private var lastStarted: SpeechSentence?
    private var outstanding: Set<Int> = []
    /// When the last speak was asked for (`SpeechTime`): the time its sentences' latencies are from.
    private var requestedAt = 0.0
    private var starts = 0
    /// Whether the running process has sent anything (else its death is a failed start).
    private var heardFromProcess = false
    private var failedStarts = 0
    private var restartTimer: EventLoop.Timer?

    /// Starts the speech process with `settings` (also the defaults to reset to).
    public init(settings: Settings, loop: EventLoop, logger: Logger) {
        self.settings = settings
        defaults = settings
        self.loop = loop
        self.logger = logger
        start()
    }

    deinit { close() }

    /// Ends the speech process (teardown).
    public func close() {
        restartTimer?.cancel()
        watch?.cancel()
        watch = nil
        if let process {
            process.channels[0].close()
            ChildProcess.killAndReap(process.pid)
        }
        process = nil
        state.pid = nil
    }

    // MARK: What the kiosk asks

    /// Speaks `sentences` in order, interrupting whatever is being spoken.
    public func speak(_ sentences: [SpeechSentence]) {
        self.sentences = Dictionary(sentences.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        outstanding = Set(sentences.map(\.id))
        state.finished = []
        state.isSpeaking = !sentences.isEmpty
        state.isPaused = false
        state.sentence = nil
        requestedAt = SpeechTime.now
        if !send(.speak(sentences, requestedAt: requestedAt)) {
            outstanding = []
            state.isSpeaking = false
        }
    }

    /// Stops at once: synthesis ends and the audio buffered is dropped.
    public func stop() {
        outstanding = []
        state.isSpeaking = false
        state.isPaused = false
        state.sentence = nil
        send(.stop(requestedAt: SpeechTime.now))
    }

    public func pause() {
        guard state.isSpeaking, !state.isPaused else { return }
        state.isPaused = true
        send(.pause(requestedAt: SpeechTime.now))
    }

    public func resume() {
        guard state.isPaused else { return }
        state.isPaused = false
        send(.resume)
    }

    /// Speaks again the last sentence that started (nothing if none did).
    public func repeatLast() {
        guard let sentence = lastStarted else { return }
        speak([sentence])
    }

    /// The voice for `language` (a code: "en", "he"); `state.voice` says which was chosen.
    public func setLanguage(_ language: String) {
        settings.language = language
        send(.language(language))
    }

    public func setRate(_ wordsPerMinute: Int) {
        settings.rate = min(450, max(80, wordsPerMinute))
        send(.rate(settings.rate))
    }

    public func setVolume(_ volume: Int) {
        settings.volume = min(200, max(0, volume))
        send(.volume(settings.volume))
    }

    /// Plays the cue (two short tones) after what is being said; starts nothing else.
    public func cue() {
        send(.cue)
    }

    /// Speech goes to `output` from the next sentence (headphones plugged in or pulled out).
    public func setOutput(_ output: SpeechOutput) {
        guard output != settings.output else { return }
        settings.output = output
        state.output = nil
        send(.configure(output))
    }

    /// Back to the operator's voice, rate and volume (the idle reset).
    public func resetToDefaults() {
        if settings.language != defaults.language { setLanguage(defaults.language) }
        if settings.rate != defaults.rate { setRate(defaults.rate) }
        if settings.volume != defaults.volume { setVolume(defaults.volume) }
    }

    // MARK: The process

    private func start() {
        do throws(SystemError) {
            let child: ChildProcess
            if settings.executable == "/proc/self/exe",
                let forked = ChildProcess.take(role: SpeechProcessMain.role, channels: 1)
            {
                child = forked
            } else {
                child = try ChildProcess.spawn(
                    settings.executable, arguments: [settings.executable, SpeechProcessMain.option], channels: 1)
            }
            process = child
            heardFromProcess = false
            starts += 1
            state.pid = child.pid
            state.restarts = max(0, starts - 1)
            let channel = child.channels[0]
            watch = loop.watch(FileDescriptor(rawValue: channel.descriptor)) { [weak self] in self?.readEvent() }
            logger.info("speech process \(child.pid) started\(starts > 1 ? " (restart \(starts - 1))" : "")")
            for command in [
                SpeechCommand.configure(settings.output), .language(settings.language), .rate(settings.rate),
                .volume(settings.volume),
            ] {
                _ = channel.send(command)
            }
        } catch {
            logger.error("cannot start the speech process \(settings.executable): \(error)")
            state.outputFailure = "the speech process cannot start: \(error)"
        }
    }

    /// Sends `command` to the running process; false when none runs (it is dropped).
    @discardableResult
    private func send(_ command: SpeechCommand) -> Bool {
        guard let process else { return false }
        if process.channels[0].send(command) { return true }
        died()
        return false
    }

    /// The process is gone (its channel closed, or a send failed): reap it and start another.
    private func died() {
        guard let process else { return }
        let interrupted = state.sentence
        watch?.cancel()
        watch = nil
        process.channels[0].close()
        let status = ChildProcess.killAndReap(process.pid)
        self.process = nil
        state.pid = nil
        logger.error("speech process \(process.pid) ended (\(ChildProcess.describe(status)))")
        outstanding = []
        state.isSpeaking = false
        state.isPaused = false
        state.sentence = nil
        let count = starts
        // A process that died before it said anything failed to start: the next waits, longer
        // each time (a speech process that cannot start must not spin the loop).
        if heardFromProcess {
            failedStarts = 0
            start()
        } else {
            failedStarts += 1
            let wait = min(Self.longestRestartWait, 0.5 * Double(1 << min(failedStarts, 8)))
            logger.error("the speech process failed to start \(failedStarts) times: trying again in \(wait) s")
            restartTimer = loop.schedule(after: wait) { [weak self] in self?.start() }
        }
        onEvent?(.restarted(count: count, interrupted: interrupted))
    }

    /// The longest wait before starting again a speech process that keeps failing to start.
    static let longestRestartWait = 30.0

    private func readEvent() {
        guard let process else { return }
        guard let (bytes, fd) = process.channels[0].receive() else { return died() }
        heardFromProcess = true
        if fd >= 0 { _ = try? FileDescriptor(rawValue: fd).close() }
        var reader = WireReader(bytes)
        guard let event = try? SpeechEvent.decode(&reader) else {
            logger.error("the speech process sent a message that does not decode")
            return
        }
        if let told = apply(event) { onEvent?(told) }
    }

    /// Updates `state` for `event`; what to tell `onEvent`.
    private func apply(_ event: SpeechEvent) -> Event? {
        switch event {
        case .ready(let output, let rate):
            state.output = output
            state.sampleRate = rate
            state.outputFailure = nil
            return .ready(output: output)
        case .outputFailed(let reason):
            state.outputFailure = reason
            outstanding = []
            state.isSpeaking = false
            state.isPaused = false
            state.sentence = nil
            return .outputFailed(reason)
        case .voice(let voice):
            state.voice = voice
            return .voice(voice)
        case .noVoice(let language):
            logger.error("espeak-ng has no voice for the language \(language)")
            return .noVoice(language: language)
        case .started(let id, let latency):
            guard outstanding.contains(id) else { return nil }
            state.sentence = id
            state.lastStartLatency = latency
            // On CLOCK_MONOTONIC, as both processes read it: `lectern-bench speech` times a key
            // press to the first sample with it.
            logger.debug(
                "sentence \(id) started: asked for at \(requestedAt) s, first sample written at \(requestedAt + latency) s"
            )
            lastStarted = sentences[id]
            return .started(id)
        case .finished(let id):
            guard outstanding.remove(id) != nil else { return nil }
            state.finished.append(id)
            if state.sentence == id { state.sentence = nil }
            if outstanding.isEmpty {
                state.isSpeaking = false
                state.isPaused = false
            }
            return .finished(id)
        case .stopped(let id, let samples):
            // `stop()` and `speak(_:)` cleared the sentence already.
            state.lastSamplesAfterStop = samples
            return .stopped(id < 0 ? nil : id)
        case .paused(let id, let samples):
            state.lastSamplesAfterStop = samples
            // Nothing was being spoken when the pause came (it had just ended): nothing is paused.
            if id < 0 { state.isPaused = false }
            return .paused(id < 0 ? nil : id)
        case .resumed(let id):
            return .resumed(id < 0 ? nil : id)
        }
    }
}
