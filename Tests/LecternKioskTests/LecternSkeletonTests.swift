import Foundation
import LecternPDF
import LecternTestSupport
import Testing

/// Lectern as a user sees it: the real binary, driven by the test compositor over a real socket.
@Suite("Lectern through the test compositor", .serialized)
struct LecternSkeletonTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Lectern shows `document`; returns the compositor, the process and the first commit.
    func launch(
        _ arguments: [String], width: Int32 = 1280, height: Int32 = 720
    ) throws
        -> (TestCompositor, LecternProcess)
    {
        let compositor = try TestCompositor(outputWidth: width, outputHeight: height)
        let process = try LecternProcess(arguments: arguments, environment: compositor.environment)
        return (compositor, process)
    }

    /// Waits until Lectern has committed nothing new for `quiet` (tiles keep arriving for a
    /// moment after the first frame).
    @discardableResult
    func settle(
        _ compositor: TestCompositor, quiet: Duration = .milliseconds(600), timeout: Duration = .seconds(15)
    )
        -> Bool
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let count = compositor.commitCount
            if !compositor.wait(timeout: quiet, until: { compositor.commitCount != count }) { return true }
        }
        return false
    }

    func stop(_ compositor: TestCompositor, _ process: LecternProcess) throws -> Int32? {
        process.terminate()
        let status = process.waitForExit(timeout: .seconds(10), dispatching: compositor)
        try compositor.teardown()
        return status
    }

    /// The fraction of pixels in the middle third that are page-white.
    func whiteFraction(_ commit: Commit) -> Double {
        var white = 0, total = 0
        for y in stride(from: commit.height / 3, to: 2 * commit.height / 3, by: 3) {
            for x in stride(from: commit.width / 3, to: 2 * commit.width / 3, by: 3) {
                total += 1
                if commit.pixel(x: x, y: y) & 0x00FF_FFFF == 0x00FF_FFFF { white += 1 }
            }
        }
        return Double(white) / Double(max(total, 1))
    }

    @Test("commits a frame of the configured size that shows the page, then one of a new size")
    func showsPageAndFollowsConfigure() throws {
        let (compositor, process) = try launch([Self.fixture("text-3pages.pdf")])
        #expect(compositor.wait(timeout: .seconds(15)) { compositor.commits.contains { !$0.isUniform } })
        let first = try #require(compositor.commits.last)
        #expect(first.width == 1280 && first.height == 720)
        #expect(first.configureAcked, "the configure was acknowledged before the buffer was attached")
        #expect(whiteFraction(first) > 0.5, "the middle of the screen shows the white page")
        #expect(first.darkFraction() > 0.001, "text on the page is drawn")
        #expect(compositor.toplevel?.wantsFullscreen == true)

        let count = compositor.commits.count
        compositor.configure(width: 600, height: 900)
        #expect(
            compositor.wait(timeout: .seconds(15)) {
                compositor.commits.count > count && compositor.commits.last!.width == 600
                    && whiteFraction(compositor.commits.last!) > 0.5
            })
        let resized = try #require(compositor.commits.last)
        #expect(resized.height == 900)
        #expect(try stop(compositor, process) == 0, "SIGTERM ends Lectern cleanly")
    }

    @Test("a 0x0 configure means: use the output size")
    func zeroConfigureUsesOutputSize() throws {
        let compositor = try TestCompositor(outputWidth: 1024, outputHeight: 600)
        compositor.autoConfigure = false
        let process = try LecternProcess(
            arguments: [Self.fixture("text-3pages.pdf")], environment: compositor.environment)
        #expect(compositor.wait(timeout: .seconds(10)) { compositor.toplevel != nil })
        compositor.configure(width: 0, height: 0)
        #expect(compositor.wait(timeout: .seconds(15)) { compositor.commits.contains { !$0.isUniform } })
        let commit = try #require(compositor.commits.last)
        #expect(commit.width == 1024 && commit.height == 600)
        #expect(try stop(compositor, process) == 0)
    }

    @Test("an unchanged screen commits nothing more")
    func idleCostsNothing() throws {
        let (compositor, process) = try launch([Self.fixture("text-3pages.pdf")])
        #expect(compositor.wait(timeout: .seconds(15)) { compositor.commits.contains { !$0.isUniform } })
        #expect(settle(compositor), "the tiles arrive and the frames stop")
        let settled = compositor.commitCount
        compositor.dispatch(timeout: .milliseconds(1500))
        _ = compositor.wait(timeout: .milliseconds(1500)) { false }
        #expect(compositor.commitCount == settled, "no frames while nothing changes")
        #expect(try stop(compositor, process) == 0)
    }

    @Test("losing the compositor ends Lectern with a non-zero status and a message")
    func lostConnection() throws {
        let (compositor, process) = try launch([Self.fixture("text-3pages.pdf")])
        #expect(compositor.wait(timeout: .seconds(15)) { !compositor.commits.isEmpty })
        compositor.disconnectClients()
        let status = process.waitForExit(timeout: .seconds(10), dispatching: compositor)
        #expect(status != nil && status != 0, "exit status \(String(describing: status))")
        #expect(process.errorOutput.contains("lost the connection to the Wayland compositor"))
        try compositor.teardown()
    }

    @Test(
        "bad documents keep Lectern up and show a readable message",
        arguments: [
            ("does-not-exist.pdf", "no such file"),
            ("not-a-pdf.pdf", "not a PDF"),
            ("zero-pages.pdf", "no pages"),
            ("encrypted.pdf", "password"),
        ])
    func badDocument(name: String, logged: String) throws {
        let (compositor, process) = try launch([Self.fixture(name)])
        #expect(compositor.wait(timeout: .seconds(15)) { !compositor.commits.isEmpty })
        let commit = try #require(compositor.commits.last)
        #expect(!commit.isUniform, "never a blank screen")
        // The message card: bright text pixels in the middle band.
        var bright = 0
        for y in stride(from: commit.height / 3, to: 2 * commit.height / 3, by: 2) {
            for x in stride(from: 0, to: commit.width, by: 2) where Commit.luminance(commit.pixel(x: x, y: y)) > 200 {
                bright += 1
            }
        }
        #expect(bright > 200, "a message is drawn (\(bright) bright pixels)")
        compositor.dispatch(timeout: .milliseconds(500))
        #expect(process.isRunning, "Lectern stays up")
        #expect(process.errorOutput.lowercased().contains(logged.lowercased()), "logged: \(process.errorOutput)")
        #expect(try stop(compositor, process) == 0)
    }

    @Test("a truncated document shows what can be recovered, or a message; never a crash")
    func truncatedDocument() throws {
        let (compositor, process) = try launch([Self.fixture("truncated.pdf")])
        #expect(compositor.wait(timeout: .seconds(15)) { !compositor.commits.isEmpty })
        compositor.dispatch(timeout: .milliseconds(300))
        let commit = try #require(compositor.commits.last)
        #expect(!commit.isUniform)
        #expect(process.isRunning)
        let log = process.errorOutput
        #expect(log.contains("repaired") || log.contains("damaged"), "the log says what happened: \(log)")
        #expect(try stop(compositor, process) == 0)
    }

    @Test("--frame-dump writes what was committed as a PNG")
    func frameDump() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-dump-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("frame.png").path
        let (compositor, process) = try launch([Self.fixture("text-3pages.pdf"), "--frame-dump", dump])
        #expect(compositor.wait(timeout: .seconds(15)) { compositor.commits.contains { !$0.isUniform } })
        #expect(settle(compositor))
        let committed = try #require(compositor.commits.last)
        #expect(try stop(compositor, process) == 0)
        // The PNG is exactly what the compositor received last.
        let image = try PNGReader.read(path: dump)
        #expect(image.width == 1280 && image.height == 720)
        var mismatches = 0
        for y in 0..<committed.height {
            for x in 0..<committed.width where committed.pixel(x: x, y: y) & 0xFF_FFFF != image.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(mismatches) pixels differ between the frame dump and the committed frame")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["frame.png"], "the write is atomic: no temporary files left behind")
    }
}
