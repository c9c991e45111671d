import Foundation
import Synchronization
import Testing

@testable import LecternPDF

/// MuPDF can print thousands of warnings for one broken file; the log gets a few and a count.
@Suite struct LogRateLimiterTests {
    @Test func passesTheLimitThenSuppressesThenReportsTheCount() {
        var limiter = LogRateLimiter(limit: 3, window: .seconds(1))
        #expect(limiter.admit(at: .zero) == .emit(suppressedBefore: 0))
        #expect(limiter.admit(at: .milliseconds(10)) == .emit(suppressedBefore: 0))
        #expect(limiter.admit(at: .milliseconds(20)) == .emit(suppressedBefore: 0))
        #expect(limiter.admit(at: .milliseconds(30)) == .suppress)
        #expect(limiter.admit(at: .milliseconds(999)) == .suppress)
        #expect(limiter.admit(at: .seconds(1)) == .emit(suppressedBefore: 2))
        #expect(limiter.admit(at: .milliseconds(1500)) == .emit(suppressedBefore: 0))
    }

    @Test func quietPeriodsReportNothing() {
        var limiter = LogRateLimiter(limit: 1, window: .seconds(1))
        #expect(limiter.admit(at: .zero) == .emit(suppressedBefore: 0))
        #expect(limiter.admit(at: .seconds(5)) == .emit(suppressedBefore: 0))
    }

    @Test func aTruncatedFileDoesNotFloodOrCrash() throws {
        // Rendering every page of truncated.pdf makes MuPDF report a hundred errors and more
        // through the sink; the log gets at most 20 a second of them, and one line saying how
        // many were dropped when the next second's first line comes.
        // A copy of its own: the log is limited per file, and other tests open the fixture too.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("truncated-\(UUID()).pdf").path
        try FileManager.default.copyItem(atPath: Fixture.path("truncated.pdf"), toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = Mutex<[String]>([])
        MuPDFLog.observer.withLock { $0 = { source, line in if source == path { lines.withLock { $0.append(line) } } } }
        defer { MuPDFLog.observer.withLock { $0 = nil } }
        let document = try PDFDocument(path: path)
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<3 {
            for index in 0..<document.pageCount { _ = try? Bitmap.renderPage(document, page: index, scale: 0.1) }
        }
        let seconds = Int((clock.now - start).seconds.rounded(.up))
        let logged = lines.withLock { $0 }
        let summaries = logged.filter { $0.hasPrefix("suppressed ") }
        #expect(!logged.isEmpty, "MuPDF's errors about the truncated file reach the log")
        #expect(
            logged.count - summaries.count <= 20 * seconds,
            "at most 20 lines a second in \(seconds) s: \(logged.count - summaries.count) lines")
        #expect(summaries.count <= seconds, "at most one summary a second: \(summaries)")
    }
}
