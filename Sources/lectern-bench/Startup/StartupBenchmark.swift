import Foundation
import LecternTestSupport

/// Process start-up: `lectern --version` from spawn to exit, as a ratio to a Swift hello world
/// that uses Foundation, built the same way (kiosk/bench builds both: release, Swift runtime
/// linked in statically). Also `lectern FILE` with no compositor to connect to (argument
/// parsing, logging set-up, the failed connection and exit status 1), which is the start of a
/// real run rather than of `--version` alone.
///
/// Spawns are interleaved (lectern, hello, lectern without a compositor; the order reversed
/// every other round) so drift on a shared machine hits all alike, after a few unrecorded
/// spawns of each to fill the page cache. Wall time is the figure with the target; CPU time
/// (user + system of the child) is printed beside it because it is less disturbed by other
/// work on the machine.
func runStartupBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 50
    guard let hello = options.hello else { throw BenchmarkError(description: "startup needs --hello PATH") }
    guard let document = options.documents.first else { throw BenchmarkError(description: "startup needs a PDF") }
    let lectern = try LecternProcess.lecternExecutable().path
    var environment = ProcessInfo.processInfo.environment
    environment["WAYLAND_DISPLAY"] = "lectern-bench-no-such-socket"
    environment["WAYLAND_SOCKET"] = nil
    let noCompositor = environment.map { "\($0.key)=\($0.value)" }
    let programs: [(name: String, path: String, arguments: [String], environment: [String]?, status: Int32)] = [
        ("lectern --version", lectern, ["lectern", "--version"], nil, 0),
        ("hello", hello, ["hello"], nil, 0),
        ("lectern FILE, no compositor", lectern, ["lectern", document], noCompositor, 1),
    ]
    var wall = [[Double]](repeating: [], count: programs.count)
    var cpu = [[Double]](repeating: [], count: programs.count)
    for round in -3..<runs {
        let order = round % 2 == 0 ? Array(programs.indices) : programs.indices.reversed()
        for index in order {
            let program = programs[index]
            let (status, elapsed, used) = try spawnAndWait(
                program.path, arguments: program.arguments, environment: program.environment)
            guard status >> 8 == program.status, status & 0x7f == 0 else {
                throw BenchmarkError(description: "\(program.name) ended with wait status \(status)")
            }
            guard round >= 0 else { continue }  // warm-up
            wall[index].append(milliseconds(elapsed))
            cpu[index].append(milliseconds(used))
        }
    }
    let helloWall = median(wall[1]), helloCPU = median(cpu[1])
    let results: [[String: Any]] = programs.indices.map { index in
        [
            "program": programs[index].name,
            "wall_ms_median": round2(median(wall[index])),
            "cpu_ms_median": round2(median(cpu[index])),
            "wall_ratio_to_hello": round2(median(wall[index]) / helloWall),
            "cpu_ratio_to_hello": round2(median(cpu[index]) / helloCPU),
        ]
    }
    try printJSON([
        "benchmark": "start-up",
        "method":
            "posix_spawn -> exit (wait4), stdout and stderr on /dev/null, \(runs) interleaved runs each after 3 unrecorded; hello: a Swift hello world using Foundation, built as lectern is",
        "runs": runs,
        "results": results,
        "ratio": round2(median(wall[0]) / helloWall),
        "target_ratio": 2.0,
    ])
}
