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
        // Rendering every page of truncated.pdf makes MuPDF report hundreds of errors through the sink.
        let document = try PDFDocument(path: Fixture.path("truncated.pdf"))
        for index in 0..<document.pageCount {
            _ = try? Bitmap.renderPage(document, page: index, scale: 0.1)
        }
    }
}
