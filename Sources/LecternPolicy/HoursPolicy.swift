import Glibc
import LecternCore

// The policy's `[hours]`: the weekly ranges, the dates closed, the wake and the backlight are
// settings of `PolicySettings`; the shows (`[hours.show.NAME]`, NAME chosen by the operator)
// are rows of `PolicyKeys` made here, and `hoursProblems(in:)` checks what no single key can
// (ranges that overlap, a show no table defines).

/// What a range of the opening hours opens with (`[hours.show.NAME]`).
public struct HoursShow: Equatable, Sendable {
    /// The document (one path) or the shelf (two or more) shown when the range opens; empty:
    /// the policy's own `document`/`documents`.
    public var documents: [String] = []
    /// Seconds after the idle reset before the attract loop pages the document, while the
    /// range is open (nil: `attract.after`; 0: no attract loop).
    public var attractAfterSeconds: Int?

    public init(documents: [String] = [], attractAfterSeconds: Int? = nil) {
        self.documents = documents
        self.attractAfterSeconds = attractAfterSeconds
    }
}

/// What a touch, click or key does while the kiosk is closed (`hours.wake`).
public enum HoursWake: String, Sendable, CaseIterable {
    /// Nothing (the default).
    case off
    /// It lifts the curtain until the idle reset's time passes without input.
    case touch
}

extension PolicySetting where Value == [OpeningHours.Range] {
    /// A day's ranges of the opening hours ("08:00-12:00", "22:00-02:00 night").
    public static func ranges(_ name: String) -> Self {
        Self(name, default: []) { value in
            guard case .strings(let texts) = value else {
                return .failure(.init("needs a list of ranges such as [\"08:00-18:00\"], not \(value.typeName)"))
            }
            var ranges: [OpeningHours.Range] = []
            for text in texts {
                switch OpeningHours.Range.parse(text) {
                case .success(let range): ranges.append(range)
                case .failure(let problem): return .failure(.init(problem.message))
                }
            }
            return .success(ranges)
        }
    }
}

extension PolicySetting where Value == [LocalDate] {
    /// A list of dates ("2026-12-25").
    public static func dates(_ name: String) -> Self {
        Self(name, default: []) { value in
            guard case .strings(let texts) = value else {
                return .failure(.init("needs a list of dates such as [\"2026-12-25\"], not \(value.typeName)"))
            }
            var dates: [LocalDate] = []
            for text in texts {
                guard let date = LocalDate(parsing: text) else {
                    return .failure(.init("\"\(text)\" is not a date such as \"2026-12-25\""))
                }
                dates.append(date)
            }
            return .success(dates)
        }
    }
}

extension PolicyKeys {
    /// The keys of a show's table, `hours.show.NAME.KEY`.
    public static let showKeys = ["document", "documents", "attract"]

    /// The row of `hours.show.NAME.KEY`, for any NAME; nil for another key.
    static func showKey(_ key: String) -> Key? {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "hours", parts[1] == "show", !parts[2].isEmpty else { return nil }
        let show = String(parts[2])
        switch parts[3] {
        case "document":
            return Key(name: key, isPath: true) { c, v in
                guard case .string(let path) = v else { return "needs a string, not \(v.typeName)" }
                guard access(path, F_OK) == 0 else { return "no such document: \(path)" }
                c.hoursShows[show, default: HoursShow()].documents = [path]
                return nil
            }
        case "documents":
            return Key(name: key, isPath: true) { c, v in
                guard case .strings(let paths) = v, !paths.isEmpty else {
                    return "needs a list of one or more paths, not \(v.typeName)"
                }
                if let missing = paths.first(where: { access($0, F_OK) != 0 }) { return "no such document: \(missing)" }
                c.hoursShows[show, default: HoursShow()].documents = paths
                return nil
            }
        case "attract":
            return Key(name: key) { c, v in
                guard case .integer(let seconds) = v else { return "needs a whole number, not \(v.typeName)" }
                guard (0...86_400).contains(seconds) else { return "must be between 0 and 86400, not \(seconds)" }
                c.hoursShows[show, default: HoursShow()].attractAfterSeconds = seconds
                return nil
            }
        default: return nil
        }
    }

    /// What is wrong with the opening hours as a whole, by key: ranges that overlap, shows no
    /// `[hours.show.NAME]` defines.
    static func hoursProblems(in configuration: KioskConfiguration) -> [(key: String, message: String)] {
        let hours = configuration.openingHours
        var problems: [(key: String, message: String)] = []
        for (day, ranges) in hours.week.enumerated() {
            for range in ranges {
                if let show = range.show, configuration.hoursShows[show] == nil {
                    problems.append(
                        (
                            "hours." + OpeningHours.dayNames[day],
                            "\"\(range)\" names the show \"\(show)\", which no [hours.show.\(show)] defines"
                        ))
                }
            }
        }
        for (dayA, a, dayB, b) in hours.overlaps {
            let (first, second) = (OpeningHours.dayNames[dayA], OpeningHours.dayNames[dayB])
            problems.append(("hours." + second, "\"\(b)\" overlaps \(first)'s \"\(a)\""))
        }
        return problems
    }
}

extension KioskConfiguration {
    /// The opening hours the policy's `[hours]` sets (not in use without ranges or dates).
    public var openingHours: OpeningHours {
        OpeningHours(
            week: [
                self.hoursMonday, self.hoursTuesday, self.hoursWednesday, self.hoursThursday, self.hoursFriday,
                self.hoursSaturday, self.hoursSunday,
            ], closedDates: Set(self.hoursClosed))
    }
}

extension KioskConfiguration {
    /// The configuration while `show` is in force: its documents (one, or a shelf) in place of
    /// the policy's, its attract loop's wait in place of `attract.after`; unchanged for nil.
    public func showing(_ show: HoursShow?) -> KioskConfiguration {
        guard let show else { return self }
        var configuration = self
        if let first = show.documents.first {
            configuration.documentPath = first
            configuration.shelfPaths = show.documents.count > 1 ? show.documents : []
            configuration.shelfEntries = []  // the show's documents, in every language
        }
        if let seconds = show.attractAfterSeconds { configuration.attractAfterSeconds = seconds }
        return configuration
    }
}
