/// How pages are grouped into spreads, the units that are always shown together.
public enum SpreadMode: String, Hashable, Codable, Sendable, CaseIterable {
    /// One page per spread.
    case single
    /// Pairs of pages: (0, 1), (2, 3), …; the last spread may hold one page.
    case double
    /// The first page alone (the cover), then pairs (1, 2), (3, 4), …; the last spread may
    /// hold one page.
    case cover
}
