import Foundation
import LecternPDF
import LecternTestSupport
import Testing

/// The real `lectern` binary, driven by the test compositor over a real socket: what only a
/// process shows (exit statuses, signals, the frame dump written on the way out). What a
/// visitor sees is tested in process (`DocumentOnScreenTests` and the others).
@Suite("The lectern binary", .serialized)
struct LecternSkeletonTests {
    static let fixtures = LecternHarness.fixtures

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

    @Test("shows the page at the configured size, follows a new size, and SIGTERM ends it with status 0")
    func showsPageAndFollowsConfigure() throws {
        let (compositor, process) = try launch([Self.fixture("text-3pages.pdf")])
        #expect(compositor.wait(timeout: .seconds(15)) { compositor.commits.contains { !$0.isUniform } })
        let first = try #require(compositor.commits.last)
        #expect(first.width == 1280 && first.height == 720)
        #expect(first.configureAcked, "the configure was acknowledged before the buffer was attached")
        #expect(DocumentOnScreenTests.whiteFraction(first) > 0.5, "the middle of the screen shows the white page")
        #expect(first.darkFraction() > 0.001, "text on the page is drawn")
        #expect(compositor.toplevel?.wantsFullscreen == true)

        let count = compositor.commits.count
        compositor.configure(width: 600, height: 900)
        #expect(
            compositor.wait(timeout: .seconds(15)) {
                compositor.commits.count > count && compositor.commits.last!.width == 600
                    && DocumentOnScreenTests.whiteFraction(compositor.commits.last!) > 0.5
            })
        let resized = try #require(compositor.commits.last)
        #expect(resized.height == 900)
        #expect(try stop(compositor, process) == 0, "SIGTERM ends Lectern cleanly")
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

    @Test("a protocol error from the compositor ends Lectern with a non-zero status and says which")
    func protocolError() throws {
        let (compositor, process) = try launch([Self.fixture("text-3pages.pdf")])
        #expect(compositor.wait(timeout: .seconds(15)) { !compositor.commits.isEmpty })
        #expect(compositor.postProtocolError(code: 3, "test compositor: a fault on purpose"))
        let status = process.waitForExit(timeout: .seconds(10), dispatching: compositor)
        #expect(status != nil && status != 0, "exit status \(String(describing: status))")
        #expect(process.errorOutput.contains("protocol error 3 on xdg_toplevel"), "\(process.errorOutput)")
        try compositor.teardown()
    }

    @Test("--frame-dump: the frame on screen when SIGTERM came is in the PNG")
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
        try DocumentOnScreenTests.expectDump(dump, shows: committed)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["frame.png"], "the write is atomic: no temporary files left behind")
    }

    @Test("--binding auto takes right to left from the PDF: the binary shows page 3 right of page 4")
    func bindingAutoFromThePDF() throws {
        let (compositor, process) = try launch([
            Self.fixture("colors-rtl-8pages.pdf"), "--spreads", "double", "--page", "3",
        ])
        #expect(compositor.wait(timeout: .seconds(15)) { compositor.commits.contains { !$0.isUniform } })
        #expect(settle(compositor))
        let commit = try #require(compositor.commits.last)
        #expect(LecternHarness.page(ofColor: commit.pixel(x: 640 + 120, y: 200)) == 3, "page 3 on the right")
        #expect(LecternHarness.page(ofColor: commit.pixel(x: 640 - 120, y: 200)) == 4, "page 4 on the left")
        #expect(try stop(compositor, process) == 0)
    }

    @Test(
        "--password: the right one opens the encrypted document, a wrong one says so on screen",
        arguments: [("lectern-user", true), ("not-the-password", false)])
    func password(_ password: String, opens: Bool) throws {
        let (compositor, process) = try launch([Self.fixture("encrypted.pdf"), "--password", password])
        #expect(compositor.wait(timeout: .seconds(15)) { !compositor.commits.isEmpty })
        #expect(settle(compositor))
        let commit = try #require(compositor.commits.last)
        if opens {
            #expect(DocumentOnScreenTests.whiteFraction(commit) > 0.5, "the page shows")
            #expect(commit.darkFraction() > 0.001, "with its text")
            #expect(!process.errorOutput.contains("password"), "no password error: \(process.errorOutput)")
        } else {
            #expect(DocumentOnScreenTests.whiteFraction(commit) < 0.1, "no page, a message card")
            #expect(
                process.errorOutput.contains("the file is encrypted and the configured password is wrong"),
                "the log says the password is wrong: \(process.errorOutput)")
        }
        #expect(try stop(compositor, process) == 0)
    }
}
