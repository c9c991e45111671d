import LecternCore

/// The cover alone, then the pages three by three, side by side: a fold-out leaflet.
struct FoldOut: SpreadingStrategy {
    func spreadCount(pageCount: Int) -> Int { pageCount == 0 ? 0 : 1 + (pageCount + 1) / 3 }
    func spreadIndex(forPage page: Int, pageCount: Int) -> Int { page == 0 ? 0 : 1 + (page - 1) / 3 }
    func pageRange(forSpread spread: Int, pageCount: Int) -> Range<Int> {
        spread == 0 ? 0..<1 : (1 + 3 * (spread - 1))..<min(1 + 3 * spread, pageCount)
    }
    var typicalPagesPerSpread: Int { 3 }
}

/// Continuous scrolling down the leaflets, each shown at `fraction` of the width it would have,
/// centred where it would be: a layout made from the built-in one by changing one thing.
struct Centred: LayoutDecorator {
    var base: ContinuousScrollingLayout
    /// How much of its usual size a spread is shown at.
    var fraction: Double

    func frame(forSpread spread: Int) -> Rect {
        let full = base.frame(forSpread: spread)
        let width = full.width * fraction
        let height = full.height * fraction
        return Rect(x: full.midX - width / 2, y: full.midY - height / 2, width: width, height: height)
    }
}
