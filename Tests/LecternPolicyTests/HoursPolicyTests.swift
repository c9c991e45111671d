import Foundation
import LecternCore
import LecternPolicy
import Testing

/// The policy's `[hours]`: ranges, dates closed and shows become `OpeningHours`, and
/// `--check-config` names each bad range, date, overlap and unknown show by line and key.
@Suite("Opening hours in the policy")
struct HoursPolicyTests {
    func problems(_ text: String) -> [String] { PolicyFileTests().problems(text) }

    @Test("ranges, dates, wake, backlight and shows are read; a show's paths are relative to the file")
    func parsed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hours-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["breakfast.pdf", "a.pdf", "b.pdf"] {
            _ = FileManager.default.createFile(
                atPath: directory.appendingPathComponent(name).path, contents: Data("%PDF-".utf8))
        }
        let text = """
            [hours]
            mon = ["08:00-11:30 breakfast", "11:30-22:00"]
            fri = ["22:00-02:00 night"]
            closed = ["2026-12-25", "2027-01-01"]
            wake = "touch"
            backlight = "auto"
            [hours.show.breakfast]
            document = "breakfast.pdf"
            attract = 30
            [hours.show.night]
            documents = ["a.pdf", "b.pdf"]
            """
        let configuration = try PolicyFile.parse(
            text, path: directory.appendingPathComponent("lectern.toml").path, over: PolicyFileTests.base)
        let hours = configuration.openingHours
        #expect(hours.week[0].map(\.description) == ["08:00-11:30 breakfast", "11:30-22:00"])
        #expect(hours.week[4].map(\.description) == ["22:00-02:00 night"])
        #expect(
            hours.closedDates == [LocalDate(year: 2026, month: 12, day: 25), LocalDate(year: 2027, month: 1, day: 1)])
        #expect(configuration.hoursWake == .touch && configuration.hoursBacklight == "auto")
        #expect(
            configuration.hoursShows["breakfast"]
                == HoursShow(
                    documents: [directory.appendingPathComponent("breakfast.pdf").path], attractAfterSeconds: 30))
        #expect(
            configuration.hoursShows["night"]?.documents.map { $0.split(separator: "/").last! } == ["a.pdf", "b.pdf"])
        let none = try PolicyFile.parse("", path: "p.toml", over: PolicyFileTests.base)
        #expect(!none.openingHours.isInUse && none.hoursWake == .off && none.hoursBacklight == nil, "the defaults")
    }

    @Test("bad ranges, dates, overlaps, unknown shows and show keys: each by its line and key")
    func messages() {
        #expect(
            problems("[hours]\nmon = [\"8:00-12:00\"]\ntue = \"09:00-17:00\"\nclosed = [\"2026-02-30\"]\n") == [
                "p.toml:2: hours.mon: \"8:00-12:00\" is not a range of times such as \"08:00-18:00\" (00:00 to 24:00)",
                "p.toml:3: hours.tue: needs a list of ranges such as [\"08:00-18:00\"], not a string",
                "p.toml:4: hours.closed: \"2026-02-30\" is not a date such as \"2026-12-25\"",
            ])
        #expect(
            problems("[hours]\nsun = [\"22:00-03:00\"]\nmon = [\"02:00-09:00 lunch\"]\n") == [
                "p.toml:2: hours.sun: \"22:00-03:00\" overlaps mon's \"02:00-09:00 lunch\"",
                "p.toml:3: hours.mon: \"02:00-09:00 lunch\" names the show \"lunch\", which no [hours.show.lunch] defines",
            ])
        #expect(
            problems("[hours.show.lunch]\nattract = -1\nvideo = \"x\"\ndocument = \"/nonexistent.pdf\"\n") == [
                "p.toml:2: hours.show.lunch.attract: must be between 0 and 86400, not -1",
                "p.toml:3: hours.show.lunch.video: unknown key (known here: document, documents, attract)",
                "p.toml:4: hours.show.lunch.document: no such document: /nonexistent.pdf",
            ])
        #expect(
            problems("[hours]\nwake = \"shake\"\n")
                == ["p.toml:2: hours.wake: must be one of off, touch, not \"shake\""])
    }

    @Test("a show puts its document or shelf and its attract wait over the policy's; none changes nothing")
    func showing() {
        var base = PolicyFileTests.base
        base.shelfPaths = ["/srv/a.pdf", "/srv/b.pdf"]
        base.attractAfterSeconds = 60
        let breakfast = base.showing(HoursShow(documents: ["/srv/breakfast.pdf"], attractAfterSeconds: 0))
        #expect(breakfast.documentPath == "/srv/breakfast.pdf" && breakfast.shelfPaths.isEmpty)
        #expect(breakfast.attractAfterSeconds == 0)
        let shelf = base.showing(HoursShow(documents: ["/srv/c.pdf", "/srv/d.pdf"]))
        #expect(shelf.documentPath == "/srv/c.pdf" && shelf.shelfPaths == ["/srv/c.pdf", "/srv/d.pdf"])
        #expect(shelf.attractAfterSeconds == 60, "no attract in the show: the policy's")
        let attractOnly = base.showing(HoursShow(attractAfterSeconds: 5))
        #expect(attractOnly.documentPath == base.documentPath && attractOnly.shelfPaths == base.shelfPaths)
        #expect(attractOnly.attractAfterSeconds == 5)
        #expect(base.showing(nil).documentPath == base.documentPath)
    }
}
