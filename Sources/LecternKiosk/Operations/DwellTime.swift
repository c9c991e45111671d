import CoreMetrics
import LecternCore

/// Dwell time (issue 34): how long each page of each document was on screen with a visitor
/// there (from the first press, key or wheel after an idle reset to the next reset) and,
/// counted apart, while the attract loop turned the pages by itself. Nobody there and no attract
/// loop (the page waiting for a visitor), the shelf on screen, or no document open: nothing counts.
///
/// The place on screen is looked at after every loop turn (`KioskMetrics.afterIteration`); the
/// time on a place is added to its counter when the place changes and before the metrics file
/// is written, so the file is at most one write interval behind.
struct DwellTime {
    /// Who the page was on screen for.
    enum Audience: String, Sendable {
        /// A visitor was there.
        case visitor
        /// The attract loop showed it.
        case attract
    }

    /// A page of a document (the file's name; the page's number from 1) and who it was for.
    struct Place: Hashable, Sendable {
        var document: String
        var page: Int
        var audience: Audience
    }

    /// The place on screen and since when (the loop's clock).
    private(set) var current: (place: Place, since: Double)?

    /// The place on screen is now `place` (nil: none that counts): returns the place left and
    /// its time, to be counted.
    mutating func move(to place: Place?, at now: Double) -> (place: Place, seconds: Double)? {
        guard current?.place != place else { return nil }
        let left = current.map { ($0.place, max(0, now - $0.since)) }
        current = place.map { ($0, now) }
        return left
    }

    /// The time on the current place until `now`, to be counted now (it counts on from `now`).
    mutating func flush(at now: Double) -> (place: Place, seconds: Double)? {
        guard let current else { return nil }
        self.current = (current.place, now)
        return (current.place, max(0, now - current.since))
    }
}

extension KioskMetrics {
    /// The page that counts as on screen now, and for whom (`DwellTime`).
    func dwellPlace(dominantPage: DominantPage) -> DwellTime.Place? {
        guard case .open = shown.phase, !isShelfShown(), let reader = current.reader,
            reader.view.layout.spreadCount > 0
        else { return nil }
        let audience: DwellTime.Audience
        if isAttracting() {
            audience = .attract
        } else if isVisitorPresent {
            audience = .visitor
        } else {
            return nil
        }
        let path = reader.document.path
        if path != dwellDocument.path {
            dwellDocument = (path, path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path)
        }
        return DwellTime.Place(document: dwellDocument.name, page: dominantPage.of(reader) + 1, audience: audience)
    }

    /// Counts the time of the place left, if the place on screen changed.
    func updateDwell(dominantPage: DominantPage) {
        if let left = dwell.move(to: dwellPlace(dominantPage: dominantPage), at: loop.clock.now) {
            count(left.seconds, at: left.place)
        }
    }

    /// Counts the time on the place on screen so far (before the file is written).
    func flushDwell() {
        if let running = dwell.flush(at: loop.clock.now) { count(running.seconds, at: running.place) }
    }

    private func count(_ seconds: Double, at place: DwellTime.Place) {
        if let counter = dwellCounters[place] { return counter.increment(by: seconds) }
        let label =
            switch place.audience {
            case .visitor: "lectern_dwell_seconds_total"
            case .attract: "lectern_attract_seconds_total"
            }
        let counter = CoreMetrics.FloatingPointCounter(
            label: label, dimensions: [("document", place.document), ("page", String(place.page))], factory: factory)
        dwellCounters[place] = counter
        counter.increment(by: seconds)
    }
}
