import Foundation

/// Touch-to-commit latency over a scripted pan at 60 Hz with tiles cached: for each
/// `wl_touch.motion` (+ frame), the time from sending it to the first later commit whose pixels
/// differ from the commit before (the frame that reflects it). The test compositor dispatches
/// with 1 ms timeouts between events and answers frame callbacks at once, so Lectern is never
/// held back by a frame clock and the figure is Lectern's own input-to-commit time (epoll wakes
/// the benchmark on the commit; its sleep granularity does not enter).
///
/// Reference in the same run: an `xdg_wm_base.ping` → pong round trip through Lectern's event
/// loop, sent half-way between motion events every 6th frame: what any answer from Lectern costs
/// without drawing.
func runTouchLatencyBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let seconds = options.seconds ?? 10
    let (width, height) = options.size
    guard let document = options.documents.last else { throw BenchmarkError(description: "touch needs a PDF") }

    let session = try LecternSession(
        document: document, options: ["--scroll", "continuous", "--direction", "vertical"], width: width,
        height: height)
    defer { session.close() }
    guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
        throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
    }

    // The finger: down low, up to `top` (the document scrolls down), then up and down over
    // the same 300 px at a constant 4 px per event (240 px/s): every event moves the page by
    // whole pixels, so every event has a frame of its own to show (a sine path would move
    // less than a pixel per event at its turns, and those events change nothing).
    let period = 16_666_667  // ns: 60 Hz
    let step = 4.0
    let x = Double(width) / 2
    let top = Double(height) / 2 - 150
    func fingerY(_ t: Double) -> Double {
        let travel = (t * 60).rounded() * step
        let leg = travel.truncatingRemainder(dividingBy: 600)
        return top + (leg < 300 ? leg : 600 - leg)
    }
    let compositor = session.compositor
    // Start lower than the sweep, so the document never reaches its top (no rubber band).
    let bottom = Double(height) - 20
    compositor.touchDown(id: 0, x: x, y: bottom)
    compositor.touchFrame()
    session.dispatch(timeout: .zero)

    /// Sends motion events at 60 Hz for `duration` seconds along `path`; returns their send times.
    func drag(
        duration: Double, pings: Bool, path: (Double) -> Double
    ) -> (
        sent: [ContinuousClock.Instant], pingTrips: [Double]
    ) {
        var sent: [ContinuousClock.Instant] = []
        var pingTrips: [Double] = []
        var pendingPing: (serial: UInt32, start: ContinuousClock.Instant)?
        var lastPing = -1
        let start = ContinuousClock.now
        let count = Int(duration * 60)
        for k in 0..<count {
            let due = start + .nanoseconds(k * period)
            while ContinuousClock.now < due {
                session.dispatch(timeout: min(.milliseconds(1), due - ContinuousClock.now))
                if let ping = pendingPing, compositor.pongs.contains(ping.serial) {
                    pingTrips.append(milliseconds(ContinuousClock.now - ping.start))
                    pendingPing = nil
                }
                if pings, pendingPing == nil, k % 6 == 3, lastPing != k,
                    ContinuousClock.now >= due - .nanoseconds(period / 2)
                {
                    lastPing = k
                    pendingPing = (compositor.ping(), ContinuousClock.now)
                    session.dispatch(timeout: .zero)
                }
            }
            sent.append(ContinuousClock.now)
            compositor.touchMotion(id: 0, x: x, y: path(Double(k) / 60))
            compositor.touchFrame()
            session.dispatch(timeout: .zero)  // flushes the event to Lectern
        }
        return (sent, pingTrips)
    }

    // Warm-up: the same path once (every tile it needs is rendered), then hold still until
    // Lectern stops committing, with the finger still down.
    _ = drag(duration: (bottom - top) / step / 60, pings: false) { t in bottom - (t * 60).rounded() * step }
    _ = drag(duration: 2.5, pings: false, path: fingerY)
    session.settle(quiet: .milliseconds(300), timeout: .seconds(10))
    let firstMeasured = (session.lastFrame?.sequence ?? 0) + 1

    let (sent, pingTrips) = drag(duration: seconds, pings: true, path: fingerY)
    session.run(for: .milliseconds(100))
    // Hold still before lifting so the release does not fling.
    session.run(for: .milliseconds(200))
    compositor.touchUp(id: 0)
    compositor.touchFrame()
    session.settle(quiet: .milliseconds(300), timeout: .seconds(5))

    let changed = session.frames.filter { $0.sequence >= firstMeasured && $0.changed }
    var latencies: [Double] = []
    var coalesced = 0, unanswered = 0
    var reflecting = Set<Int>()
    var next = 0
    for (i, time) in sent.enumerated() {
        while next < changed.count, changed[next].timestamp <= time { next += 1 }
        guard next < changed.count else {
            unanswered += 1
            continue
        }
        let frame = changed[next]
        // The next event went out before this frame came: one frame answers both.
        if i + 1 < sent.count, sent[i + 1] < frame.timestamp { coalesced += 1 }
        reflecting.insert(frame.sequence)
        latencies.append(milliseconds(frame.timestamp - time))
    }
    let measuredCommits = session.frames.filter { $0.sequence >= firstMeasured && $0.timestamp <= sent.last! }
    let p99 = percentile(latencies, 0.99)
    try printJSON([
        "benchmark": "touch-to-commit latency",
        "method":
            "continuous vertical scrolling, \(width)x\(height); one finger down, a warm-up pass over the path, hold until no commit for 300 ms, then \(Int(seconds)) s of wl_touch.motion+frame at 60 Hz (finger y sweeps 300 px up and down at a constant 4 px per event); latency = first commit after the event whose pixels differ from the previous commit; the test compositor answers frame callbacks at once (dispatching with <= 1 ms timeouts)",
        "document": fileName(document),
        "size": "\(width)x\(height)",
        "events": sent.count,
        "count": latencies.count,
        "p50_ms": round2(percentile(latencies, 0.5)),
        "p95_ms": round2(percentile(latencies, 0.95)),
        "p99_ms": round2(p99),
        "max_ms": round2(latencies.max() ?? .nan),
        "events_over_16_7_ms": latencies.filter { $0 > 16.7 }.count,
        "coalesced_events": coalesced,
        "events_without_a_changed_commit": unanswered,
        "commits_during_pan": measuredCommits.count,
        "unchanged_commits_during_pan": measuredCommits.filter { !$0.changed }.count,
        "reference_ping_round_trip_ms_median": round2(median(pingTrips)),
        "reference_ping_round_trip_ms_p99": round2(percentile(pingTrips, 0.99)),
        "reference_pings": pingTrips.count,
        "p50_ratio_to_ping_round_trip": round2(percentile(latencies, 0.5) / median(pingTrips)),
        "target_p99_ms": 16.7,
        "meets_target": p99 < 16.7,
    ])
}
