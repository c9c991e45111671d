import PropertyBased
import Testing

@testable import LecternCore

/// The thumbnail strip and grid: spreads grouped and ordered as the binding says, visible-range
/// queries that agree with looking at every spread, and a cost that does not grow with the
/// page count.
@Suite("Thumbnail strip and grid layout")
struct ThumbnailLayoutTests {
    static let cell = Size(width: 66, height: 88)
    static let portrait = Size(width: 420, height: 595)

    static func strip(_ count: Int, _ mode: SpreadMode, _ binding: PageBinding) -> ThumbnailStripLayout {
        ThumbnailStripLayout(
            spreads: Spreads(pageCount: count, mode: mode, binding: binding), pageCell: cell, spacing: 12)
    }

    /// The pages along the whole strip, left to right, grouped by spread.
    static func groups(_ strip: ThumbnailStripLayout) -> [[Int]] {
        let items = strip.items(from: 0, to: strip.contentWidth) { _ in portrait }
        var groups: [[Int]] = []
        var lastSpread: Int?
        for item in items {
            if item.spread != lastSpread { groups.append([]) }
            groups[groups.count - 1].append(item.page)
            lastSpread = item.spread
        }
        return groups
    }

    @Test("pairs and the cover as spreads are, right to left and flipped under right-edge binding")
    func stripOrder() {
        #expect(Self.groups(Self.strip(5, .single, .leftEdge)) == [[0], [1], [2], [3], [4]])
        #expect(Self.groups(Self.strip(5, .single, .rightEdge)) == [[4], [3], [2], [1], [0]])
        #expect(Self.groups(Self.strip(8, .double, .leftEdge)) == [[0, 1], [2, 3], [4, 5], [6, 7]])
        #expect(Self.groups(Self.strip(8, .double, .rightEdge)) == [[7, 6], [5, 4], [3, 2], [1, 0]])
        #expect(Self.groups(Self.strip(8, .cover, .leftEdge)) == [[0], [1, 2], [3, 4], [5, 6], [7]])
        #expect(Self.groups(Self.strip(8, .cover, .rightEdge)) == [[7], [6, 5], [4, 3], [2, 1], [0]])
        #expect(Self.groups(Self.strip(8, .cover, .unknown)) == [[0], [1, 2], [3, 4], [5, 6], [7]])
    }

    @Test("the pages of a pair meet at the gutter; the spreads are apart")
    func pairsMeet() {
        let strip = Self.strip(8, .double, .rightEdge)
        let items = strip.items(from: 0, to: strip.contentWidth) { _ in Self.portrait }
        #expect(items[0].page == 7 && items[1].page == 6)
        #expect(abs(items[0].frame.maxX - items[1].frame.minX) < 1e-9, "a pair touches")
        #expect(items[2].frame.minX - items[1].frame.maxX > 12, "the next spread is apart")
        #expect(items.allSatisfy { abs($0.frame.width / $0.frame.height - 420.0 / 595) < 1e-9 }, "aspect kept")
    }

    @Test("visible spreads agree with looking at every spread")
    func stripQueriesAgreeWithBruteForce() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 1...60), Gen<SpreadMode>.case, Gen<PageBinding>.case,
            Gen.double(in: -200...5000), Gen.double(in: 1...1500)
        ) { count, mode, binding, start, length in
            let strip = Self.strip(count, mode, binding)
            let spreads = Spreads(pageCount: count, mode: mode, binding: binding)
            let expected = (0..<spreads.spreadCount)
                .filter { strip.frame(ofSpread: $0).maxX > start && strip.frame(ofSpread: $0).minX < start + length }
                .sorted { strip.frame(ofSpread: $0).minX < strip.frame(ofSpread: $1).minX }
            #expect(strip.spreads(from: start, to: start + length) == expected)
            let x = start + length / 2
            let under = (0..<spreads.spreadCount).first {
                strip.frame(ofSpread: $0).minX <= x && x < strip.frame(ofSpread: $0).maxX
            }
            #expect(strip.spread(atX: x) == under)
        }
    }

    @Test("the grid's rows run right to left under right-edge binding, pairs flipped")
    func gridOrder() {
        func rows(_ binding: PageBinding, _ mode: SpreadMode) -> [[Int]] {
            let grid = ThumbnailGridLayout(
                spreads: Spreads(pageCount: 8, mode: mode, binding: binding), pageCell: Self.cell,
                width: 540, spacing: 16, labelHeight: 24, margin: 20)
            #expect(grid.columns == (mode == .single ? 6 : 3))
            let items = grid.items(from: 0, to: grid.contentHeight) { _ in Self.portrait }
            return Dictionary(grouping: items) { Int($0.frame.minY) }.sorted { $0.key < $1.key }
                .map { $0.value.sorted { $0.frame.minX < $1.frame.minX }.map(\.page) }
        }
        #expect(rows(.leftEdge, .double) == [[0, 1, 2, 3, 4, 5], [6, 7]])
        #expect(rows(.rightEdge, .double) == [[5, 4, 3, 2, 1, 0], [7, 6]])
        #expect(rows(.rightEdge, .cover) == [[4, 3, 2, 1, 0], [7, 6, 5]])
        #expect(rows(.leftEdge, .single) == [[0, 1, 2, 3, 4, 5], [6, 7]])
        #expect(rows(.rightEdge, .single) == [[5, 4, 3, 2, 1, 0], [7, 6]])
    }

    @Test("the grid's visible rows and hit tests agree with looking at every cell")
    func gridQueriesAgreeWithBruteForce() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 1...80), Gen<SpreadMode>.case, Gen<PageBinding>.case,
            Gen.double(in: -100...3000), Gen.double(in: 200...1400), Gen.double(in: 0...1)
        ) { count, mode, binding, top, width, across in
            let grid = ThumbnailGridLayout(
                spreads: Spreads(pageCount: count, mode: mode, binding: binding), pageCell: Self.cell,
                width: width, spacing: 16, labelHeight: 24, margin: 20)
            let height = 700.0
            let spreadCount = Spreads(pageCount: count, mode: mode, binding: binding).spreadCount
            let visible = Set(
                (0..<spreadCount).filter {
                    grid.frame(ofSpread: $0).maxY > top && grid.frame(ofSpread: $0).minY < top + height
                })
            #expect(Set(grid.spreads(from: top, to: top + height)) == visible)
            let point = Point(x: across * width, y: top + height / 2)
            let under = (0..<spreadCount).first { grid.frame(ofSpread: $0).contains(point) }
            #expect(grid.spread(at: point) == under)
        }
    }

    /// Laying out a view asks for the same number of page sizes and makes the same number of
    /// corrections to its estimate for 36 pages as for a million: only what is visible costs.
    @Test("a view of the strip or the grid costs the same for 36 pages as for a million")
    func costIndependentOfPageCount() {
        for mode in SpreadMode.allCases {
            var asked: [Int: Int] = [:]
            var items: [Int: Int] = [:]
            var mostSteps = 0
            for count in [36, 15_000, 1_000_000] {
                let strip = Self.strip(count, mode, .rightEdge)
                var calls = 0
                // The middle of the document, a 1280-pixel-wide view.
                let middle = strip.frame(ofSpread: strip.cells.spreads.spreadCount / 2).midX
                let laidOut = strip.items(from: middle - 640, to: middle + 640) { _ in
                    calls += 1
                    return Self.portrait
                }
                asked[count] = calls
                items[count] = laidOut.count
                for x in stride(from: 0.0, to: strip.contentWidth, by: strip.contentWidth / 997) {
                    var steps = 0
                    _ = strip.readingSpread(containing: x, steps: &steps)
                    mostSteps = max(mostSteps, steps)
                }
            }
            // 36 pages fill the view too: 15 cells of 66 + gaps < 1280 < 36 cells.
            #expect(Set(asked.values).count == 1, "\(mode): page sizes asked per view: \(asked)")
            #expect(Set(items.values).count == 1 && items[36]! <= 20, "\(mode): thumbnails per view: \(items)")
            #expect(mostSteps <= 2, "\(mode): the estimate is off by at most two spreads: \(mostSteps)")

            var gridCalls: [Int: Int] = [:]
            for count in [36, 15_000, 1_000_000] {
                let grid = ThumbnailGridLayout(
                    spreads: Spreads(pageCount: count, mode: mode, binding: .leftEdge), pageCell: Self.cell,
                    width: 1280, spacing: 16, labelHeight: 24, margin: 20)
                var calls = 0
                // A screen from the row in the middle of the document down.
                let top = grid.frame(ofSpread: Spreads(pageCount: count, mode: mode).spreadCount / 2).minY - 10
                _ = grid.items(from: top, to: top + 720) { _ in
                    calls += 1
                    return Self.portrait
                }
                gridCalls[count] = calls
            }
            // 36 pages may not fill a screen of the grid: they cost at most as much.
            #expect(
                gridCalls[15_000] == gridCalls[1_000_000] && gridCalls[36]! <= gridCalls[15_000]!
                    && gridCalls[15_000]! <= 120,
                "\(mode): grid page sizes asked per view: \(gridCalls)")
        }
    }

    @Test("a drag moves the offset with the finger; a flick slows down and stops at the end")
    func kineticScroll() {
        var scroll = KineticScroll()
        scroll.setBounds(0...1000)
        scroll.scroll(to: 500)
        scroll.beginDrag(at: 0)
        for step in 1...6 { scroll.drag(translation: Double(-20 * step), at: Double(step) / 60) }
        #expect(scroll.offset == 620, "the content follows the finger")
        scroll.endDrag(at: 6.0 / 60)
        #expect(scroll.isFlinging, "1200 px/s keeps it moving")
        var last = scroll.offset
        var time = 6.0 / 60
        var steps = 0
        while scroll.advance(to: time + 1.0 / 60) {
            time += 1.0 / 60
            #expect(scroll.offset > last)
            last = scroll.offset
            steps += 1
        }
        #expect(scroll.offset == 1000, "stopped at the end: \(scroll.offset)")
        #expect(steps > 5 && !scroll.isFlinging)

        // Held still before lifting: no flick.
        scroll.beginDrag(at: 10)
        scroll.drag(translation: 300, at: 10.1)
        scroll.endDrag(at: 10.3)
        #expect(!scroll.isFlinging && scroll.offset == 700)
        scroll.setBounds(-40 ... -40)
        #expect(scroll.offset == -40, "a short strip rests centred")
    }
}
