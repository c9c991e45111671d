import Testing

@testable import LecternCore

/// The opening hours as a schedule in local time: ranges, midnight, closed dates, shows.
@Suite("Opening hours")
struct OpeningHoursTests {
    /// Monday 2026-11-30.
    static let monday = LocalDate(year: 2026, month: 11, day: 30)

    static func at(_ date: LocalDate, _ hour: Int, _ minute: Int = 0) -> LocalDateTime {
        LocalDateTime(date: date, minute: hour * 60 + minute)
    }

    static func range(_ text: String) -> OpeningHours.Range {
        guard case .success(let range) = OpeningHours.Range.parse(text) else { fatalError("not a range: \(text)") }
        return range
    }

    static func hours(_ days: [Int: [String]], closed: [LocalDate] = []) -> OpeningHours {
        var week: [[OpeningHours.Range]] = Array(repeating: [], count: 7)
        for (day, texts) in days { week[day] = texts.map(range) }
        return OpeningHours(week: week, closedDates: Set(closed))
    }

    @Test("dates: days since the epoch both ways, weekdays, and only real dates parse")
    func dates() {
        #expect(LocalDate(daysSinceEpoch: 0) == LocalDate(year: 1970, month: 1, day: 1))
        #expect(LocalDate(year: 1970, month: 1, day: 1).weekday == 3, "a Thursday")
        #expect(Self.monday.weekday == 0 && Self.monday.adding(days: 6).weekday == 6)
        #expect(LocalDate(year: 2028, month: 2, day: 29).adding(days: 1) == LocalDate(year: 2028, month: 3, day: 1))
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(LocalDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(LocalDate(parsing: "2026-12-25") == LocalDate(year: 2026, month: 12, day: 25))
        for bad in ["2026-02-29", "2026-13-01", "2026-12-5", "26-12-25", "2026-12-+5", "christmas"] {
            #expect(LocalDate(parsing: bad) == nil, "\(bad)")
        }
        #expect(
            LocalDateTime(localSeconds: -1)
                == LocalDateTime(date: LocalDate(year: 1969, month: 12, day: 31), minute: 1439, second: 59))
    }

    @Test("ranges parse with an optional show; bad times, empty ranges and 24:00 starts are refused")
    func ranges() {
        #expect(Self.range("08:00-11:30 breakfast") == .init(start: 480, end: 690, show: "breakfast"))
        #expect(Self.range("22:00-02:00").crossesMidnight && Self.range("22:00-02:00").minutes == 240)
        #expect(Self.range("00:00-24:00").minutes == 1440 && !Self.range("00:00-24:00").crossesMidnight)
        #expect(Self.range("20:00-00:00") == .init(start: 1200, end: 1440), "midnight as the end is 24:00")
        let problems = [
            "8:00-12:00", "08:00-25:00", "08:60-09:00", "24:00-02:00", "09:00-09:00", "00:00-00:00",
            "08:00-09:00 a b", "08:00",
        ].map { text -> String? in
            if case .failure(let problem) = OpeningHours.Range.parse(text) { return problem.message }
            return nil
        }
        #expect(problems.allSatisfy { $0 != nil }, "\(problems)")
        #expect(problems[4] == "\"09:00-09:00\" is empty; a whole day is \"00:00-24:00\"")
    }

    @Test("open inside a range, closed outside it, and a range past midnight belongs to the day it starts")
    func states() {
        let hours = Self.hours([0: ["08:00-12:00 morning", "12:00-18:00"], 4: ["22:00-02:00 night"]])
        let friday = Self.monday.adding(days: 4)
        #expect(hours.state(at: Self.at(Self.monday, 7, 59)) == .closed)
        #expect(hours.state(at: Self.at(Self.monday, 8)) == .open(show: "morning"))
        #expect(hours.state(at: Self.at(Self.monday, 12)) == .open(show: nil))
        #expect(hours.state(at: Self.at(Self.monday, 18)) == .closed)
        #expect(hours.state(at: Self.at(friday, 23)) == .open(show: "night"))
        #expect(hours.state(at: Self.at(friday.adding(days: 1), 1, 59)) == .open(show: "night"), "Saturday night")
        #expect(hours.state(at: Self.at(friday.adding(days: 1), 2)) == .closed)
        #expect(hours.state(at: Self.at(Self.monday.adding(days: 1), 1)) == .closed, "Monday has no late range")
        #expect(OpeningHours().state(at: Self.at(Self.monday, 3)) == .open(show: nil), "no hours: always open")
        #expect(OpeningHours().nextChange(after: Self.at(Self.monday, 3)) == nil)
    }

    @Test("the next change: opening, a new show, closing, across midnight and the week's end")
    func nextChanges() {
        let hours = Self.hours([0: ["08:00-12:00 morning", "12:00-18:00"], 6: ["20:00-01:00"]])
        let sunday = Self.monday.adding(days: 6)
        #expect(hours.nextChange(after: Self.at(Self.monday, 3)) == Self.at(Self.monday, 8))
        #expect(hours.nextChange(after: Self.at(Self.monday, 8)) == Self.at(Self.monday, 12), "a new show")
        #expect(hours.nextChange(after: Self.at(Self.monday, 12, 30)) == Self.at(Self.monday, 18))
        #expect(hours.nextChange(after: Self.at(Self.monday, 18)) == Self.at(sunday, 20))
        #expect(hours.nextChange(after: Self.at(sunday, 21)) == Self.at(sunday.adding(days: 1), 1))
        #expect(hours.nextChange(after: Self.at(sunday.adding(days: 1), 1)) == Self.at(sunday.adding(days: 1), 8))
        let allDay = Self.hours(Dictionary(uniqueKeysWithValues: (0..<7).map { ($0, ["00:00-24:00"]) }))
        #expect(allDay.nextChange(after: Self.at(Self.monday, 3)) == nil, "open round the clock: no change")
        #expect(allDay.state(at: Self.at(Self.monday, 0)) == .open(show: nil))
    }

    @Test("a closed date keeps its ranges shut, but not the night range of the day before")
    func closedDates() {
        let christmas = LocalDate(year: 2026, month: 12, day: 25)  // a Friday
        let daily = Dictionary(uniqueKeysWithValues: (0..<7).map { ($0, ["09:00-17:00", "22:00-02:00"]) })
        let hours = Self.hours(daily, closed: [christmas])
        #expect(hours.state(at: Self.at(christmas, 1)) == .open(show: nil), "the 24th's night range")
        #expect(hours.state(at: Self.at(christmas, 10)) == .closed)
        #expect(hours.state(at: Self.at(christmas, 23)) == .closed)
        #expect(hours.nextChange(after: Self.at(christmas, 1)) == Self.at(christmas, 2))
        #expect(hours.nextChange(after: Self.at(christmas, 2)) == Self.at(christmas.adding(days: 1), 9))
        let only = Self.hours([:], closed: [christmas])
        #expect(only.isInUse && only.state(at: Self.at(christmas, 10)) == .closed, "dates alone: closed but in use")
    }

    @Test("overlapping ranges are found, on one day, past midnight and round the week's end")
    func overlaps() {
        #expect(Self.hours([0: ["08:00-12:00", "12:00-18:00"], 1: ["00:00-24:00"]]).overlaps.isEmpty)
        #expect(Self.hours([0: ["08:00-12:00", "11:00-13:00"]]).overlaps.count == 1)
        #expect(Self.hours([0: ["22:00-02:00"], 1: ["01:00-05:00"]]).overlaps.count == 1)
        let aroundTheWeek = Self.hours([6: ["23:00-01:00"], 0: ["00:30-08:00"]]).overlaps
        #expect(aroundTheWeek.count == 1 && aroundTheWeek.first?.0 == 0 && aroundTheWeek.first?.2 == 6)
    }
}
