/// A day of the calendar (proleptic Gregorian), as the kiosk's local time names it.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    /// 1…12.
    public var month: Int
    /// 1…31.
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative: before).
    public init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the week: 0 is Monday, 6 is Sunday (1970-01-01 was a Thursday).
    public var weekday: Int { ((daysSinceEpoch + 3) % 7 + 7) % 7 }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Parses "YYYY-MM-DD"; nil unless it names a day that exists.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard (1...12).contains(month), LocalDate(daysSinceEpoch: daysSinceEpoch) == self else { return nil }
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

/// A moment as the kiosk's local time names it: a date and the minute and second of that day.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: LocalDate
    /// Minutes since midnight, 0…1439.
    public var minute: Int
    /// 0…59 (60 in a leap second).
    public var second: Int

    public init(date: LocalDate, minute: Int, second: Int = 0) {
        self.date = date
        self.minute = minute
        self.second = second
    }

    /// The local moment `seconds` seconds after 1970-01-01 00:00 local (the epoch's seconds
    /// plus the zone's UTC offset).
    public init(localSeconds seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        self.init(date: LocalDate(daysSinceEpoch: days), minute: rest / 60, second: rest % 60)
    }

    /// Seconds since 1970-01-01 00:00 in local time (no zone applied).
    public var localSeconds: Int { date.daysSinceEpoch * 86_400 + minute * 60 + second }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.localSeconds < b.localSeconds }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date) \(two(minute / 60)):\(two(minute % 60))"
    }
}
