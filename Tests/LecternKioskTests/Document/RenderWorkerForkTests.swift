import Foundation
import Glibc
import LecternTestSupport
import Testing

/// The `lectern` binary forks its first render worker at its start, before any thread exists
/// (`RenderWorkerMain.forkAtStart`): no exec, no second start of the Swift runtime. What only
/// the real process shows: its children.
@Suite("The lectern binary's forked render worker", .serialized)
struct RenderWorkerForkTests {
    static func commandLine(_ pid: Int32) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("by default the page is drawn by a render worker forked from the reader, confined like an exec'd one")
    func firstWorkerIsForked() throws {
        let lectern = try LecternHarness([LecternHarness.fixture("colors-8pages.pdf")])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 360) == 1, "the worker drew page 1")
        let reader = lectern.process.processIdentifier
        // Its children: the render worker, forked (an exec'd worker's command line is `lectern
        // --render-worker CHANNELS`), and, once the document's audit has started (later on a
        // loaded machine), the audit's worker, exec'd.
        let children = ProcessFamily.children(of: reader)
        let workers = children.filter { Self.commandLine($0) == Self.commandLine(reader) }
        #expect(workers.count == 1, "one forked worker: \(children.map(Self.commandLine))")
        let worker = try #require(workers.first)
        let status = try String(contentsOfFile: "/proc/\(worker)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2"), "its seccomp filter is in force")
        let limits = try String(contentsOfFile: "/proc/\(worker)/limits", encoding: .utf8)
        #expect(limits.contains(String(2048 << 20)), "its address space is limited")
        #expect(try lectern.stop() == 0)
    }

    @Test("when the policy file has pages drawn in process, the worker forked at the start is let go and reaped")
    func unusedForkIsReaped() throws {
        // Only the policy says so: with --render-process off on the command line it never forks.
        let policy = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-fork-\(getpid()).toml")
        try "[render]\nprocess = \"off\"\n".write(to: policy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: policy) }
        let lectern = try LecternHarness([LecternHarness.fixture("colors-8pages.pdf"), "--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640, y: 360) == 1)
        #expect(
            ProcessFamily.children(of: lectern.process.processIdentifier).isEmpty, "no worker waits, no zombie stays")
        #expect(try lectern.stop() == 0)
    }
}
