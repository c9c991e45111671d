import Foundation
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// The kiosk's events: an integrator's observer (`KioskApp.events`), and `lectern ctl events`
/// on the control socket, through the test compositor on the manual clock.
@Suite("Kiosk events", .serialized)
struct KioskEventsTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// Records the events `app.events` delivers.
    final class Recorder {
        var events: [KioskEvent] = []
        var names: [KioskEvent.Name] { events.map(\.event) }
    }

    @Test("an observer hears the document load, its first spread, a tap's page turn and the idle reset, in order")
    func observer() throws {
        let all = Recorder(), pages = Recorder()
        let lectern = try KioskHarness([Self.colors, "--idle-reset", "10"]) { app in
            app.events.observe { all.events.append($0) }
            app.events.observe([.pageChanged]) { pages.events.append($0) }
        }
        #expect(lectern.settle())
        #expect(Array(all.names.prefix(3)) == [.documentLoaded, .pageChanged, .spreadShown], "\(all.names)")
        #expect(all.events.first?.pages == [8] && all.events.first?.document == Self.colors)
        #expect(all.events.last?.pages == [1] && all.events.last?.spread == 0)
        let loaded = all.events.count

        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        #expect(lectern.settle())
        let tap = Array(all.events.dropFirst(loaded))
        #expect(tap.map(\.event) == [.componentActivated, .pageChanged, .spreadShown], "\(tap.map(\.event))")
        #expect(tap[0].component == "fastScroll" && tap[1].page == 2 && tap[2].pages == [2])
        #expect(pages.events.map(\.page) == [1, 2], "the filtered observer hears only page changes")

        lectern.advance(by: 11)
        #expect(all.names.contains(.idleReset))
        #expect(pages.events.map(\.page) == [1, 2, 1], "the reset went back to page 1")
        try lectern.stop()
    }

    @Test("a double tap's zoom (smart zoom on a text block) is one zoom-changed, once it comes to rest")
    func zoom() throws {
        let recorder = Recorder()
        let lectern = try KioskHarness([LecternHarness.fixture("text-3pages.pdf")]) { app in
            app.events.observe([.zoomChanged]) { recorder.events.append($0) }
        }
        #expect(lectern.settle())
        // "Page One" (as TouchTests' double tap): page 1 fitted in 1280 x 720.
        let scale = 696.0 / 842, left = (1280 - 595 * scale) / 2
        let (x, y) = (left + 200 * scale, 12 + (842 - 725) * scale)
        lectern.tap(x: x, y: y)
        lectern.pump(.milliseconds(60))
        lectern.tap(x: x, y: y)
        #expect(lectern.wait { lectern.viewport != nil })
        #expect(lectern.settle())
        #expect(recorder.events.count == 1, "\(recorder.events)")
        #expect((recorder.events.first?.zoom ?? 1) > 1.5 && recorder.events.first?.page == 1)
        try lectern.stop()
    }

    @Test(
        "lectern ctl events: the client gets the page-changed of a tap's turn as a JSON line; an unknown name is refused"
    )
    func socket() throws {
        let kiosk = try ControlSocketTests.Kiosk()
        let client = try kiosk.connect()
        defer { client.connection.close() }
        let reply = kiosk.send(ControlRequest(command: "events", names: ["page-changed"]).line(), on: client)
        #expect(reply?.ok == true)
        kiosk.lectern.tap(x: 1240, y: 360)
        #expect(kiosk.lectern.waitForPage(2))
        var lines: [KioskEvent] = []
        for _ in 0..<200 where lines.isEmpty {
            kiosk.lectern.turn(wait: .milliseconds(1))
            if let line = try client.nextLine() {
                lines.append(try JSONDecoder().decode(KioskEvent.self, from: Data(line)))
            }
        }
        #expect(lines.map(\.event) == [.pageChanged] && lines.first?.page == 2, "\(lines)")

        let other = try kiosk.connect()
        defer { other.connection.close() }
        let refused = kiosk.send(ControlRequest(command: "events", names: ["page-turned"]).line(), on: other)
        #expect(refused?.ok == false && refused?.error?.contains("unknown event \"page-turned\"") == true)
    }

    @Test("a subscriber that never reads is dropped once its socket is full, and frames go on meanwhile")
    func slowSubscriber() throws {
        let kiosk = try ControlSocketTests.Kiosk()
        let lectern = kiosk.lectern
        let client = try kiosk.connect()
        defer { client.connection.close() }
        #expect(kiosk.send(ControlRequest(command: "events").line(), on: client)?.ok == true)
        #expect(lectern.app.events.observerCount == 1)
        // Far more than a socket buffer holds (about 200 bytes each), never read.
        let event = KioskEvent(.componentActivated, time: 0, component: String(repeating: "x", count: 200))
        for _ in 0..<20_000 where lectern.app.events.observerCount > 0 { lectern.app.events.emit(event) }
        #expect(lectern.app.events.observerCount == 0, "the subscriber was dropped")
        #expect(lectern.logs.contains { $0.contains("it does not read its events") })
        let commits = lectern.compositor.commitCount
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        #expect(lectern.compositor.commitCount > commits, "the page turn was drawn")
    }
}
