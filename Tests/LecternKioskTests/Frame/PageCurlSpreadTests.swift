import LecternKiosk
import LecternTestSupport
import Testing

/// Page curl in double spreads, like a book, read from the committed pixels of colors-8pages.pdf
/// (one colour per page). A leaf turns: turning forward from 3|4 the right page (4) lifts from
/// its outer edge, its back (5) folds over towards the left page, and the page beneath it (6) is
/// uncovered; turning back from 5|6 the left page (5) lifts from its outer edge, its back (4)
/// folds over towards the right page, and the page beneath it (3) is uncovered. Under right-edge
/// binding all of it is mirrored. At 1280 × 720 a spread of two pages rests at x 149…1130, the
/// spine between x 639 and 640.
@Suite("Page curl in double spreads through the test compositor")
struct PageCurlSpreadTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let row = PageCurlTests.row

    /// Lectern's arguments for a double spread starting on `page`, bound on the left or the right.
    func arguments(page: Int, rightToLeft: Bool, spreads: String = "double") -> [String] {
        [
            colors, "--transition", "curl", "--spreads", spreads, "--binding", rightToLeft ? "right" : "left",
            "--page", String(page),
        ]
    }

    /// `x` of a left-to-right book at the place it mirrors to under right-edge binding.
    static func x(_ x: Double, rightToLeft: Bool) -> Double { rightToLeft ? 1279 - x : x }

    /// Row 360 of the last commit as a left-to-right book shows it: mirrored under right-edge
    /// binding, so that one set of expectations holds for both bindings.
    static func row(_ lectern: KioskHarness, rightToLeft: Bool) -> PageCurlTests.Row {
        var row = PageCurlTests.Row(lectern.lastCommit)
        if rightToLeft { row.pixels.reverse() }
        return row
    }

    /// The pages along the row, as a left-to-right book shows them.
    static func pages(_ lectern: KioskHarness, rightToLeft: Bool) -> [Int] {
        let pages = lectern.pages(alongRow: row)
        return rightToLeft ? pages.reversed() : pages
    }

    @Test(
        "turning forward, the outer page lifts with the next page on its back, the page beneath shows, the inner page stays",
        arguments: [false, true])
    func forward(rightToLeft: Bool) throws {
        let name = rightToLeft ? "rtl" : "ltr"
        try PageCurlTests.with(arguments(page: 3, rightToLeft: rightToLeft)) { lectern in
            #expect(lectern.settle())
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == [3, 4], "at rest: 3|4")
            // A quarter of the way over the page (120 of 491 px).
            let x = { Self.x($0, rightToLeft: rightToLeft) }
            PageCurlTests.drag(lectern, from: x(1200), to: x(1080))
            lectern.saveLastCommit("curl-spread-\(name)-forward-early")
            #expect(
                Self.pages(lectern, rightToLeft: rightToLeft) == [3, 4, 5, 6],
                "3 stays, 4 lies flat up to its free edge, 5 on its back, 6 beneath")
            let early = Self.row(lectern, rightToLeft: rightToLeft)
            let start3 = early.first(3), end3 = early.last(3), start4 = early.first(4), end4 = early.last(4)
            let start5 = early.first(5), end5 = early.last(5), start6 = early.first(6), end6 = early.last(6)
            #expect(
                start3.map { $0 <= 150 } == true && end3.map { $0 >= 638 } == true, "3: \(start3 ?? -1)…\(end3 ?? -1)")
            #expect(start4.map { $0 >= 639 && $0 <= 641 } == true, "4 from the spine: \(start4 ?? -1)…\(end4 ?? -1)")
            #expect(end4.map { $0 > 900 && $0 < 1060 } == true, "4's free edge has moved in: \(end4 ?? -1)")
            #expect(
                start5.map { s in end4.map { s > $0 && s <= $0 + 20 } == true } == true
                    && end5.map { $0 < 1100 } == true,
                "5, unfaded, from 4's free edge (its shadow between) towards its outer edge: \(start5 ?? -1)…\(end5 ?? -1)"
            )
            #expect(
                end6.map { $0 >= 1128 } == true && start6.map { $0 > 1000 } == true, "6: \(start6 ?? -1)…\(end6 ?? -1)")
            let fold = try #require(end5), beneath = try #require(start6)
            #expect(early.darker(than: 6, from: fold, to: beneath).count >= 3, "a shadow on 6 beside the fold")

            // Past the middle: the leaf lies over the spine, 4 out of sight, 5 covering part of 3.
            PageCurlTests.drag(lectern, from: x(1080), to: x(450), down: false)
            lectern.saveLastCommit("curl-spread-\(name)-forward-late")
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == [3, 5, 6], "3, then 5 over the spine, then 6")
            let late = Self.row(lectern, rightToLeft: rightToLeft)
            let lateEnd3 = late.last(3), lateStart5 = late.first(5), lateEnd5 = late.last(5)
            #expect(late.first(3).map { $0 <= 150 } == true && lateEnd3.map { $0 < 600 } == true, "3 partly covered")
            #expect(
                lateStart5.map { $0 < 600 } == true && lateEnd5.map { $0 > 680 } == true,
                "5 across the spine: \(lateStart5 ?? -1)…\(lateEnd5 ?? -1)")
            #expect(late.last(6).map { $0 >= 1128 } == true)

            PageCurlTests.release(lectern)
            #expect(lectern.waitForPage(5), "view state: \(lectern.viewState ?? "none")")
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == [5, 6])
        }
    }

    @Test(
        "turning back, the inner page lifts with the previous page on its back, the page before shows, the other page stays",
        arguments: [false, true])
    func back(rightToLeft: Bool) throws {
        let name = rightToLeft ? "rtl" : "ltr"
        try PageCurlTests.with(arguments(page: 5, rightToLeft: rightToLeft)) { lectern in
            #expect(lectern.settle())
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == [5, 6], "at rest: 5|6")
            let x = { Self.x($0, rightToLeft: rightToLeft) }
            PageCurlTests.drag(lectern, from: x(80), to: x(200))
            lectern.saveLastCommit("curl-spread-\(name)-back-early")
            #expect(
                Self.pages(lectern, rightToLeft: rightToLeft) == [3, 4, 5, 6],
                "3 beneath, 4 on the back of 5, 5 flat from its free edge, 6 stays")
            let early = Self.row(lectern, rightToLeft: rightToLeft)
            let start3 = early.first(3), end3 = early.last(3), start4 = early.first(4), end4 = early.last(4)
            let start5 = early.first(5), end5 = early.last(5), start6 = early.first(6), end6 = early.last(6)
            #expect(start6.map { $0 >= 639 && $0 <= 641 } == true && end6.map { $0 >= 1128 } == true, "6 stays whole")
            #expect(end5.map { $0 >= 637 && $0 <= 639 } == true, "5 up to the spine: \(start5 ?? -1)…\(end5 ?? -1)")
            #expect(start5.map { $0 > 220 && $0 < 380 } == true, "5's free edge has moved in: \(start5 ?? -1)")
            #expect(
                end4.map { e in start5.map { e < $0 && e >= $0 - 20 } == true } == true
                    && start4.map { $0 > 180 } == true,
                "4, unfaded, from 5's free edge (its shadow between) towards its outer edge: \(start4 ?? -1)…\(end4 ?? -1)"
            )
            #expect(
                start3.map { $0 <= 150 } == true && end3.map { $0 < 280 } == true, "3: \(start3 ?? -1)…\(end3 ?? -1)")
            let beneath = try #require(end3), fold = try #require(start4)
            #expect(early.darker(than: 3, from: beneath, to: fold).count >= 3, "a shadow on 3 beside the fold")

            PageCurlTests.drag(lectern, from: x(200), to: x(830), down: false)
            lectern.saveLastCommit("curl-spread-\(name)-back-late")
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == [3, 4, 6], "3, then 4 over the spine, then 6")
            let late = Self.row(lectern, rightToLeft: rightToLeft)
            let lateStart4 = late.first(4), lateEnd4 = late.last(4)
            #expect(
                lateStart4.map { $0 < 600 } == true && lateEnd4.map { $0 > 680 } == true,
                "4 across the spine: \(lateStart4 ?? -1)…\(lateEnd4 ?? -1)")
            #expect(late.first(3).map { $0 <= 150 } == true && late.last(6).map { $0 >= 1128 } == true)

            PageCurlTests.release(lectern)
            #expect(lectern.waitForPage(3), "view state: \(lectern.viewState ?? "none")")
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == [3, 4])
        }
    }

    @Test("a turn released early falls back the way it lifted: the inner page stays whole", arguments: [false, true])
    func fallsBack(rightToLeft: Bool) throws {
        try PageCurlTests.with(arguments(page: 3, rightToLeft: rightToLeft)) { lectern in
            #expect(lectern.settle())
            // 150 px in a second: too short and too slow to turn.
            let x = { Self.x($0, rightToLeft: rightToLeft) }
            lectern.compositor.touchDown(id: 0, x: x(1200), y: Double(Self.row))
            for step in 1...10 {
                lectern.advanceWithoutSettling(by: 0.1)
                lectern.compositor.touchMotion(id: 0, x: x(1200 - 15 * Double(step)), y: Double(Self.row))
            }
            lectern.advanceWithoutSettling(by: 0.1)
            lectern.compositor.touchUp(id: 0)
            var frames = 0
            for _ in 0..<30 where lectern.status.isAnimating || frames == 0 {
                lectern.advanceWithoutSettling(by: KioskHarness.frame)
                let row = Self.row(lectern, rightToLeft: rightToLeft)
                guard row.first(5) != nil else { continue }
                frames += 1
                #expect(
                    row.first(3).map { $0 <= 150 } == true && row.last(3).map { $0 >= 638 } == true
                        && row.first(4).map { $0 >= 639 && $0 <= 641 } == true,
                    "3 whole, 4 from the spine: \(Self.pages(lectern, rightToLeft: rightToLeft))")
            }
            #expect(frames >= 2, "frames of the fall show the leaf")
            #expect(lectern.waitForPage(3), "view state: \(lectern.viewState ?? "none")")
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == [3, 4])
        }
    }

    /// A turn to or from a spread of one page (the cover, the last page), which rests in the
    /// middle: `page` to start on, the drag, and what the row shows a little way into the turn.
    struct LonePage: CustomTestStringConvertible, Sendable {
        var name: String
        var page: Int
        var from: Double, to: Double
        var pages: [Int]
        /// Where a page rests whole, and where no page shows.
        var whole: (page: Int, from: Int, to: Int)
        var empty: Int
        var ends: Int
        var testDescription: String { name }
    }

    static let lonePages = [
        LonePage(
            name: "from the cover, 1 lifts with 2 on its back, 3 beneath", page: 1, from: 1200, to: 1080,
            pages: [1, 2, 3], whole: (3, 1080, 1128), empty: 300, ends: 2),
        LonePage(
            name: "back to the cover, 2 lifts with 1 on its back, 3 stays", page: 2, from: 80, to: 200,
            pages: [1, 2, 3], whole: (3, 641, 1128), empty: 160, ends: 1),
        LonePage(
            name: "to the last page, 7 lifts with 8 on its back, 6 stays", page: 6, from: 1200, to: 1080,
            pages: [6, 7, 8], whole: (6, 150, 638), empty: 1120, ends: 8),
        LonePage(
            name: "back from the last page, 8 lifts with 7 on its back, 6 beneath", page: 8, from: 80, to: 200,
            pages: [6, 7, 8], whole: (6, 150, 390), empty: 1000, ends: 6),
    ]

    @Test(
        "in cover spreads a page alone turns as a leaf too",
        arguments: [false, true], lonePages)
    func lonePage(rightToLeft: Bool, turn: LonePage) throws {
        try PageCurlTests.with(arguments(page: turn.page, rightToLeft: rightToLeft, spreads: "cover")) { lectern in
            #expect(lectern.settle())
            let x = { Self.x($0, rightToLeft: rightToLeft) }
            PageCurlTests.drag(lectern, from: x(turn.from), to: x(turn.to))
            lectern.saveLastCommit("curl-spread-\(rightToLeft ? "rtl" : "ltr")-lone-\(turn.page)")
            #expect(Self.pages(lectern, rightToLeft: rightToLeft) == turn.pages)
            let row = Self.row(lectern, rightToLeft: rightToLeft)
            let start = row.first(turn.whole.page), end = row.last(turn.whole.page)
            #expect(
                start.map { $0 <= turn.whole.from } == true && end.map { $0 >= turn.whole.to } == true,
                "\(turn.whole.page): \(start ?? -1)…\(end ?? -1)")
            #expect(row.page(at: turn.empty) == nil, "no page at \(turn.empty) yet")
            PageCurlTests.drag(lectern, from: x(turn.to), to: x(turn.to + (turn.to - turn.from) * 6), down: false)
            PageCurlTests.release(lectern)
            #expect(lectern.waitForPage(turn.ends), "view state: \(lectern.viewState ?? "none")")
        }
    }
}
