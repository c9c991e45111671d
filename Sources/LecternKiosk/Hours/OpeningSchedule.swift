import LecternCore
import LecternLinux
import LecternPolicy
import Logging

/// The opening hours on the wall clock: open (with the range's show) or closed, and when that
/// changes next. The show goes in force through `PolicyInForce.put(show:)`: the open range's, or
/// while closed the next range's (its document opens behind the curtain, ready at opening).
///
/// It reads the clock again at the next change (a loop timer, the instant `WallClock.instant(of:)`
/// gives, daylight saving included), at least every `longestWait` (a new zone file is seen then),
/// at once when the clock is set or the zone changes (`WallClock.watchChanges`), and when a
/// policy with other hours applies.
final class OpeningSchedule {
    let policy: PolicyInForce
    let clock: any WallClock
    let loop: EventLoop
    private let logger: Logger
    private var timer: EventLoop.Timer?
    private var watch: WallClockWatch?
    /// Open or closed now.
    private(set) var state: OpeningHours.State = .open(show: nil)
    /// The next change, in local time and as an instant of the wall clock (nil: none coming).
    private(set) var nextChange: (local: LocalDateTime, instant: Double)?
    /// The name of the show in force: the open range's, or while closed the next one's.
    private(set) var show: String?
    /// Told the old and the new state when it changes.
    var onChange: ((_ old: OpeningHours.State, _ new: OpeningHours.State) -> Void)?

    /// The longest the schedule goes without reading the clock while the hours are in use.
    static let longestWait = 3600.0

    init(policy: PolicyInForce, clock: any WallClock, loop: EventLoop, logger: Logger) {
        self.policy = policy
        self.clock = clock
        self.loop = loop
        self.logger = logger
        evaluate()
        policy.observe { [unowned self] old, new in
            if old.openingHours != new.openingHours || old.hoursShows != new.hoursShows { evaluate() }
        }
        do {
            watch = try clock.watchChanges(on: loop) { [unowned self] in
                logger.info("the wall clock was set or its zone changed: opening hours read again")
                evaluate()
            }
        } catch {
            logger.warning("clock changes are not followed (\(error)): the hours are read again every hour")
        }
    }

    /// Whether the hours are in use and the kiosk is closed.
    var isClosed: Bool { !state.isOpen }

    /// Reads the clock and the hours: the state, the show in force, the next reading.
    func evaluate() {
        // A timer due at the change may fire a hair before it: read the clock just after.
        let now = clock.now + 0.001
        let hours = policy.openingHours
        let local = clock.local(at: now)
        let new = hours.state(at: local)
        nextChange = hours.nextChange(after: local).map { ($0, clock.instant(of: $0)) }
        timer?.cancel()
        timer = nil
        if hours.isInUse {
            let wait = min(Self.longestWait, max(0.01, (nextChange?.instant ?? .infinity) - now))
            timer = loop.schedule(after: wait) { [unowned self] in evaluate() }
        }
        // Closed: the next range's show, so that its document is the one open at opening.
        let showing: OpeningHours.State = new.isOpen ? new : nextChange.map { hours.state(at: $0.local) } ?? new
        if case .open(let name) = showing { show = name } else { show = nil }
        policy.put(show: show.flatMap { policy.hoursShows[$0] })
        let old = state
        state = new
        guard old != new else { return }
        let until = nextChange.map { " until \($0.local)" } ?? ""
        switch new {
        case .closed: logger.info("closed\(until) (\(local))")
        case .open(let show): logger.info("open\(show.map { " with \($0)" } ?? "")\(until) (\(local))")
        }
        onChange?(old, new)
    }

    /// Stops the timer and the clock's watch (shutdown).
    func close() {
        timer?.cancel()
        timer = nil
        watch?.cancel()
        watch = nil
        onChange = nil
    }
}
