/// When the kiosk is open: time ranges for each day of the week, dates it stays closed, and
/// for each range the show it opens with (a name the policy's `[hours.show.NAME]` defines).
///
/// A range belongs to the day it starts on: Friday's "22:00-02:00" runs until 02:00 on
/// Saturday, and a closed date closes the ranges that start on it (Friday's late range still
/// runs into a closed Saturday). Everything here is local time; `WallClock` turns it into instants.
public struct OpeningHours: Equatable, Sendable {
    /// One range of a day: from `start` to `end`, minutes since midnight.
    public struct Range: Equatable, Sendable, CustomStringConvertible {
        /// 0…1439.
        public var start: Int
        /// 1…1440 (24:00); at or before `start`, the range ends the next day.
        public var end: Int
        /// The show it opens with (`[hours.show.NAME]`); nil: the policy's own document.
        public var show: String?

        public init(start: Int, end: Int, show: String? = nil) {
            self.start = start
            self.end = end
            self.show = show
        }

        /// Parses "HH:MM-HH:MM" with an optional show's name after a space ("08:00-11:30
        /// breakfast"); the problem in the operator's words otherwise.
        public static func parse(_ text: String) -> Result<Range, RangeProblem> {
            let words = text.split(separator: " ", omittingEmptySubsequences: true)
            guard (1...2).contains(words.count) else {
                return .failure(.init("\"\(text)\" is not a range such as \"08:00-18:00\" (or \"08:00-18:00 NAME\")"))
            }
            let ends = words[0].split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 2, let start = minute(ends[0]), let end = minute(ends[1]) else {
                return .failure(
                    .init("\"\(words[0])\" is not a range of times such as \"08:00-18:00\" (00:00 to 24:00)"))
            }
            guard start < 1440 else { return .failure(.init("\"\(words[0])\" starts at 24:00; start at 00:00")) }
            guard start != end % 1440 || (start == 0 && end == 1440) else {
                return .failure(.init("\"\(words[0])\" is empty; a whole day is \"00:00-24:00\""))
            }
            return .success(
                Range(start: start, end: end == 0 ? 1440 : end, show: words.count == 2 ? String(words[1]) : nil))
        }

        /// "HH:MM" as minutes since midnight (24:00 is 1440), or nil.
        private static func minute(_ text: Substring) -> Int? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
                parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60,
                hour < 24 || (hour == 24 && minute == 0)
            else { return nil }
            return hour * 60 + minute
        }

        /// Whether it runs past midnight into the next day ("22:00-02:00").
        public var crossesMidnight: Bool { end <= start }

        /// Its length in minutes.
        public var minutes: Int { crossesMidnight ? end + 1440 - start : end - start }

        public var description: String {
            func time(_ minute: Int) -> String {
                let (hour, rest) = (minute / 60, minute % 60)
                return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + (rest < 10 ? "0\(rest)" : "\(rest)")
            }
            return time(start) + "-" + time(end) + (show.map { " " + $0 } ?? "")
        }
    }

    /// What is wrong with a range, as the operator reads it.
    public struct RangeProblem: Error, Equatable, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// Open (with the range's show), or closed.
    public enum State: Equatable, Sendable {
        case open(show: String?)
        case closed

        public var isOpen: Bool { self != .closed }
    }

    /// The ranges of each day of the week, Monday (0) to Sunday (6).
    public var week: [[Range]]
    /// The dates whose ranges do not open.
    public var closedDates: Set<LocalDate>

    public init(week: [[Range]] = Array(repeating: [], count: 7), closedDates: Set<LocalDate> = []) {
        precondition(week.count == 7, "a week has seven days")
        self.week = week
        self.closedDates = closedDates
    }

    /// Whether the hours say anything: without a range or a closed date, the kiosk is always open.
    public var isInUse: Bool { week.contains { !$0.isEmpty } || !closedDates.isEmpty }

    /// The ranges that start on `date` (none on a closed date).
    private func ranges(startingOn date: LocalDate) -> [Range] {
        closedDates.contains(date) ? [] : week[date.weekday]
    }

    /// Open or closed at `moment` (always open while not in use).
    public func state(at moment: LocalDateTime) -> State {
        guard isInUse else { return .open(show: nil) }
        let minute = moment.minute
        if let range = ranges(startingOn: moment.date).first(where: {
            minute >= $0.start && ($0.crossesMidnight || minute < $0.end)
        }) {
            return .open(show: range.show)
        }
        if let range = ranges(startingOn: moment.date.adding(days: -1)).first(where: {
            $0.crossesMidnight && minute < $0.end
        }) {
            return .open(show: range.show)
        }
        return .closed
    }

    /// The first moment after `moment` at which the state changes (open to closed, closed to
    /// open, or one show to another), within a year and a week; nil if none does.
    public func nextChange(after moment: LocalDateTime) -> LocalDateTime? {
        guard isInUse else { return nil }
        let current = state(at: moment)
        var boundaries: Set<LocalDateTime> = []
        for day in -1...372 {
            let date = moment.date.adding(days: day)
            for range in ranges(startingOn: date) {
                boundaries.insert(Self.moment(date, range.start))
                boundaries.insert(Self.moment(range.crossesMidnight ? date.adding(days: 1) : date, range.end))
            }
        }
        return boundaries.filter { $0 > moment }.sorted().first { state(at: $0) != current }
    }

    /// `minute` (up to 1440) of `date`, 1440 being the next day's midnight.
    private static func moment(_ date: LocalDate, _ minute: Int) -> LocalDateTime {
        minute >= 1440
            ? LocalDateTime(date: date.adding(days: 1), minute: minute - 1440)
            : LocalDateTime(date: date, minute: minute)
    }

    /// The ranges that overlap another in the week (a Sunday range past midnight meets
    /// Monday's), as (day, range, day, range) with days 0 (Monday) to 6.
    public var overlaps: [(Int, Range, Int, Range)] {
        let week = 7 * 1440
        let spans = self.week.enumerated().flatMap { day, ranges in
            ranges.map { (day: day, range: $0, start: day * 1440 + $0.start) }
        }
        var found: [(Int, Range, Int, Range)] = []
        for (i, a) in spans.enumerated() {
            for b in spans[(i + 1)...] {
                // b starts inside a, or a inside b, counting around the week's end.
                let bFromA = ((b.start - a.start) % week + week) % week
                let aFromB = ((a.start - b.start) % week + week) % week
                if bFromA < a.range.minutes || aFromB < b.range.minutes {
                    found.append((a.day, a.range, b.day, b.range))
                }
            }
        }
        return found
    }

    /// The days' names in the policy, Monday first.
    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}
