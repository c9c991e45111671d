import Foundation
import LecternTestSupport
import Testing

/// `kiosk/fleet-push` (issue 15): its `ssh` and `scp` are stand-ins on `PATH` that run the
/// remote commands here and copy locally (and log each call), so the script's real path runs
/// against a kiosk in this process (`KioskHarness`, its control socket, the real `lectern`
/// binary for `--check-config` and `ctl status`).
@Suite("fleet-push", .serialized)
struct FleetPushTests {
    static let script = LecternHarness.repository.appendingPathComponent("kiosk/fleet-push").path

    /// A kiosk's directories (documents, policy) and the stand-in `ssh` and `scp`.
    final class Site {
        let url: URL
        var documents: String { url.appendingPathComponent("srv").path }
        var policy: String { url.appendingPathComponent("etc/lectern.toml").path }
        var calls: String { url.appendingPathComponent("calls.log").path }
        var bin: String { url.appendingPathComponent("bin").path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-fleet-\(UUID().uuidString)")
            for directory in ["srv", "etc", "bin", "local"] {
                try FileManager.default.createDirectory(
                    at: url.appendingPathComponent(directory), withIntermediateDirectories: true)
            }
            // Links to the committed stand-ins (Tests/Fixtures/fleet): a script this process wrote
            // could still be open for writing in a child another test thread forked meanwhile, and
            // then exec fails with ETXTBSY ("Text file busy"), as it once did here.
            for name in ["ssh", "scp"] {
                try FileManager.default.createSymbolicLink(
                    atPath: url.appendingPathComponent("bin/\(name)").path,
                    withDestinationPath: LecternHarness.fixture("fleet/\(name)"))
            }
        }

        /// A file to push, in a directory of its own.
        func local(_ name: String, _ contents: Data) throws -> String {
            let path = url.appendingPathComponent("local/\(name)").path
            try contents.write(to: URL(fileURLWithPath: path))
            return path
        }

        func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
        var loggedCalls: String { (try? String(contentsOfFile: calls, encoding: .utf8)) ?? "" }
        var leftovers: [String] {
            [documents, url.appendingPathComponent("etc").path].flatMap {
                ((try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? []).filter { $0.contains("fleet-push") }
            }
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Runs fleet-push with `arguments`, turning `lectern` (if any) while it runs, the clock
    /// moving a frame per turn (the policy's and document's quiet periods pass on it).
    func push(
        _ arguments: [String], site: Site, lectern: KioskHarness? = nil
    ) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.script)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = site.bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["FLEET_CALLS"] = site.calls
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        if let lectern {
            let ended = lectern.wait(timeout: .seconds(60)) {
                lectern.clock.advance(by: KioskHarness.frame)
                return !process.isRunning
            }
            #expect(ended, "fleet-push still running after 60 s")
        }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    /// The common options: this site's directories, the built binary, the kiosk's socket.
    func options(_ site: Site, socket: String = "/nonexistent/lectern.sock") throws -> [String] {
        let lectern = try LecternProcess.lecternExecutable().path
        return [
            "--dir", site.documents, "--policy-path", site.policy, "--lectern", lectern, "--socket", socket,
            "--wait", "20",
        ]
    }

    @Test("--dry-run prints the copy, check, rename and status commands for each host and runs none")
    func dryRun() throws {
        let site = try Site()
        let document = try site.local("new.pdf", try Data(contentsOf: URL(fileURLWithPath: SavedViewTests.colors)))
        let policy = try site.local("lectern.toml", Data("document = \"\(site.documents)/new.pdf\"\n".utf8))
        let result = try push(
            ["--dry-run", "--document", document, "--policy", policy] + options(site) + ["kiosk-1", "kiosk-2"],
            site: site)
        #expect(result.status == 0, "\(result.output)")
        #expect(site.loggedCalls.isEmpty, "nothing ran: \(site.loggedCalls)")
        #expect(site.contents(site.documents + "/new.pdf") == nil)
        let commands = result.output.split(separator: "\n").filter { $0.hasPrefix("+ ") }
        #expect(commands.count == 10, "\(result.output)")
        for (index, host) in ["kiosk-1", "kiosk-2"].enumerated() {
            let mine = commands[(index * 5)..<(index * 5 + 5)].map(String.init)
            guard mine.count == 5 else { continue }
            #expect(mine[0].hasPrefix("+ scp -q -- \(document) \(host):\(site.documents)/.new.pdf.fleet-push-"))
            #expect(mine[1].hasPrefix("+ ssh -- \(host) 'chmod 0644 ") && mine[1].contains("&& mv -f -- "))
            #expect(mine[1].contains(" \(site.documents)/new.pdf ||"), "renamed over the document: \(mine[1])")
            #expect(mine[2].hasPrefix("+ scp -q -- \(policy) \(host):"))
            #expect(mine[3].contains("--check-config") && mine[3].contains(" \(site.policy) ||"), "\(mine[3])")
            #expect(mine[4].contains("ctl status --socket /nonexistent/lectern.sock"), "\(mine[4])")
        }
    }

    @Test("a document and a policy pushed to a running kiosk: renamed into place, shown, confirmed by ctl status")
    func pushToRunningKiosk() throws {
        let site = try Site()
        let old = site.documents + "/colors.pdf"
        try FileManager.default.copyItem(atPath: SavedViewTests.colors, toPath: old)
        try "document = \"\(old)\"\n".write(toFile: site.policy, atomically: false, encoding: .utf8)
        let lectern = try KioskHarness(["--config", site.policy])
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 8))
        let socket = try #require(lectern.status.controlSocket)

        let document = try site.local(
            "letter.pdf", try Data(contentsOf: URL(fileURLWithPath: LecternHarness.fixture("letter-6pages.pdf"))))
        let policyForKiosk = "document = \"\(site.documents)/letter.pdf\"\n"
        let policy = try site.local("lectern.toml", Data(policyForKiosk.utf8))
        let result = try push(
            ["--document", document, "--policy", policy] + options(site, socket: socket) + ["kiosk-1"], site: site,
            lectern: lectern)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("document: \(site.documents)/letter.pdf (open)"), "\(result.output)")
        #expect(result.output.contains("1 host(s) show the new files"))
        #expect(lectern.status.document == .open(pageCount: 6), "the kiosk shows the pushed document")
        #expect(site.contents(site.documents + "/letter.pdf") == site.contents(document))
        #expect(site.contents(site.policy) == Data(policyForKiosk.utf8))
        #expect(site.leftovers.isEmpty, "\(site.leftovers)")
        try lectern.stop()
    }

    @Test("a policy that fails --check-config is not installed, and the host is reported failed")
    func refusedPolicy() throws {
        let site = try Site()
        let installed = "[idle]\nreset = 60\n"
        try installed.write(toFile: site.policy, atomically: false, encoding: .utf8)
        let policy = try site.local("lectern.toml", Data("[layout]\nspreads = \"triple\"\n".utf8))
        let result = try push(["--policy", policy] + options(site) + ["kiosk-1"], site: site)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("layout.spreads"), "lectern --check-config says why: \(result.output)")
        #expect(result.output.contains("failed: kiosk-1 (policy refused"), "\(result.output)")
        #expect(site.contents(site.policy) == Data(installed.utf8), "the kiosk keeps its policy")
        #expect(site.leftovers.isEmpty, "\(site.leftovers)")
        #expect(!site.loggedCalls.contains("ctl status"), "no status asked of a host that failed")
    }
}
