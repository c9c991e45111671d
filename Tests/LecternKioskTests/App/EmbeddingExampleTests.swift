import Foundation
import LecternKiosk
import LecternTestSupport
import Testing

/// Issue 32: `lectern-example`, an integrator's program that embeds `KioskApp` with a spreading,
/// a layout and an activation condition of its own and prints the events, built by `swift build`
/// and run here against the test compositor as a process of its own.
@Suite("The embedding example", .serialized)
struct EmbeddingExampleTests {
    /// The events the example printed so far.
    static func events(_ process: LecternProcess) -> [KioskEvent] {
        process.output.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(KioskEvent.self, from: Data($0.utf8))
        }
    }

    /// The pages of colors-8pages.pdf (1-based) along row `y` of `commit`, in order.
    static func pages(alongRow y: Int, of commit: Commit) -> [Int] {
        var result: [Int] = []
        for x in 0..<commit.width {
            if let page = LecternHarness.page(ofColor: commit.pixel(x: x, y: y)), result.last != page {
                result.append(page)
            }
        }
        return result
    }

    @Test(
        "shows fold-out leaflets at 80 % width, turns by a tap, refuses to turn back to the cover, and prints the events"
    )
    func exampleRuns() throws {
        let compositor = try TestCompositor(outputWidth: 1280, outputHeight: 720)
        let process = try LecternProcess(
            executableURL: LecternProcess.lecternExecutable(named: "lectern-example"),
            arguments: [LecternHarness.fixture("colors-8pages.pdf")], environment: compositor.environment)
        defer {
            process.terminate()
            _ = process.waitForExit(timeout: .seconds(10), dispatching: compositor)
            try? compositor.teardown()
        }
        // The cover, alone, at 80 % of the width: the background on both sides of it.
        #expect(
            compositor.wait(timeout: .seconds(20)) {
                compositor.lastCommit.map { Self.pages(alongRow: 360, of: $0) == [1] } == true
                    && Self.events(process).contains { $0.event == .spreadShown }
            }, "\(process.errorOutput)")
        let cover = try #require(compositor.lastCommit)
        let covered = (0..<cover.width).filter { LecternHarness.page(ofColor: cover.pixel(x: $0, y: 360)) == 1 }
        let expectedWidth = 0.8 * Double(1280 - 24)
        let error = abs(Double(covered.count) - expectedWidth)
        #expect(error < 8, "the cover is 80 % wide: \(covered.count) px")
        #expect(Self.events(process).first?.event == .documentLoaded)

        // A tap at the right edge turns to the first leaflet: three pages side by side.
        #expect(compositor.wait(timeout: .seconds(5)) { compositor.touchDown(id: 0, x: 1270, y: 360) })
        compositor.touchUp(id: 0)
        #expect(
            compositor.wait(timeout: .seconds(10)) {
                compositor.lastCommit.map { Self.pages(alongRow: 200, of: $0) == [2, 3, 4] } == true
                    && Self.events(process).contains { $0.event == .pageChanged && $0.page == 2 }
            }, "\(Self.events(process).map(\.event))")

        // A tap at the left edge would turn back to the cover: the example's condition refuses it.
        let before = Self.events(process).count
        compositor.touchDown(id: 0, x: 10, y: 360)
        compositor.touchUp(id: 0)
        _ = compositor.wait(timeout: .seconds(1.5)) { false }
        let after = Self.events(process).dropFirst(before)
        #expect(!after.contains { $0.event == .pageChanged }, "\(after.map(\.event))")
        #expect(compositor.lastCommit.map { Self.pages(alongRow: 200, of: $0) } == [2, 3, 4])
    }
}
