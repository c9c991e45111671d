// lectern-bench: benchmarks that print JSON numbers measured against a reference in the
// same run (see kiosk/bench).
import Foundation

let usage = """
    usage: lectern-bench layout
           lectern-bench compose PDF
           lectern-bench pan [--seconds S] [--floor PAN-FLOOR] PDF
           lectern-bench curl PDF
           lectern-bench first-frame --floor FLOOR [--runs N] [--size WxH] PDF...
           lectern-bench first-frame-warm --floor FLOOR [--runs N] [--size WxH] PDF...
           lectern-bench startup --hello HELLO [--runs N] PDF
           lectern-bench latency [--runs N] [--size WxH] SHORT.pdf 15000-PAGES.pdf
           lectern-bench contrast [--runs N] [--size WxH] TEXT-36.pdf PHOTO.pdf
           lectern-bench memory [--runs N] [--size WxH]... 1-PAGE.pdf 15000-PAGES.pdf
           lectern-bench touch [--seconds S] [--size WxH] PDF
           lectern-bench rest [--seconds S] [--size WxH] PDF
           lectern-bench parallel TEXT.pdf PHOTO.pdf
           lectern-bench isolation [--runs N] [--size WxH] TEXT.pdf 15000-PAGES.pdf PHOTO.pdf
           lectern-bench reload [--runs N] [--size WxH] A.pdf B.pdf [A2.pdf B2.pdf]...
           lectern-bench recovery [--runs N] [--size WxH] PDF
           lectern-bench control [--seconds S] [--size WxH] PDF
           lectern-bench soak [--events N] [--seed S] [--size WxH] [--layout single|continuous|double]...
                              [--lectern-option OPTION]... [--max-growth-mib M] [--check] PDF
           lectern-bench navigation [--runs FLICKS] [--size WxH] 15000-PAGES.pdf
           lectern-bench search [--runs N] 15000-PAGES.pdf
           lectern-bench selection PDF
           lectern-bench typing [--runs KEYS] [annotations.pdf]
           lectern-bench speech [--runs N] [--keys N] [--seconds WINDOW] [PDF]
           lectern-bench large-print [--runs N] [--seconds S] [--size WxH] TEXT-36.pdf
           lectern-bench audit [--runs N] [--seconds S] [--size WxH] TEXT-36.pdf 15000-PAGES.pdf
           lectern-bench book [--runs N] [--size WxH]

    """

let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarks: [String: ([String]) throws -> Void] = [
    "layout": { _ in runLayoutBenchmark() },
    "compose": runComposeBenchmark,
    "pan": runPanBenchmark,
    "curl": runCurlBenchmark,
    "first-frame": runFirstFrameBenchmark,
    "first-frame-warm": runWarmStartBenchmark,
    "startup": runStartupBenchmark,
    "latency": runPageTurnBenchmark,
    "contrast": runContrastBenchmark,
    "memory": runMemoryBenchmark,
    "touch": runTouchLatencyBenchmark,
    "rest": runRestBenchmark,
    "parallel": runParallelRenderBenchmark,
    "isolation": runIsolationBenchmark,
    "reload": runReloadBenchmark,
    "soak": runSoakBenchmark,
    "navigation": runNavigationBenchmark,
    "search": runSearchBenchmark,
    "typing": runFormTypingBenchmark,
    "recovery": runRecoveryBenchmark,
    "control": runControlSocketBenchmark,
    "selection": runTextSelectionBenchmark,
    "speech": runSpeechBenchmark,
    "large-print": runLargePrintBenchmark,
    "audit": runAuditBenchmark,
    "book": runBookBenchmark,
]
guard let name = arguments.first, let benchmark = benchmarks[name] else {
    FileHandle.standardError.write(usage.data(using: .utf8)!)
    exit(64)
}
do {
    try benchmark(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write("lectern-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
