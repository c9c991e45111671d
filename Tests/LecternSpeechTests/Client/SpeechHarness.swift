import Foundation
import LecternCore
import LecternLinux
import LecternTestSupport
import Logging

@testable import LecternSpeech

/// A speech client on a loop of its own, with the real speech process (`lectern
/// --speech-worker`, real espeak-ng), and the events it told in order.
final class SpeechHarness {
    let loop: EventLoop
    let clock = ManualClock()
    let client: SpeechClient
    private(set) var events: [SpeechClient.Event] = []
    let folder: URL

    /// A client speaking to `output` (by default a WAV file, unpaced, in a fresh folder).
    init(executable: String? = nil, output: ((URL) -> SpeechOutput)? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        loop = try EventLoop(clock: clock)
        var settings = SpeechClient.Settings()
        settings.executable = try executable ?? LecternProcess.lecternExecutable().path
        settings.output = output?(folder) ?? .wav(path: folder.appendingPathComponent("speech.wav").path, paced: false)
        client = SpeechClient(settings: settings, loop: loop, logger: Logger(label: "speech-test"))
        client.onEvent = { [unowned self] in events.append($0) }
    }

    deinit {
        client.close()
        try? FileManager.default.removeItem(at: folder)
    }

    var wavPath: String { folder.appendingPathComponent("speech.wav").path }

    /// Runs the loop until `condition` holds; false if it does not within `turns` polls of at
    /// most 50 ms (a bound on a broken process, not a measure).
    @discardableResult
    func run(turns: Int = 600, until condition: () -> Bool) throws -> Bool {
        for _ in 0..<turns {
            if condition() { return true }
            try loop.runOnce(timeout: .milliseconds(50))
        }
        return condition()
    }

    /// Samples of audio in the WAV file (its data chunk as the header says).
    func wavSamples() throws -> Int {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: wavPath))
        guard bytes.count >= 44 else { return 0 }
        let size = bytes[40..<44].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        return size / 2
    }

    /// The checker's verdict on the WAV file: its exit status and what it printed.
    func check(expect: [String], distractors: [String]) throws -> (status: Int32, output: String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("check-speech.py")
        let process = Process()
        // python3 as on PATH: the one kiosk/install-deps installed pocketsphinx for.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, wavPath, "--expect"] + expect + ["--distractor"] + distractors
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
