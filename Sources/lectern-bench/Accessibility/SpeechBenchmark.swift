import CEspeakNG
import Foundation
import LecternCore
import LecternLinux
import LecternSpeech
import LecternTestSupport
import Logging

/// Speech, through the real speech process (`lectern --speech-worker`) into ALSA's `null`
/// device (paced as a sound card is), from a client on an event loop as the kiosk's:
/// - `first_sample_ms`: a speak request → the sentence's first sample written to the device,
///   measured in the speech process from the request's time (both read CLOCK_MONOTONIC);
/// - `started_on_loop_ms`: the request → the client's `started` event on the loop;
/// - `samples_after_stop_ms`: audio written after a stop request, mid-sentence;
/// - `longest_loop_turn_ms`: the longest the client's loop went without polling over the runs
///   (the client's own work on the loop: sends, events read; the runs' reference work aside);
/// - `resident_mib`: the speech process's resident memory after the runs (and its peak), with
///   the six voices loaded in turn.
///
/// Reference in the same run, interleaved: espeak-ng in this process, the same sentence, from
/// the call to its first buffer of samples (no process, no output): what synthesis alone costs.
///
/// With a PDF, then the same in a real reader (`measureSpeechInReader`): a key → the first
/// sample, `--keys` times each way, and the main loop's turns with speech on and off.
func runSpeechBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 50
    let sentence = "The museum opens at nine in the morning, and closes at six in the evening."
    let loop = try EventLoop(clock: SystemClock())
    var settings = SpeechClient.Settings()
    settings.executable = try LecternProcess.lecternExecutable().path
    settings.output = .alsa(device: "null")
    let client = SpeechClient(settings: settings, loop: loop, logger: Logger(label: "speech-bench"))
    defer { client.close() }
    var events: [SpeechClient.Event] = []
    client.onEvent = { events.append($0) }
    func run(until condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError(description: "the speech process did not answer")
            }
            try loop.runOnce(timeout: .milliseconds(50))
        }
    }
    try run { client.state.output != nil || client.state.outputFailure != nil }
    if let failure = client.state.outputFailure { throw BenchmarkError(description: failure) }

    var error: UnsafePointer<CChar>?
    guard CEspeakNG_initialize(20, &error) > 0 else {
        throw BenchmarkError(description: "espeak-ng does not start here")
    }
    func referenceFirstBuffer() -> Double {
        let start = ContinuousClock.now
        // Abort at the first buffer: the time to it is what is measured.
        _ = CEspeakNG_synthesize(sentence, { _, _, _ in 1 }, nil)
        return (ContinuousClock.now - start).seconds * 1000
    }

    var firstSample: [Double] = []
    var longestTurn = 0.0
    var onLoop: [Double] = []
    var afterStop: [Double] = []
    var reference: [Double] = []
    let rate = Double(client.state.sampleRate ?? 22050)
    for index in 0..<runs {
        reference.append(referenceFirstBuffer())
        events.removeAll()
        let start = ContinuousClock.now
        loop.resetLongestTurn()
        client.speak([SpeechSentence(id: index, text: sentence)])
        try run { events.contains(.started(index)) }
        onLoop.append((ContinuousClock.now - start).seconds * 1000)
        firstSample.append((client.state.lastStartLatency ?? .nan) * 1000)
        // Let some of it play, then stop it.
        try loop.runOnce(timeout: .milliseconds(100))
        client.stop()
        try run { events.contains(.stopped(index)) || events.contains(.finished(index)) }
        longestTurn = max(longestTurn, loop.longestTurn.seconds * 1000)
        afterStop.append(Double(client.state.lastSamplesAfterStop ?? 0) / rate * 1000)
    }
    for language in ["de", "fr", "es", "ar", "he", "en"] {
        client.setLanguage(language)
        try run { client.state.voice?.language == language }
        client.speak([SpeechSentence(id: -1, text: "1 2 3")])
        try run { !client.state.isSpeaking }
    }
    let status = (try? String(contentsOfFile: "/proc/\(client.state.pid ?? 0)/status", encoding: .utf8)) ?? ""
    func kibibytes(_ field: String) -> Double {
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    func summary(_ values: [Double]) -> [String: Any] {
        [
            "p50": round2(percentile(values, 0.5)), "p99": round2(percentile(values, 0.99)),
            "max": round2(values.max() ?? 0),
        ]
    }
    let loadBefore = loadAverages()
    var inReader: [String: Any] = [:]
    if let document = options.documents.last {
        client.close()  // before the reader's speech process starts
        inReader = try measureSpeechInReader(
            document: document, keys: options.keys ?? 200, windowSeconds: options.seconds ?? 5)
    }
    try printJSON(
        inReader.merging([
            "benchmark": "speech", "runs": runs, "output": client.state.output ?? "",
            "method":
                "a speak request from a client on an event loop to the speech process, ALSA null device; p50/p99 over \(runs) runs; reference: espeak-ng in this process, call to first buffer, interleaved",
            "first_sample_ms": summary(firstSample), "started_on_loop_ms": summary(onLoop),
            "samples_after_stop_ms": summary(afterStop), "espeak_first_buffer_ms": summary(reference),
            "resident_mib": round2(kibibytes("VmRSS") / 1024), "resident_peak_mib": round2(kibibytes("VmHWM") / 1024),
            "restarts": client.state.restarts, "longest_loop_turn_ms": round2(longestTurn),
            "load_average_before_reader": loadBefore, "load_average_after": loadAverages(),
        ]) { _, new in new })
}
