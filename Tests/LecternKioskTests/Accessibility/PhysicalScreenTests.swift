import Foundation
import LecternCore
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// The screen's millimetres: from the output (`wl_output.geometry`; the test compositor reports
/// what a test gives it, else 0 × 0) or the policy's `[screen]`, with the viewing distance; a screen too small for the
/// chrome's sizes says so.
@Suite("Screen in millimetres", .serialized)
struct PhysicalScreenStatusTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    @Test("the output's millimetres, read from the default 600 mm: big enough; none without them")
    func fromTheOutput() throws {
        let unknown = try KioskHarness([Self.colors])
        #expect(unknown.settle())
        #expect(unknown.status.physicalScreen == nil, "an output of 0 × 0 mm: not known")
        try unknown.stop()
        // 1280 × 720 at 96 dpi.
        let lectern = try KioskHarness([Self.colors], millimetres: (338, 190))
        #expect(lectern.settle())
        let screen = try #require(lectern.status.physicalScreen)
        #expect(screen.width == 338 && screen.height == 190, "1280 × 720 at 96 dpi: \(screen)")
        #expect(screen.viewingDistance == 600)
        #expect(screen.problem == nil)
        try lectern.stop()
    }

    @Test("the policy's millimetres override the output's, and a small screen read from afar is too small")
    func fromThePolicy() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[screen]\nwidth-mm = 154\nheight-mm = 87\nviewing-distance-mm = 800\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let screen = try #require(lectern.status.physicalScreen)
        #expect(screen.width == 154 && screen.height == 87 && screen.viewingDistance == 800)
        #expect(screen.problem?.contains("is too small for chrome text") == true)
        try lectern.stop()
    }

    /// Runs `lectern --check-config path`: its exit status and what it wrote to standard error.
    static func checkConfig(_ path: String) throws -> (status: Int32, said: String) {
        let process = Process()
        process.executableURL = try LecternProcess.lecternExecutable()
        process.arguments = ["--check-config", path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said)
    }

    @Test("lectern --check-config warns of a screen too small for the chrome's sizes, and still accepts the file")
    func checkConfigWarns() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[screen]\nwidth-mm = 154\nheight-mm = 87\n")
        let small = try Self.checkConfig(policy.path)
        #expect(small.status == 0, "a warning, not a problem: \(small.said)")
        #expect(
            small.said.contains("warning: screen: the screen (154×87 mm read from 600 mm) is too small"),
            "\(small.said)")
        try policy.replace(with: "document = \"\(Self.colors)\"\n[screen]\nwidth-mm = 527\nheight-mm = 296\n")
        let fine = try Self.checkConfig(policy.path)
        #expect(fine.status == 0 && fine.said.isEmpty, "\(fine.said)")
    }
}
