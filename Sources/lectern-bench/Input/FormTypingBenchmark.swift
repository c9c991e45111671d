import Foundation
import LecternTestSupport

/// Typing into a form field: for each key press on a hardware keyboard (`wl_keyboard.key`
/// pressed and released), the time from sending it to the first commit whose picture changed
/// (the annotation bar showing the character typed, or the one Backspace took away). Keys
/// alternate between a letter and Backspace, so every key changes the field.
///
/// Reference in the same run: an `xdg_wm_base.ping` → pong round trip through Lectern's event
/// loop between key presses: what any answer from Lectern costs without drawing. Target: p99
/// under one 60 Hz frame (16.7 ms).
///
/// The field is the `name` text field of Tests/Fixtures/annotations.pdf (page point 150, 710),
/// at 1280×720 where the page is drawn 538 px wide at (371, 12).
func runFormTypingBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let keys = options.runs ?? 200
    let document = try freshDirectory("typing").appendingPathComponent("form.pdf").path
    try FileManager.default.copyItem(
        atPath: options.documents.last ?? "Tests/Fixtures/annotations.pdf", toPath: document)
    let session = try LecternSession(document: document, width: 1280, height: 720, keyboard: true, logLevel: "info")
    defer { session.close() }
    guard session.settle() else { throw BenchmarkError(description: "lectern did not settle: \(session.log)") }
    session.compositor.keyboardEnter()
    let scale = 538.0 / 612
    session.tap(x: 371 + 150 * scale, y: 12 + (792 - 710) * scale)
    session.settle(quiet: .milliseconds(300))

    var latencies: [Double] = []
    var pings: [Double] = []
    var misses = 0
    for k in 0..<keys {
        // A ping between keys: the loop's bare answer time.
        let serial = session.compositor.ping()
        let pingSent = ContinuousClock.now
        if session.run(timeout: .seconds(1), until: { session.compositor.pongs.contains(serial) }) {
            pings.append(milliseconds(ContinuousClock.now - pingSent))
        }
        session.run(for: .milliseconds(20))
        let known = session.lastFrame?.sequence ?? 0
        let key: UInt32 = k % 2 == 0 ? 30 : 14  // a, Backspace
        let sent = ContinuousClock.now
        session.compositor.keyboardKey(key, pressed: true)
        session.compositor.keyboardKey(key, pressed: false)
        let shown = session.run(timeout: .seconds(1)) {
            session.frames.contains { $0.sequence > known && $0.changed }
        }
        guard shown, let frame = session.frames.first(where: { $0.sequence > known && $0.changed }) else {
            misses += 1
            continue
        }
        latencies.append(milliseconds(frame.timestamp - sent))
        session.run(for: .milliseconds(20))
    }
    let p99 = percentile(latencies, 0.99)
    try printJSON([
        "benchmark": "typing",
        "document": fileName(options.documents.last ?? "annotations.pdf"), "keys": keys, "misses": misses,
        "method":
            "hardware key press+release into a form field to the first changed commit; reference: xdg_wm_base ping round trip between keys, same run",
        "key_to_commit_ms": [
            "median": round2(median(latencies)), "p99": round2(p99), "max": round2(latencies.max() ?? 0),
        ],
        "ping_round_trip_ms": ["median": round2(median(pings)), "p99": round2(percentile(pings, 0.99))],
        "target_p99_ms": 16.7, "meets_target": p99 < 16.7 && misses == 0,
        "load_average": loadAverages(),
    ])
}
