import Foundation

/// Peak RSS of Lectern (`VmHWM`) with the 15,000-page document minus with a 1-page document,
/// at the default cache budget, and the absolute peak; at each size, runs interleaved
/// (1-page, 15,000-page, 1-page, …). Lectern is read once it has settled: first page sharp,
/// page sizes read, prefetch done; for the 15,000-page document also after a jump to page 9000
/// (page tree walked, another page rendered).
func runMemoryBenchmark(arguments: [String]) throws {
    let options = BenchOptions(arguments)
    let runs = options.runs ?? 3
    var sizes = options.sizes
    let documents = options.documents
    guard documents.count == 2 else {
        throw BenchmarkError(description: "memory needs two PDFs: a 1-page one and the 15,000-page one")
    }
    if sizes.isEmpty { sizes = [(1280, 720), (1920, 1080)] }
    let small = documents[0], large = documents[1]
    var results: [[String: Any]] = []
    for (width, height) in sizes {
        var smallPeaks: [Double] = [], largePeaks: [Double] = [], largeSettledPeaks: [Double] = []
        var mutoolSmall: [Double] = [], mutoolLarge: [Double] = []
        var pagesSmall: [Double] = [], pagesLarge: [Double] = []
        var readers: [Double] = [], workers: [Double] = [], audits: [Double] = []
        let box = (width - 2 * pageMargin, height - 2 * pageMargin)
        for _ in 0..<runs {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-bench.pam").path
            func draw(_ document: String, _ page: Int) -> [String] {
                ["draw", "-q", "-w", "\(box.0)", "-h", "\(box.1)", "-F", "pam", "-o", output, document, "\(page)"]
            }
            if let a = try mutoolPeakResidentKiB(["pages", small]), let b = try mutoolPeakResidentKiB(["pages", large])
            {
                pagesSmall.append(Double(a) / 1024)
                pagesLarge.append(Double(b) / 1024)
            }
            if let a = try mutoolPeakResidentKiB(draw(small, 1)), let b = try mutoolPeakResidentKiB(draw(large, 9000)) {
                mutoolSmall.append(Double(a) / 1024)
                mutoolLarge.append(Double(b) / 1024)
            }
            let one = try peakMiB(document: small, width: width, height: height, jumpTo: nil)
            smallPeaks.append(one.afterJump)
            readers.append(one.reader)
            workers.append(one.worker)
            let large = try peakMiB(document: large, width: width, height: height, jumpTo: 9000)
            largeSettledPeaks.append(large.settled)
            largePeaks.append(large.afterJump)
            audits.append(large.audit)
        }
        let difference = median(zip(largePeaks, smallPeaks).map { $0 - $1 })
        let absolute = median(largePeaks)
        results.append([
            "size": "\(width)x\(height)",
            "runs": runs,
            "peak_rss_1_page_mib_median": round1(median(smallPeaks)),
            "peak_rss_1_page_mib_all": smallPeaks.map(round1),
            "rss_1_page_reader_mib_median": round1(median(readers)),
            "rss_1_page_reader_mib_all": readers.map(round1),
            "rss_1_page_worker_mib_median": round1(median(workers)),
            "audit_worker_peak_rss_15000_pages_mib_median": round1(median(audits)),
            "target_reader_mib": 20.0,
            "peak_rss_15000_pages_mib_median": round1(absolute),
            "peak_rss_15000_pages_mib_all": largePeaks.map(round1),
            "peak_rss_15000_pages_before_jump_mib_median": round1(median(largeSettledPeaks)),
            "difference_mib_median": round1(difference),
            "reference_mutool_draw_peak_rss_1_page_mib_median": round1(median(mutoolSmall)),
            "reference_mutool_draw_peak_rss_15000_pages_page_9000_mib_median": round1(median(mutoolLarge)),
            "reference_mutool_difference_mib_median": round1(median(zip(mutoolLarge, mutoolSmall).map { $0 - $1 })),
            "reference_mutool_pages_difference_mib_median": round1(median(zip(pagesLarge, pagesSmall).map { $0 - $1 })),
            "reference_mutool_pages_peak_rss_15000_pages_mib_median": round1(median(pagesLarge)),
            "target_difference_mib": 15.0,
            "target_absolute_mib": 60.0,
            "meets_difference_target": difference <= 15,
            "meets_absolute_target": absolute <= 60,
        ])
    }
    try printJSON([
        "benchmark": "peak RSS",
        "method":
            "VmRSS of the reader and (apart) of the render worker once settled on the 1-page document; VmHWM of the lectern process plus that of its render worker (default cache budget; not the document audit's exec'd worker, whose peak is given apart) once settled: first page sharp, page sizes read, no commit for 400 ms; for the 15,000-page document read again after 9000 + Enter and settling. Difference = 15,000-page peak minus 1-page peak of the same run (runs interleaved), median. Reference: peak RSS (GNU time %M) of mutool draw of page 1 of the 1-page document and page 9000 of the 15,000-page one at the same size, same run; and of mutool pages (reads every page's boxes, as Lectern does after opening) on both documents",
        "documents": [fileName(small), fileName(large)],
        "results": results,
    ])
}

private func peakMiB(
    document: String, width: Int32, height: Int32, jumpTo page: Int?
) throws -> (
    settled: Double, afterJump: Double, reader: Double, worker: Double, audit: Double
) {
    let session = try LecternSession(document: document, width: width, height: height, keyboard: true)
    defer { session.close() }
    guard session.waitForLog("read the sizes of", timeout: .seconds(60)), session.settle() else {
        throw BenchmarkError(description: "lectern did not settle on \(document): \(session.log)")
    }
    // The reader and its render worker; the document audit's worker (exec'd, niced, per document
    // opened) apart: what it adds while it runs.
    let settled = Double(try session.readerAndWorkerPeakKiB()) / 1024
    let reader = Double(try session.residentKiB()) / 1024
    let worker = Double(try session.familyResidentKiB()) / 1024 - reader
    func audit() throws -> Double { Double(try session.peakResidentKiB() - session.readerAndWorkerPeakKiB()) / 1024 }
    guard let page else { return (settled, settled, reader, worker, try audit()) }
    session.compositor.keyboardEnter()
    session.settle(quiet: .milliseconds(200))
    let offset = session.log.utf8.count
    for digit in String(page) {
        session.compositor.keyboardKey(EvdevKey.digit(digit), pressed: true)
        session.compositor.keyboardKey(EvdevKey.digit(digit), pressed: false)
        session.run(for: .milliseconds(20))
    }
    session.compositor.keyboardKey(EvdevKey.enter, pressed: true)
    session.compositor.keyboardKey(EvdevKey.enter, pressed: false)
    guard session.waitForLog("view state: page \(page)\n", after: offset, timeout: .seconds(10)), session.settle()
    else {
        throw BenchmarkError(description: "lectern did not jump to page \(page): \(session.log(after: offset))")
    }
    return (settled, Double(try session.readerAndWorkerPeakKiB()) / 1024, reader, worker, try audit())
}
