import CLecternLinux
import Glibc
import LecternCore
import SystemPackage

/// The date and the time of day where the kiosk stands: what follows the calendar (opening
/// hours) reads it; everything else reads the event loop's monotonic clock.
///
/// `SystemWallClock` is CLOCK_REALTIME and the system's time zone (TZ, /etc/localtime);
/// `ManualWallClock` is moved by a test's manual clock, and its clock and zone are set by hand.
public protocol WallClock: AnyObject {
    /// Seconds since 1970-01-01 00:00 UTC.
    var now: Double { get }
    /// The local date and time at `instant` (seconds since the epoch), in the zone in force.
    func local(at instant: Double) -> LocalDateTime
    /// The instant `local` names: in an hour the zone repeats (DST ends), the first; in an hour
    /// it skips (DST begins), as far past the gap as `local` is into it.
    func instant(of local: LocalDateTime) -> Double
    /// Calls `handler` on `loop` each time the clock is set or the zone is changed, until the
    /// watch is cancelled. (A daylight saving change is neither: `instant(of:)` knows it.)
    func watchChanges(on loop: EventLoop, _ handler: @escaping () -> Void) throws(SystemError) -> WallClockWatch
}

/// A watch of a wall clock's changes; `cancel()` ends it, and so does dropping it.
public final class WallClockWatch {
    private var stop: (() -> Void)?

    init(stop: @escaping () -> Void) { self.stop = stop }

    deinit { cancel() }

    public func cancel() {
        stop?()
        stop = nil
    }
}

/// CLOCK_REALTIME in the system's zone. The zone is read again (`tzset`) at every `local(at:)`,
/// so a new /etc/localtime applies at the next reading; a clock set (by NTP's step, or by hand)
/// is noticed through a timerfd with TFD_TIMER_CANCEL_ON_SET.
public final class SystemWallClock: WallClock {
    public init() {}

    public var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    public func local(at instant: Double) -> LocalDateTime {
        tzset()
        var seconds = time_t(instant.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return LocalDateTime(
            date: LocalDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)),
            minute: Int(parts.tm_hour) * 60 + Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    public func instant(of local: LocalDateTime) -> Double {
        var parts = tm()
        parts.tm_year = Int32(local.date.year - 1900)
        parts.tm_mon = Int32(local.date.month - 1)
        parts.tm_mday = Int32(local.date.day)
        parts.tm_hour = Int32(local.minute / 60)
        parts.tm_min = Int32(local.minute % 60)
        parts.tm_sec = Int32(local.second)
        parts.tm_isdst = -1  // mktime decides whether daylight saving is in force then
        return Double(mktime(&parts))
    }

    public func watchChanges(
        on loop: EventLoop, _ handler: @escaping () -> Void
    ) throws(SystemError) -> WallClockWatch {
        let fd = CLecternLinux_clock_change_timerfd()
        guard fd >= 0 else { throw SystemError("timerfd_create(CLOCK_REALTIME)") }
        let descriptor = FileDescriptor(rawValue: fd)
        let watch = loop.watch(descriptor) {
            if CLecternLinux_clock_change_read(fd) == 1 { handler() }
        }
        return WallClockWatch {
            watch.cancel()
            try? descriptor.close()
        }
    }
}

/// A wall clock for tests: it moves with a monotonic (manual) clock from `start`; `set(to:)`
/// sets it as an administrator would (watchers are told), `zone` is its time zone.
public final class ManualWallClock: WallClock {
    /// A time zone as a list of UTC offsets, each from an instant on (daylight saving is one
    /// more entry).
    public struct Zone: Sendable {
        /// (from this instant on, this many seconds east of UTC), in order.
        public var offsets: [(from: Double, seconds: Int)]

        /// A zone `seconds` east of UTC at all times.
        public init(utcOffset seconds: Int) { offsets = [(-.infinity, seconds)] }

        /// The zone with its offset `seconds` from `instant` on.
        public func changing(to seconds: Int, at instant: Double) -> Zone {
            var zone = self
            zone.offsets = offsets.filter { $0.from < instant } + [(instant, seconds)]
            return zone
        }

        /// The offset in force at `instant`.
        public func offset(at instant: Double) -> Int {
            offsets.last(where: { $0.from <= instant })?.seconds ?? offsets[0].seconds
        }
    }

    private let clock: any MonotonicClock
    private var origin: Double
    private var handlers: [Int: () -> Void] = [:]
    private var nextHandler = 0
    /// The time zone; setting it tells the watchers (a new zone, as a new /etc/localtime).
    public var zone: Zone {
        didSet { changed() }
    }

    /// A clock reading `start` (seconds since the epoch) when `clock` reads what it reads now.
    public init(clock: any MonotonicClock, start: Double, zone: Zone = Zone(utcOffset: 0)) {
        self.clock = clock
        origin = start - clock.now
        self.zone = zone
    }

    public var now: Double { origin + clock.now }

    /// Sets the clock to `instant` (a jump forward or back); the watchers are told.
    public func set(to instant: Double) {
        origin = instant - clock.now
        changed()
    }

    public func local(at instant: Double) -> LocalDateTime {
        LocalDateTime(localSeconds: Int((instant + Double(zone.offset(at: instant))).rounded(.down)))
    }

    public func instant(of local: LocalDateTime) -> Double {
        let seconds = Double(local.localSeconds)
        // The earliest offset that gives back `local` at the instant it gives; none in a gap,
        // where the offset before the gap moves `local` past it (as mktime does).
        let fitting = zone.offsets.map { seconds - Double($0.seconds) }.filter {
            Double(zone.offset(at: $0)) == seconds - $0
        }
        if let first = fitting.min() { return first }
        let before = zone.offsets.last(where: { $0.from <= seconds - Double($0.seconds) }) ?? zone.offsets[0]
        return seconds - Double(before.seconds)
    }

    public func watchChanges(on loop: EventLoop, _ handler: @escaping () -> Void) -> WallClockWatch {
        nextHandler += 1
        let id = nextHandler
        handlers[id] = handler
        return WallClockWatch { [weak self] in self?.handlers[id] = nil }
    }

    private func changed() {
        for id in handlers.keys.sorted() { handlers[id]?() }
    }
}
