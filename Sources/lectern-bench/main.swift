// lectern-bench: benchmarks that print JSON numbers measured against a reference in the
// same run (see kiosk/bench). Usage: lectern-bench first-frame|layout|compose [options]
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "layout":
    runLayoutBenchmark()
case "compose":
    do {
        try runComposeBenchmark(arguments: Array(arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write("lectern-bench: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
case "first-frame":
    do {
        try runFirstFrameBenchmark(arguments: Array(arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write("lectern-bench: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
default:
    FileHandle.standardError.write(
        "usage: lectern-bench layout | compose PDF | first-frame [--runs N] [--size WxH] PDF...\n".data(using: .utf8)!)
    exit(64)
}
