/// How many bytes of rendered tiles the cache keeps beyond what the screen shows.
///
/// What the screen shows is always kept (the cache pins it); the budget decides how much
/// room is left for the neighbours rendered ahead and for tiles kept in case the reader
/// comes back. The planner resolves it once per frame, so an automatic budget follows the
/// screen size and what the layout puts on screen.
public enum TileBudget: Equatable, Sendable {
    /// A fixed number of bytes (the operator's `--cache-mb`).
    case bytes(Int)
    /// At least three screens, and at least twice what the screen shows now: as much again
    /// as is on screen is left for the spreads before and after it.
    case automatic

    /// The budget in bytes for a screen of `screenBytes` that shows `onScreenBytes` of tiles.
    public func resolved(screenBytes: Int, onScreenBytes: Int) -> Int {
        switch self {
        case .bytes(let bytes): max(0, bytes)
        case .automatic: max(3 * screenBytes, 2 * onScreenBytes)
        }
    }
}
