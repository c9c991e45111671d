import Foundation
import LecternTestSupport
import Testing

/// The metrics file for node_exporter's textfile collector (issue 15): `KioskApp` in process on
/// the manual clock, the policy's `metrics.textfile` in a directory of the test's. The file's
/// exact format is checked by Prometheus's own parser in Tests/e2e/cage.sh.
@Suite("Metrics file", .serialized)
struct MetricsTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// A directory with a policy naming a metrics file in it, removed at the end.
    final class MetricsDirectory {
        let url: URL
        var policy: String { url.appendingPathComponent("lectern.toml").path }
        var file: String { url.appendingPathComponent("lectern.prom").path }

        init(metrics: Bool = true) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-metrics-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let text = metrics ? "[metrics]\ntextfile = \"lectern.prom\"\n" : "[idle]\nreset = 120\n"
            try text.write(toFile: policy, atomically: false, encoding: .utf8)
        }

        /// The samples in the file: `name{labels}` to value (nil: no file).
        var samples: [String: Double]? {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
            var samples: [String: Double] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                    continue
                }
                samples[String(line[..<space])] = value
            }
            return samples
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Moves the clock to `seconds` after the app started, frame by frame.
    func advance(_ lectern: KioskHarness, toSecond seconds: Double) {
        let left = 1000 + seconds - lectern.clock.now
        if left > 0 { lectern.advance(by: left) }
    }

    @Test("the file appears after 15 s of the clock; touches, page turns and gestures move its counters")
    func countersMove() throws {
        let directory = try MetricsDirectory()
        let lectern = try KioskHarness([Self.colors, "--config", directory.policy])
        #expect(lectern.settle())
        for _ in 0..<3 {
            lectern.tap(x: 1240, y: 360)
            lectern.settle()
        }
        #expect(lectern.dominantPage == 4)
        advance(lectern, toSecond: 14.5)
        // Settled: a write started would have ended.
        #expect(lectern.status.isAtRest && lectern.status.metricsWritten == 0, "not before 15 s")
        #expect(directory.samples == nil)
        advance(lectern, toSecond: 15.5)
        #expect(lectern.wait { lectern.status.metricsWritten == 1 }, "written once 15 s passed")
        let first = try #require(directory.samples)
        #expect(first["lectern_touches_total"] == 3, "\(first)")
        #expect(first["lectern_pages_shown_total"] == 4, "pages 1 to 4: \(first)")
        #expect(first["lectern_gestures_total{component=\"fastScroll\"}"] == 3, "\(first)")
        #expect(first["lectern_documents_opened_total"] == 1)
        #expect(first["lectern_documents_failed_total"] == 0)
        #expect(first["lectern_render_errors_total"] == 0)
        #expect((first["lectern_frame_latency_seconds_count"] ?? 0) >= 4, "a commit per page at least: \(first)")
        #expect((first["lectern_resident_memory_bytes"] ?? 0) > 1_048_576)
        #expect(first["lectern_uptime_seconds"].map { abs($0 - 15) < 0.1 } == true, "\(first)")

        // Two more taps, one back: the next file has moved on.
        lectern.tap(x: 1240, y: 360)
        lectern.settle()
        lectern.tap(x: 40, y: 360)
        lectern.settle()
        #expect(lectern.dominantPage == 4)
        advance(lectern, toSecond: 30.5)
        #expect(lectern.wait { lectern.status.metricsWritten == 2 }, "written again 15 s later")
        let second = try #require(directory.samples)
        #expect(second["lectern_touches_total"] == 5, "\(second)")
        #expect(second["lectern_pages_shown_total"] == 6, "page 5, then 4 again: \(second)")
        #expect(second["lectern_gestures_total{component=\"fastScroll\"}"] == 5)
        try lectern.stop()
        #expect(directory.samples?["lectern_touches_total"] == 5, "written on exit")
    }

    @Test("idle resets and a document that cannot be opened are counted")
    func idleResetsAndFailures() throws {
        let directory = try MetricsDirectory()
        let lectern = try KioskHarness([Self.colors, "--config", directory.policy, "--idle-reset", "5"])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        advance(lectern, toSecond: 16)
        #expect(lectern.dominantPage == 1, "the idle reset went back")
        #expect(lectern.wait { lectern.status.metricsWritten == 1 })
        #expect(directory.samples?["lectern_idle_resets_total"] == 1, "\(directory.samples ?? [:])")
        try lectern.stop()

        let broken = directory.url.appendingPathComponent("broken.pdf").path
        try "%PDF-1.7 not really".write(toFile: broken, atomically: false, encoding: .utf8)
        let failing = try KioskHarness([broken, "--config", directory.policy])
        #expect(failing.settle())
        advance(failing, toSecond: 15.5)
        #expect(failing.wait { failing.status.metricsWritten == 1 })
        #expect(directory.samples?["lectern_documents_failed_total"] == 1, "\(directory.samples ?? [:])")
        #expect(directory.samples?["lectern_documents_opened_total"] == 0)
        try failing.stop()
    }

    /// A metrics file, the idle reset after 10 s (no countdown), the attract loop 2 s after it,
    /// a page every 3 s, no transition.
    static let attractPolicy = """
        [metrics]
        textfile = "lectern.prom"
        [idle]
        reset = 10
        countdown = 0
        [attract]
        after = 2
        interval = 3
        transition = "none"
        """

    @Test("a touch that stops the attract loop goes home without counting as an idle reset")
    func attractStopIsNotAnIdleReset() throws {
        let directory = try MetricsDirectory()
        try Self.attractPolicy.write(toFile: directory.policy, atomically: false, encoding: .utf8)
        let lectern = try KioskHarness([Self.colors, "--config", directory.policy])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        advance(lectern, toSecond: 12.8)
        #expect(lectern.status.isAttractRunning, "the idle reset at 10 s, the attract loop 2 s later")
        lectern.tap(x: 640, y: 360)
        lectern.settle()
        #expect(!lectern.status.isAttractRunning, "the touch stopped it")
        advance(lectern, toSecond: 15.5)
        #expect(lectern.wait { lectern.status.metricsWritten == 1 })
        #expect(directory.samples?["lectern_idle_resets_total"] == 1, "\(directory.samples ?? [:])")
        try lectern.stop()
    }

    /// A scripted visit on colors-8pages.pdf: nobody for 4 s; a visitor turns to page 2 at 4 s and
    /// to page 3 at 8 s, and leaves; the idle reset at about 18 s goes back to page 1; the attract
    /// loop starts 2 s later and turns a page every 3 s; the document is audited when it opens.
    /// The samples of the file written at 30 s.
    func visit() throws -> [String: Double] {
        let directory = try MetricsDirectory()
        try Self.attractPolicy.write(toFile: directory.policy, atomically: false, encoding: .utf8)
        let lectern = try KioskHarness([Self.colors, "--config", directory.policy, "--audit-pages", "8"])
        #expect(lectern.settle())
        advance(lectern, toSecond: 4)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        advance(lectern, toSecond: 8)
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(3))
        // A frame at a time, each frame's background work done (the attract loop reads the next
        // page's keys on a thread of its own): as on a machine that keeps up, however busy this one is.
        while lectern.clock.now < 1030.5 - 1e-9 {
            lectern.clock.advance(by: min(KioskHarness.frame, 1030.5 - lectern.clock.now))
            lectern.turn()
            _ = lectern.wait { lectern.status.isAtRest }
        }
        #expect(lectern.status.isAttractRunning)
        #expect(lectern.wait { lectern.status.metricsWritten == 2 })
        let samples = try #require(directory.samples)
        try lectern.stop()
        return samples
    }

    @Test(
        "dwell time: each page's seconds with a visitor there, and the attract loop's apart; none before the first touch"
    )
    func dwellTime() throws {
        let samples = try visit()
        func dwell(_ page: Int, _ name: String = "lectern_dwell_seconds_total") -> Double {
            samples["\(name){document=\"colors-8pages.pdf\",page=\"\(page)\"}"] ?? 0
        }
        #expect(dwell(1) < 0.1, "page 1 only for the touch that turned it: \(samples)")
        #expect(abs(dwell(2) - 4) < 0.1, "\(samples)")
        // (The reset counts from the end of the page turn's animation, a few frames after 8 s.)
        #expect(dwell(3) >= 10 && dwell(3) < 10.5, "from 8 s to the reset at about 18 s: \(samples)")
        #expect(dwell(4) == 0)
        let attract = (1...8).map { dwell($0, "lectern_attract_seconds_total") }
        let total = attract.reduce(0, +)
        #expect(total > 9.5 && total <= 10, "from about 20 s to the write at 30 s: \(attract)")
        #expect(attract[1...3].allSatisfy { abs($0 - 3) < 0.1 }, "pages 2, 3 and 4 for 3 s each: \(attract)")
        #expect(attract[0] < 0.5 && attract[5...].allSatisfy { $0 == 0 }, "\(attract)")
    }

    @Test("every query of the Grafana dashboard (kiosk/grafana-dashboard.json) names a metric the file holds")
    func dashboardQueriesNameMetrics() throws {
        let url = LecternHarness.repository.appendingPathComponent("kiosk/grafana-dashboard.json")
        let dashboard = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        var expressions: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let expression = object["expr"] as? String { expressions.append(expression) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(dashboard)
        #expect(expressions.count >= 15, "\(expressions)")
        let held = Set(try visit().keys.map { String($0.prefix { $0 != "{" }) })
        let named = Set(expressions.flatMap { $0.matches(of: /lectern_[a-z_]+/).map { String($0.output) } })
        #expect(named.count >= 10, "\(named)")
        for name in named.sorted() {
            #expect(held.contains(name), "\(name) is not in the metrics file: \(held.sorted())")
        }
    }

    @Test("without metrics.textfile in the policy no file is written")
    func offByDefault() throws {
        let directory = try MetricsDirectory(metrics: false)
        let lectern = try KioskHarness([Self.colors, "--config", directory.policy])
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        advance(lectern, toSecond: 31)
        #expect(lectern.status.isAtRest && lectern.status.metricsWritten == 0, "settled: no write started")
        try lectern.stop()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(files == ["lectern.toml"], "\(files)")
    }
}
