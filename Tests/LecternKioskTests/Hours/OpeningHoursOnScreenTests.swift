import Foundation
import LecternCore
import LecternKiosk
import LecternLinux
import LecternPDF
import LecternTestSupport
import Testing

/// The opening hours in the running kiosk, on the manual clock and its wall clock: the curtain at
/// closing, the morning's document at opening, daylight saving, and input while closed.
@Suite("Opening hours on screen", .serialized)
struct OpeningHoursOnScreenTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let letter = LecternHarness.fixture("letter-6pages.pdf")
    static let hour = 3600.0

    /// Whether the last commit is the curtain: black all over.
    static func showsCurtain(_ lectern: KioskHarness) -> Bool {
        guard let commit = lectern.compositor.lastCommit else { return false }
        return commit.isUniform && commit.pixel(x: 0, y: 0) & 0xFF_FFFF == 0
    }

    @Test("closing time brings the curtain and nothing is drawn; opening time the morning's document")
    func closingAndOpening() throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            document = "\(Self.colors)"
            [hours]
            mon = ["08:00-12:00 morning", "12:00-18:00"]
            tue = ["08:00-12:00 morning", "12:00-18:00"]
            [hours.show.morning]
            document = "\(Self.letter)"
            """)
        // Monday 17:00 UTC: open, the policy's own document.
        let lectern = try KioskHarness(
            ["--config", policy.path], wallClock: (KioskHarness.mondayMorning + 7 * Self.hour, .init(utcOffset: 0)))
        #expect(lectern.settle())
        #expect(lectern.status.hours.isOpen && !lectern.status.hours.isCurtainDown)
        #expect(lectern.status.document == .open(pageCount: 8))
        #expect(lectern.status.hours.nextChange == "2026-11-30 18:00")
        #expect(!Self.showsCurtain(lectern), "the page is on screen")

        lectern.jump(by: Self.hour)
        #expect(!lectern.status.hours.isOpen && lectern.status.hours.isCurtainDown, "18:00: closed")
        #expect(Self.showsCurtain(lectern), "the window is black")
        #expect(lectern.status.hours.nextChange == "2026-12-01 08:00")
        #expect(lectern.status.hours.show == "morning", "the next range's show is in force behind the curtain")
        let frames = lectern.status.framesCommitted
        let commits = lectern.compositor.commitCount
        let renders = lectern.status.tileRendersStarted
        lectern.jump(by: 6 * Self.hour)
        #expect(lectern.status.framesCommitted == frames && lectern.compositor.commitCount == commits, "no frames")
        #expect(lectern.status.tileRendersStarted == renders, "no tiles")
        #expect(lectern.status.isAtRest && lectern.status.idleResetDeadline == nil, "no idle countdown while closed")

        lectern.jump(by: 8 * Self.hour)  // Tuesday 08:00
        #expect(lectern.status.hours.isOpen && !lectern.status.hours.isCurtainDown, "08:00: open")
        #expect(lectern.status.document == .open(pageCount: 6), "the morning's document")
        #expect(!Self.showsCurtain(lectern) && lectern.compositor.commitCount > commits, "its page is drawn")
        #expect(lectern.status.idleResetDeadline != nil, "the idle countdown runs again")
        #expect(lectern.status.hours.nextChange == "2026-12-01 12:00")

        lectern.jump(by: 4 * Self.hour)  // 12:00: the range without a show
        #expect(lectern.status.hours.isOpen && lectern.status.document == .open(pageCount: 8), "the policy's own")
        try lectern.stop()
    }

    @Test("with single-pixel buffers the curtain is one black pixel stretched over the window; after it, a whole frame")
    func singlePixelCurtain() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[hours]\nmon = [\"08:00-11:00\"]\n")
        let lectern = try KioskHarness(["--config", policy.path], scale: 2, singlePixelBuffers: true)  // 10:00
        #expect(lectern.settle())
        #expect(lectern.compositor.lastCommit?.isSinglePixel == false)
        lectern.jump(by: Self.hour)
        let curtain = try #require(lectern.compositor.lastCommit)
        #expect(curtain.isSinglePixel && curtain.pixels == [0xFF00_0000], "one black pixel")
        #expect(curtain.viewportDestination.map { [$0.width, $0.height] } == [640, 360], "over the whole window")
        #expect(curtain.bufferScale == 1, "a 1×1 buffer at scale 1")
        #expect(lectern.status.hours.isCurtainDown)
        lectern.jump(by: 7 * 24 * Self.hour - 3 * Self.hour)  // next Monday 08:00
        let page = try #require(lectern.compositor.lastCommit)
        #expect(!page.isSinglePixel && page.width == 1280 && page.height == 720)
        #expect(page.viewportDestination == nil && page.bufferScale == 2, "the frames' own mapping again")
        #expect(page.bufferDamage.contains { $0.width == 1280 && $0.height == 720 }, "drawn and damaged whole")
        try lectern.stop()
    }

    @Test("the presenter mirror's output is black while closed too, and shows the page again at opening")
    func mirrorCurtain() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[hours]\nmon = [\"08:00-11:00\"]\n")
        let lectern = try KioskHarness(["--config", policy.path])  // Monday 10:00: open
        let second = lectern.compositor.plugOutput(width: 1920, height: 1080)
        lectern.advance(by: 1)
        #expect(lectern.settle())
        let mirrored = try #require(PresenterMirrorTests.mirrorCommit(lectern))
        #expect(!mirrored.isUniform, "the mirror shows the page")
        lectern.jump(by: Self.hour)
        let black = try #require(PresenterMirrorTests.mirrorCommit(lectern))
        #expect(black.isUniform && black.pixel(x: 0, y: 0) & 0xFF_FFFF == 0, "the mirror is black")
        let commits = lectern.compositor.commitCount
        lectern.jump(by: Self.hour)
        #expect(lectern.compositor.commitCount == commits, "nothing drawn on either output while closed")
        lectern.jump(by: 7 * 24 * Self.hour - 4 * Self.hour)  // next Monday 08:00
        let page = try #require(PresenterMirrorTests.mirrorCommit(lectern))
        #expect(PresenterMirrorTests.page(in: page) == 1, "the mirror shows the page again")
        lectern.compositor.unplug(second)
        try lectern.stop()
    }

    @Test("a range's show sets its attract loop's wait: 5 s after the idle reset in the morning, none after 11:00")
    func attractPerRange() throws {
        let policy = try PolicyTests.PolicyDirectory(
            """
            document = "\(Self.colors)"
            [idle]
            reset = 4
            countdown = 0
            [hours]
            mon = ["08:00-11:00 morning", "11:00-12:00"]
            [hours.show.morning]
            attract = 5
            """)
        let lectern = try KioskHarness(["--config", policy.path])  // Monday 10:00: the morning
        #expect(lectern.settle())
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        lectern.advance(by: 4.1)
        #expect(lectern.dominantPage == 1, "the idle reset")
        let deadline = try #require(lectern.status.attractDeadline, "the attract loop waits")
        #expect(abs(deadline - lectern.clock.now - 4.9) < 0.1)

        lectern.jump(by: Self.hour)  // 11:00: the range without a show
        #expect(lectern.status.hours.isOpen && lectern.status.hours.show == nil)
        lectern.tap(x: 640, y: 360)  // stops the loop if it runs, and goes home
        lectern.settle()
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2))
        lectern.advance(by: 4.1)
        #expect(lectern.dominantPage == 1 && lectern.status.attractDeadline == nil, "attract.after = 0: no loop")
        try lectern.stop()
    }

    @Test("started while closed: systemd hears READY=1 once the curtain is on screen (no page is ever drawn)")
    func readyWhileClosed() throws {
        let notify = try SystemdNotifyTests.FakeNotifySocket()
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[hours]\nmon = [\"08:00-09:00\"]\n")
        let lectern = try KioskHarness(
            ["--config", policy.path], variables: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"])
        #expect(lectern.settle())
        #expect(lectern.status.hours.isCurtainDown && lectern.status.framesCommitted == 0)
        let messages = notify.messages()
        #expect(messages.contains { $0.contains("READY=1") && $0.contains("STATUS=closed") }, "\(messages)")
        try lectern.stop()
    }

    @Test("systemd hears the page again after the curtain: closed, then open on the same page")
    func statusAfterCurtain() throws {
        let notify = try SystemdNotifyTests.FakeNotifySocket()
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[hours]\nmon = [\"08:00-18:00\"]\ntue = [\"08:00-18:00\"]\n")
        let lectern = try KioskHarness(
            ["--config", policy.path], variables: ["NOTIFY_SOCKET": notify.path],
            wallClock: (KioskHarness.mondayMorning + 7 * Self.hour, .init(utcOffset: 0)))
        #expect(lectern.settle())
        let page = "STATUS=page 1 of 8: \(Self.colors)"
        #expect(notify.messages().contains { $0.hasSuffix(page) })
        lectern.jump(by: Self.hour)  // 18:00
        #expect(lectern.status.hours.isCurtainDown)
        #expect(notify.messages().contains("STATUS=closed"))
        lectern.jump(by: 14 * Self.hour)  // Tuesday 08:00
        #expect(!lectern.status.hours.isCurtainDown && lectern.dominantPage == 1)
        #expect(notify.messages().contains(page), "the same page as before the curtain, said again")
        try lectern.stop()
    }

    @Test("daylight saving moves the opening with the zone; a clock set or a new zone is followed at once")
    func daylightSaving() throws {
        // Saturday 2026-03-28 20:00 in Central Europe (UTC+1); at 01:00 UTC on Sunday the clocks
        // go forward to UTC+2: Sunday's 08:00 is 06:00 UTC, not 07:00.
        let saturdayEvening = 1_774_724_400.0
        let springForward = 1_774_746_000.0
        let zone = ManualWallClock.Zone(utcOffset: 3600).changing(to: 7200, at: springForward)
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[hours]\nsat = [\"08:00-18:00\"]\nsun = [\"08:00-18:00\"]\n")
        let lectern = try KioskHarness(["--config", policy.path], wallClock: (saturdayEvening, zone))
        #expect(lectern.settle())
        #expect(!lectern.status.hours.isOpen && lectern.status.hours.nextChange == "2026-03-29 08:00")
        #expect(lectern.status.hours.nextChangeInstant == springForward + 5 * Self.hour, "06:00 UTC")
        lectern.jump(by: springForward + 5 * Self.hour - saturdayEvening - 60)
        #expect(!lectern.status.hours.isOpen, "07:59 CEST: still closed")
        lectern.jump(by: 61)
        #expect(lectern.status.hours.isOpen && !lectern.status.hours.isCurtainDown, "08:00 CEST: open")

        lectern.wallClock.set(to: springForward + 17 * Self.hour)  // 19:00 CEST: set by hand
        lectern.turn()
        lectern.settle()
        #expect(!lectern.status.hours.isOpen && Self.showsCurtain(lectern), "the clock set past closing")
        lectern.wallClock.zone = .init(utcOffset: -5 * Int(Self.hour))  // 13:00 in New York
        lectern.turn()
        lectern.settle()
        #expect(lectern.status.hours.isOpen && !Self.showsCurtain(lectern), "a new zone where it is open")
        try lectern.stop()
    }

    @Test("a touch while closed does nothing; with wake = touch it lifts the curtain for the idle time")
    func touchWhileClosed() throws {
        let hours = "document = \"\(Self.colors)\"\n[idle]\nreset = 60\n[hours]\nmon = [\"08:00-09:00\"]\n"
        let policy = try PolicyTests.PolicyDirectory(hours)
        let lectern = try KioskHarness(["--config", policy.path])  // Monday 10:00: closed
        #expect(lectern.settle())
        #expect(lectern.status.hours.isCurtainDown && Self.showsCurtain(lectern))
        let commits = lectern.compositor.commitCount
        lectern.tap(x: 1240, y: 360)
        lectern.settle()
        #expect(lectern.status.hours.isCurtainDown && lectern.compositor.commitCount == commits, "still black")
        #expect(lectern.status.hours.ignoredInput >= 2, "down and up not acted on")
        #expect(lectern.dominantPage == 1, "the tap at the right edge turned no page")

        try policy.replace(with: hours + "wake = \"touch\"\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        lectern.tap(x: 1240, y: 360)
        lectern.settle()
        #expect(!lectern.status.hours.isOpen && lectern.status.hours.isAwake, "woken, still closed")
        #expect(!lectern.status.hours.isCurtainDown && !Self.showsCurtain(lectern), "the page shows")
        #expect(lectern.dominantPage == 1, "the waking tap turns no page")
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "the next tap does")
        lectern.jump(by: 61)
        #expect(lectern.status.hours.isCurtainDown && Self.showsCurtain(lectern), "the idle time later: black again")
        #expect(!lectern.status.hours.isAwake)
        try lectern.stop()
    }

    @Test("the backlight the policy names is powered down at closing and up at opening (a fake sysfs)")
    func backlight() throws {
        let policy = try PolicyTests.PolicyDirectory("")
        let device = policy.url.appendingPathComponent("backlight0")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        let power = device.appendingPathComponent("bl_power").path
        try "0\n".write(toFile: power, atomically: false, encoding: .utf8)
        func written() -> String? { try? String(contentsOfFile: power, encoding: .utf8) }
        try policy.replace(
            with: "document = \"\(Self.colors)\"\n[hours]\nmon = [\"08:00-11:00\"]\nbacklight = \"\(device.path)\"\n")
        let lectern = try KioskHarness(["--config", policy.path])  // Monday 10:00: open
        #expect(lectern.settle())
        #expect(written() == "0\n")
        lectern.jump(by: Self.hour)
        #expect(lectern.status.hours.isCurtainDown && written() == "4\n")
        lectern.jump(by: 7 * 24 * Self.hour - 3 * Self.hour)  // next Monday 08:00
        #expect(lectern.status.hours.isOpen && written() == "0\n")
        try FileManager.default.removeItem(atPath: power)
        lectern.jump(by: 3 * Self.hour)
        #expect(lectern.status.hours.isCurtainDown, "a backlight that cannot be written is no reason to stay lit")
        #expect(lectern.logs.filter { $0.contains("cannot turn the backlight off") }.count == 1)
        try lectern.stop()
    }

    @Test("while closed the frame dump is black, as the screen is, and the log says the curtain is on screen")
    func frameDumpWhileClosed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-dump-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("frame.png").path
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\nframe-dump = \"\(dump)\"\n[hours]\nmon = [\"11:00-12:00\"]\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.status.hours.isCurtainDown)
        #expect(lectern.logs.contains { $0.contains("curtain committed 1280x720") })
        try lectern.stop()  // writes the last frame and waits for it
        let image = try PNGReader.read(path: dump)
        #expect(image.width == 1280 && image.height == 720)
        let lit = (0..<720).reduce(0) { sum, y in sum + (0..<1280).filter { image.pixel(x: $0, y: y) != 0 }.count }
        #expect(lit == 0, "\(lit) pixels are not black")
    }

    @Test("lectern ctl status says closed and when it opens; the metrics file's lectern_open is 0, then 1")
    func statusAndMetrics() throws {
        let kiosk = try ControlSocketTests.Kiosk(
            [Self.colors], policy: "[hours]\nmon = [\"11:00-12:00\"]\n[metrics]\ntextfile = \"lectern.prom\"\n")
        let status = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(status.hours == ControlStatus.Hours(isOpen: false, nextChange: "2026-11-30 11:00", show: nil))
        let metrics = kiosk.directory.appendingPathComponent("lectern.prom").path
        func open() -> Double? {
            let text = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").first { $0.hasPrefix("lectern_open ") }.flatMap {
                Double($0.dropFirst(13))
            }
        }
        kiosk.lectern.jump(by: 16)
        #expect(kiosk.lectern.wait { kiosk.lectern.status.metricsWritten == 1 })
        #expect(open() == 0)
        kiosk.lectern.jump(by: Self.hour)  // 11:00:16 (the overdue write came first, closed)
        #expect(kiosk.lectern.wait { kiosk.lectern.status.metricsWritten == 2 })
        kiosk.lectern.jump(by: 16)
        #expect(kiosk.lectern.wait { kiosk.lectern.status.metricsWritten == 3 })
        #expect(open() == 1)
        let opened = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(opened.hours == ControlStatus.Hours(isOpen: true, nextChange: "2026-11-30 12:00", show: nil))
    }
}
