import Foundation
import LecternTestSupport

/// The control socket under load (issue 15): round trips of `{"command":"status"}` from a client
/// thread of the benchmark, back to back (a 1 ms pause between them), while a finger pans the
/// document at 60 Hz (continuous vertical scrolling: a frame for every touch event), against the
/// same round trips with the view at rest. Also how the frames went meanwhile: commits during
/// the pan and the longest gap between two of them (the socket must not cost frames).
func runControlSocketBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let seconds = options.seconds ?? 10
    let (width, height) = options.size
    guard let document = options.documents.last else { throw BenchmarkError(description: "control needs a PDF") }
    let loadBefore = loadAverages()
    // No saved view applies: LecternProcess keeps it in the compositor's private runtime directory.
    let session = try LecternSession(
        document: document, options: ["--scroll", "continuous", "--direction", "vertical"], width: width,
        height: height, logLevel: "info")
    defer { session.close() }
    guard session.waitForLog("control socket", timeout: .seconds(60)), session.settle() else {
        throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
    }
    let socket = session.compositor.runtimeDirectory.path + "/lectern.sock"

    // At rest: the compositor is dispatched meanwhile, as during the pan.
    let atRest = try StatusLoop(path: socket)
    session.run(for: .seconds(min(seconds, 3)))
    let restTrips = try atRest.stop()

    // Panning: the finger goes up and down over 300 px, 4 px per event (as `touch` does).
    let x = Double(width) / 2, bottom = Double(height) - 20
    let compositor = session.compositor
    compositor.touchDown(id: 0, x: x, y: bottom)
    compositor.touchFrame()
    session.run(for: .milliseconds(16))
    let firstCommit = session.lastFrame?.sequence ?? 0
    let panning = try StatusLoop(path: socket)
    let start = ContinuousClock.now
    var event = 0
    while ContinuousClock.now - start < .seconds(seconds) {
        event += 1
        let leg = (Double(event) * 4).truncatingRemainder(dividingBy: 600)
        compositor.touchMotion(id: 0, x: x, y: bottom - 20 - (leg < 300 ? leg : 600 - leg))
        compositor.touchFrame()
        session.run(timeout: .milliseconds(17)) { ContinuousClock.now - start >= .nanoseconds(16_666_667 * event) }
    }
    let panTrips = try panning.stop()
    compositor.touchUp(id: 0)
    compositor.touchFrame()
    session.settle()
    let frames = session.frames.filter { $0.sequence > firstCommit && $0.timestamp >= start }
    let gaps = zip(frames.dropFirst(), frames).map { milliseconds($0.timestamp - $1.timestamp) }

    let panMedian = median(panTrips), restMedian = median(restTrips)
    try printJSON([
        "benchmark": "control socket",
        "size": "\(width)x\(height)",
        "document": fileName(document),
        "seconds": seconds,
        "method":
            "a client thread sends {\"command\":\"status\"} to Lectern's control socket and reads the reply line, back to back with 1 ms between; wall-clock round trips. During a \(seconds) s pan at 60 Hz (continuous vertical, 4 px per touch event, the test compositor answering frame callbacks at once) and, as the reference, for up to 3 s with the view at rest.",
        "panning": [
            "round_trips": panTrips.count,
            "round_trip_ms_median": round3(panMedian),
            "round_trip_ms_p99": round3(percentile(panTrips, 0.99)),
            "round_trip_ms_max": round3(panTrips.max() ?? .nan),
        ],
        "at_rest": [
            "round_trips": restTrips.count,
            "round_trip_ms_median": round3(restMedian),
            "round_trip_ms_p99": round3(percentile(restTrips, 0.99)),
        ],
        "ratio_of_medians_panning_to_rest": round2(panMedian / restMedian),
        "touch_events": event,
        "commits_while_panning": frames.count,
        "longest_gap_between_commits_ms": round1(gaps.max() ?? .nan),
        "load_average_before": loadBefore,
        "load_average_after": loadAverages(),
        "target": "status answered within a frame (16.7 ms) at p99 while panning",
        "met": percentile(panTrips, 0.99) < 1000.0 / 60,
    ])
}

/// A client thread asking `status` over the control socket again and again until `stop()`.
private final class StatusLoop: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var trips: [Double] = []
    private var stopping = false
    private var failure: String?
    private let done = DispatchSemaphore(value: 0)

    init(path: String) throws {
        fd = try connectControlSocket(path: path)
        Thread.detachNewThread { [self] in
            loop()
            done.signal()
        }
    }

    private func loop() {
        let request = Array("{\"command\":\"status\"}\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !lock.withLock({ stopping }) {
            let start = ContinuousClock.now
            guard write(fd, request, request.count) == request.count else { return fail("write: errno \(errno)") }
            var received = 0
            while !buffer[..<received].contains(0x0A) {
                let count = read(fd, &buffer[received], buffer.count - received)
                guard count > 0 else { return fail("read: \(count), errno \(errno)") }
                received += count
            }
            let trip = milliseconds(ContinuousClock.now - start)
            guard String(decoding: buffer[..<received], as: UTF8.self).contains("\"ok\":true") else {
                return fail("reply: \(String(decoding: buffer[..<received], as: UTF8.self))")
            }
            lock.withLock { trips.append(trip) }
            usleep(1000)
        }
    }

    private func fail(_ message: String) {
        lock.withLock { failure = message }
    }

    /// Ends the loop and returns the round trips in milliseconds.
    func stop() throws -> [Double] {
        lock.withLock { stopping = true }
        done.wait()
        close(fd)
        if let failure = lock.withLock({ failure }) { throw BenchmarkError(description: failure) }
        return lock.withLock { trips }
    }
}
