import Foundation
import Glibc
import LecternTestSupport

/// A 60 Hz pan of `--seconds` (10) at 1920×1080 in continuous vertical reading, with the tiles
/// cached (issue 33, item 2): Lectern under the test compositor drawing whole frames (no
/// `wp_viewporter`) and with its pages on a subsurface that the pan moves (`PanSurface`), run
/// after run. Per pan step: the main loop's CPU (`LECTERN_LOG_LOOP_TURNS`), Lectern's whole CPU
/// (reader and render worker, from /proc), the buffers committed; the test compositor's CPU
/// (this process: it copies every committed shm buffer, as a compositor uploading it would);
/// and the reference, a full-frame memcpy measured in the same run. With `--floor`, the same
/// pan of the floor (kiosk/bench-reference/pan-floor.c: the least a client does to follow a finger
/// with a viewport) under the same compositor: each one's main thread's CPU a step, and the ratio.
func runPanBenchmark(arguments: [String]) throws {
    var seconds = 10.0
    var floor: URL?
    var rest = arguments[...]
    while rest.count > 2, let option = rest.first, option == "--seconds" || option == "--floor" {
        let value = rest[rest.startIndex + 1]
        if option == "--floor" { floor = URL(fileURLWithPath: value) } else { seconds = Double(value) ?? seconds }
        rest = rest.dropFirst(2)
    }
    guard let document = rest.last else { throw BenchmarkError(description: "pan needs a PDF") }
    let width: Int32 = 1920, height: Int32 = 1080
    let copy = UnsafeMutableRawPointer.allocate(byteCount: Int(width * height) * 4, alignment: 64)
    defer { copy.deallocate() }
    let memcpy = median(memcpyTimes(width: Int(width), height: Int(height), frames: 240, into: copy))
    var results: [String: Any] = [:]
    var pagesSurfaceThread: Double?
    for (name, viewporter) in [("whole_frames", false), ("pages_surface", true)] {
        let directory = try freshDirectory("lectern-bench-pan")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The pages' surface is the policy's choice (`render.pans`); the compositor offers it or not.
        let policy = directory.appendingPathComponent("lectern.toml")
        try "[render]\npans = \"subsurface\"\n".write(to: policy, atomically: true, encoding: .utf8)
        let session = try LecternSession(
            document: document,
            options: ["--scroll", "continuous", "--direction", "vertical", "--config", policy.path],
            width: width, height: height,
            environment: ["LECTERN_LOG_LOOP_TURNS": "1", "STATE_DIRECTORY": directory.path], viewporter: viewporter)
        defer { session.close() }
        guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
            throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
        }
        var turns: [LoopTurn] = []
        let cost = try measuredPan(session, seconds: seconds) {
            turns += session.newLogLines().flatMap(LoopTurn.parse)
        }
        session.pan(seconds: 0.7) { turns += session.newLogLines().flatMap(LoopTurn.parse) }  // the last batch
        let steps = cost.steps
        let loopCPU = turns.filter { cost.window.contains($0.end) }.reduce(0) { $0 + $1.cpu }
        if viewporter { pagesSurfaceThread = cost.mainThread / steps }
        results[name] = [
            "loop_cpu_ms_per_step": round3(loopCPU / steps),
            "loop_cpu_per_step_vs_memcpy": round3(loopCPU / steps / memcpy),
            "lectern_cpu_ms_per_step": round3(Double(cost.processes) / steps),
            "main_thread_cpu_ms_per_step": round3(cost.mainThread / steps),
            "buffers_committed": cost.buffers,
            "surface_commits": cost.commits,
            "test_compositor_cpu_ms": cost.compositor,
        ]
    }
    if let floor {
        let cost = try floorPan(floor, seconds: seconds, width: width, height: height)
        let perStep = cost.mainThread / cost.steps
        results["floor"] = [
            "main_thread_cpu_ms_per_step": round3(perStep),
            "buffers_committed": cost.buffers,
            "surface_commits": cost.commits,
            "test_compositor_cpu_ms": cost.compositor,
        ]
        if let pagesSurfaceThread {
            results["pages_surface_main_thread_vs_floor"] = round2(pagesSurfaceThread / perStep)
        }
    }
    try printJSON([
        "benchmark": "pan",
        "setup":
            "1920x1080, continuous vertical, \(fileName(document)), a 60 Hz pan of \(seconds) s up and down 300 px with its tiles cached (after a first pan of 2.5 s), under the test compositor without and with wp_viewporter; the floor (with --floor) panned the same way",
        "memcpy_full_frame_ms": round3(memcpy),
        "results": results,
        "load_average": loadAverages(),
    ])
}

/// What a measured pan cost: the client's main thread (ms), all its processes (ms: Lectern's
/// reader and render worker), this process (the test compositor, ms), the buffers and surface commits the compositor got, the pan's steps and its window
/// (`LecternSession.pan`).
private struct PanCost {
    var mainThread: Double
    var processes: Int
    var compositor: Int
    var buffers: Int
    var commits: Int
    var steps: Double
    var window: ClosedRange<Double>
}

/// A first pan of 2.5 s (it renders the tiles the pan reaches), then the measured one of
/// `seconds`; `step` runs after each of its steps.
private func measuredPan(_ session: LecternSession, seconds: Double, step: () -> Void = {}) throws -> PanCost {
    session.pan(seconds: 2.5)
    _ = session.settle()
    _ = session.newLogLines()
    let thread = try session.mainThreadCPUMilliseconds(), processes = try session.cpuMilliseconds()
    let compositor = ownCPUMilliseconds()
    let buffers = session.compositor.bufferCommitCount, commits = session.compositor.surfaceCommitCount
    let window = session.pan(seconds: seconds, step: step)
    return PanCost(
        mainThread: try session.mainThreadCPUMilliseconds() - thread,
        processes: try session.cpuMilliseconds() - processes, compositor: ownCPUMilliseconds() - compositor,
        buffers: session.compositor.bufferCommitCount - buffers,
        commits: session.compositor.surfaceCommitCount - commits,
        steps: Double(max(1, Int(seconds * 60) / 150 * 150)), window: window)
}

/// The same pans of the floor client (no document).
private func floorPan(_ floor: URL, seconds: Double, width: Int32, height: Int32) throws -> PanCost {
    let session = try LecternSession(
        document: "", width: width, height: height, viewporter: true, executable: floor)
    defer { session.close() }
    guard session.run(timeout: .seconds(10), until: { session.compositor.surfaceCommitCount > 0 }), session.settle()
    else {
        throw BenchmarkError(description: "the pan floor showed nothing: \(session.log)")
    }
    return try measuredPan(session, seconds: seconds)
}

/// This process's CPU time (user + system), in milliseconds.
private func ownCPUMilliseconds() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Int(usage.ru_utime.tv_sec) * 1000 + Int(usage.ru_utime.tv_usec) / 1000
    let system = Int(usage.ru_stime.tv_sec) * 1000 + Int(usage.ru_stime.tv_usec) / 1000
    return user + system
}
