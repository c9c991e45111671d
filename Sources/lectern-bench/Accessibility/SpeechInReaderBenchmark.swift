import Foundation
import LecternSpeech
import LecternTestSupport

/// Speech in a real reader (`lectern` on `document` under the test compositor, continuous
/// vertical scrolling at 1280×720, speech into ALSA's `null` device, which the speech process
/// paces as a sound card), with real `wl_keyboard` and `wl_touch` events:
/// - a key → the first sample the speech process writes for it: the key's time is read on
///   CLOCK_MONOTONIC just before the test compositor sends it; the sample's is the speech
///   process's own (SpeechTime, CLOCK_MONOTONIC too), which the reader logs at debug level
///   (`SpeechClient`: "sentence N started: asked for at R s, first sample written at T s"); the
///   sample counted is the first of a sentence asked for after the key. F1 starting speech (the
///   orientation's first sentence, speech stopped with Escape before each); keypad 2 while
///   speech is under way (the interrupt and the announcement of the item the focus moves to;
///   F1 before each, which says where the visitor is and goes on with the page), last;
/// - the main loop's turns (`LECTERN_LOG_LOOP_TURNS`: `LoopTurnLog`) while a finger pans the page
///   at 60 Hz, in windows with speech reading the page and windows with speech off, interleaved
///   (between the F1 keys and the keypad's);
/// - the speech process's resident memory, read at the end of the last window with speech on.
func measureSpeechInReader(document: String, keys: Int, windowSeconds: Double) throws -> [String: Any] {
    let session = try LecternSession(
        document: document, options: ["--scroll", "continuous", "--direction", "vertical", "--speech-output", "null"],
        width: 1280, height: 720, keyboard: true, environment: ["LECTERN_LOG_LOOP_TURNS": "1"])
    defer { session.close() }
    guard session.settle() else { throw BenchmarkError(description: "lectern did not settle: \(session.log)") }
    session.compositor.keyboardEnter()
    session.run(for: .milliseconds(50))
    let reader = SpeechInReader(session: session)

    // F1 from silence: the first is the speech process's start (cold), the others warm.
    var cold = -1.0  // -1: missed
    var fromSilence: [Double] = []
    var misses = 0
    for index in 0...keys {
        reader.press(Key.escape)
        session.run(for: .milliseconds(20))
        guard let latency = reader.firstSample(after: reader.press(Key.f1)) else {
            misses += 1
            continue
        }
        if index == 0 { cold = latency } else { fromSilence.append(latency) }
        session.run(for: .milliseconds(50))
    }
    // The loop's turns, the same pans with speech off and on, interleaved, before any keypad
    // key: the focus walks on through the page and the chrome, where a pan no longer pans.
    var silentWindows: [ClosedRange<Double>] = []
    var speakingWindows: [ClosedRange<Double>] = []
    var pausedWindows: [ClosedRange<Double>] = []
    var commits = (silent: 0, speaking: 0, paused: 0)
    var speechProcess: (resident: Int, peak: Int)?
    for _ in 0..<3 {
        reader.press(Key.escape)
        var known = session.frames.count
        silentWindows.append(reader.pan(seconds: windowSeconds))
        commits.silent += session.frames.count - known
        reader.press(Key.f1)
        reader.pan(seconds: 2.5)  // most of the orientation: the window has the page's sentences
        known = session.frames.count
        speakingWindows.append(reader.pan(seconds: windowSeconds))
        commits.speaking += session.frames.count - known
        if let pid = reader.speechProcess, let resident = ProcessFamily.statusKiB("VmRSS", of: pid),
            let peak = ProcessFamily.statusKiB("VmHWM", of: pid)
        {
            speechProcess = (resident, peak)
        }
        // Paused (space): the sentence stays highlighted, the speech process waits.
        reader.press(Key.space)
        known = session.frames.count
        pausedWindows.append(reader.pan(seconds: windowSeconds))
        commits.paused += session.frames.count - known
    }
    reader.press(Key.escape)
    reader.pan(seconds: 0.7)  // the last batch of turns is written
    reader.pump()

    // Keypad 2 with speech under way: interrupted, and the item the focus moves to said.
    var whileSpeaking: [Double] = []
    for _ in 0..<keys {
        guard reader.firstSample(after: reader.press(Key.f1)) != nil else {
            misses += 1
            continue
        }
        session.run(for: .milliseconds(120))
        guard let latency = reader.firstSample(after: reader.press(Key.keypad2)) else {
            misses += 1
            continue
        }
        whileSpeaking.append(latency)
        session.run(for: .milliseconds(30))
    }
    let turns = (
        silent: reader.turns(in: silentWindows), speaking: reader.turns(in: speakingWindows),
        paused: reader.turns(in: pausedWindows)
    )
    func seconds(_ windows: [ClosedRange<Double>]) -> Double {
        round2(windows.reduce(0) { $0 + $1.upperBound - $1.lowerBound })
    }
    func sentences(in windows: [ClosedRange<Double>]) -> Int {
        reader.starts.filter { start in windows.contains { $0.contains(start.firstSample) } }.count
    }

    func summary(_ values: [Double]) -> [String: Any] {
        [
            "samples": values.count, "p50": round2(percentile(values, 0.5)), "p99": round2(percentile(values, 0.99)),
            "p90": round2(percentile(values, 0.9)), "max": round2(values.max() ?? 0),
        ]
    }
    func ratio(_ a: [Double], _ b: [Double], _ p: Double) -> Double { round2(percentile(a, p) / percentile(b, p)) }
    /// The turns' lengths (wall or CPU) with speech off, reading and paused, and their ratios.
    func figures(_ pick: ((wall: [Double], cpu: [Double])) -> [Double]) -> [String: Any] {
        let silent = pick(turns.silent), speaking = pick(turns.speaking), paused = pick(turns.paused)
        return [
            "silent": summary(silent), "speaking": summary(speaking), "paused": summary(paused),
            "ratio_p50_speaking_to_silent": ratio(speaking, silent, 0.5),
            "ratio_p99_speaking_to_silent": ratio(speaking, silent, 0.99),
            "ratio_p99_paused_to_silent": ratio(paused, silent, 0.99),
        ]
    }
    let p99Ratio = ratio(turns.speaking.wall, turns.silent.wall, 0.99)
    let worstP99 = max(percentile(fromSilence, 0.99), percentile(whileSpeaking, 0.99))
    return [
        "key_to_first_sample_ms": [
            "f1_starting_speech": summary(fromSilence), "keypad_2_while_speaking": summary(whileSpeaking),
            "f1_cold_first_start": round2(cold), "misses": misses, "target_p99": 150,
            "meets_target": worstP99 <= 150 && misses == 0,
        ],
        "main_loop_turn_cpu_ms": figures(\.cpu),
        "main_loop_turn_ms": figures(\.wall).merging([
            "target_ratio": 1.1, "meets_target": p99Ratio <= 1.1,
            "windows": "3 each way, interleaved",
            "window_seconds": [
                "silent": seconds(silentWindows), "speaking": seconds(speakingWindows),
                "paused": seconds(pausedWindows),
            ],
            "commits_in_windows": ["silent": commits.silent, "speaking": commits.speaking, "paused": commits.paused],
            "sentences_started_in_windows": [
                "silent": sentences(in: silentWindows), "speaking": sentences(in: speakingWindows),
                "paused": sentences(in: pausedWindows),
            ],
        ]) { _, new in new },
        "speech_process_while_speaking_mib": [
            "resident": round2(Double(speechProcess?.resident ?? 0) / 1024),
            "peak": round2(Double(speechProcess?.peak ?? 0) / 1024),
        ],
        "reader_method":
            "lectern \(fileName(document)) under the test compositor, 1280x720, continuous vertical, --speech-output null (paced by the speech process as a sound card); key time: CLOCK_MONOTONIC just before the compositor sends wl_keyboard.key; first sample: the speech process's CLOCK_MONOTONIC when it wrote the first buffer of a sentence asked for after the key (logged by the reader); \(keys) keys each; loop turns: poll return to next poll (wall; and the loop thread's CPU time), logged by the reader (LECTERN_LOG_LOOP_TURNS), during a 60 Hz one-finger pan, speech off vs reading the page vs paused (the sentence highlighted, the speech process idle)",
    ]
}

/// Evdev codes of the keys pressed.
private enum Key {
    static let escape: UInt32 = 1
    static let space: UInt32 = 57
    static let f1: UInt32 = 59
    static let keypad2: UInt32 = 80
}

/// The reader's side of the measure: keys and pans sent, the log read as it comes.
private final class SpeechInReader {
    let session: LecternSession
    /// The sentences started so far: when each was asked for and its first sample written.
    private(set) var starts: [(requested: Double, firstSample: Double)] = []
    /// The loop's turns so far: when each ended, how long it took and its CPU time (ms).
    private(set) var loopTurns: [(end: Double, milliseconds: Double, cpu: Double)] = []
    private(set) var speechProcess: Int32?

    init(session: LecternSession) { self.session = session }

    /// Presses and releases `key`; returns when it was sent (CLOCK_MONOTONIC, seconds).
    @discardableResult
    func press(_ key: UInt32) -> Double {
        let sent = SpeechTime.now
        session.compositor.keyboardKey(key, pressed: true)
        session.compositor.keyboardKey(key, pressed: false)
        session.dispatch(timeout: .zero)
        return sent
    }

    /// Key time → the first sample of the first sentence asked for after `sent` (ms), nil
    /// after 3 s.
    func firstSample(after sent: Double) -> Double? {
        let found = session.run(timeout: .seconds(3)) {
            pump()
            return starts.contains { $0.requested >= sent }
        }
        guard found, let start = starts.first(where: { $0.requested >= sent }) else { return nil }
        return (start.firstSample - sent) * 1000
    }

    /// `LecternSession.pan(seconds:)`, the log read at each step.
    @discardableResult
    func pan(seconds: Double) -> ClosedRange<Double> { session.pan(seconds: seconds) { pump() } }

    /// The lengths (ms), wall and CPU, of the turns that ended in `windows`.
    func turns(in windows: [ClosedRange<Double>]) -> (wall: [Double], cpu: [Double]) {
        let turns = loopTurns.filter { turn in windows.contains { $0.contains(turn.end) } }
        return (turns.map(\.milliseconds), turns.map(\.cpu))
    }

    /// Reads the new lines of the log.
    func pump() {
        for line in session.newLogLines() {
            let turns = LoopTurn.parse(line)
            if !turns.isEmpty {
                loopTurns += turns.map { ($0.end, $0.milliseconds, $0.cpu) }
            } else if let range = line.range(of: "started: asked for at ") {
                let numbers = line[range.upperBound...].split(separator: " ").compactMap { Double($0) }
                if numbers.count == 2 { starts.append((numbers[0], numbers[1])) }
            } else if let range = line.range(of: "speech process "), line.contains(" started") {
                speechProcess = line[range.upperBound...].split(separator: " ").first.flatMap { Int32($0) }
            }
        }
    }
}
