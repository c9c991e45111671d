import Foundation
import LecternCore
import Testing

@testable import LecternLinux

/// The wall clock: the test one moves with the manual clock, is set by hand and keeps a zone
/// with daylight saving as mktime does; the system one agrees with itself.
@Suite("Wall clock")
struct WallClockTests {
    /// 2026-03-29 00:00 UTC, the night the EU's clocks go forward at 01:00 UTC.
    static let springNight = 1_774_742_400.0

    @Test("it moves with the manual clock; local time is the zone's; setting it tells the watchers")
    func moves() throws {
        let clock = ManualClock(start: 5)
        let wall = ManualWallClock(clock: clock, start: Self.springNight, zone: .init(utcOffset: 3600))
        let loop = try EventLoop(clock: clock)
        var told = 0
        let watch = wall.watchChanges(on: loop) { told += 1 }
        clock.advance(by: 90)
        #expect(wall.now == Self.springNight + 90)
        #expect(wall.local(at: wall.now).description == "2026-03-29 01:01")
        wall.set(to: Self.springNight + 7200)
        #expect(wall.now == Self.springNight + 7200 && told == 1)
        wall.zone = .init(utcOffset: -5 * 3600)
        #expect(told == 2 && wall.local(at: wall.now).description == "2026-03-28 21:00")
        watch.cancel()
        wall.set(to: Self.springNight)
        #expect(told == 2, "a cancelled watch is not told")
    }

    @Test("daylight saving: local times before, after, in the skipped hour and in the repeated hour")
    func daylightSaving() {
        let zone = ManualWallClock.Zone(utcOffset: 3600).changing(to: 7200, at: Self.springNight + 3600)
            .changing(to: 3600, at: Self.springNight + 210 * 86_400 + 3600)
        let wall = ManualWallClock(clock: ManualClock(), start: Self.springNight, zone: zone)
        let day = LocalDate(year: 2026, month: 3, day: 29)
        #expect(wall.instant(of: LocalDateTime(date: day, minute: 60)) == Self.springNight)
        #expect(wall.instant(of: LocalDateTime(date: day, minute: 180)) == Self.springNight + 3600, "03:00 CEST")
        #expect(wall.instant(of: LocalDateTime(date: day, minute: 150)) == Self.springNight + 5400, "02:30 is 03:30")
        #expect(wall.local(at: Self.springNight + 3600).description == "2026-03-29 03:00")
        let autumn = LocalDate(daysSinceEpoch: Int(Self.springNight / 86_400) + 210)
        #expect(
            wall.instant(of: LocalDateTime(date: autumn, minute: 150)) == Self.springNight + 210 * 86_400 + 1800,
            "02:30 twice: the first")
    }

    @Test("the system clock reads CLOCK_REALTIME, and local time goes back to the instant it came from")
    func system() throws {
        let wall = SystemWallClock()
        #expect(abs(wall.now - Date().timeIntervalSince1970) < 5)
        let now = wall.now.rounded(.down)
        #expect(wall.instant(of: wall.local(at: now)) == now)
        let loop = try EventLoop(clock: SystemClock())
        let watch = try wall.watchChanges(on: loop) {}
        try loop.runOnce(timeout: .zero)
        watch.cancel()
    }
}
