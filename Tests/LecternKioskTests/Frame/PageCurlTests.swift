import LecternKiosk
import LecternPolicy
import LecternTestSupport
import Testing

/// `--transition curl` and `none` (issue 16, item 6), through the test compositor on the
/// manual clock, read from the committed pixels of colors-8pages.pdf (one colour per page).
/// At 1280 × 720 a page rests at x 395…886, y 12…708.
@Suite("Page curl through the test compositor")
struct PageCurlTests {
    let colors = LecternHarness.fixture("colors-8pages.pdf")
    static let row = 360

    /// What one row of a frame shows, for finding the fold and what lies on each side of it.
    struct Row {
        var pixels: [UInt32]

        init(_ commit: Commit?, y: Int = PageCurlTests.row) {
            pixels = commit.map { c in (0..<c.width).map { c.pixel(x: $0, y: y) } } ?? []
        }

        func page(at x: Int) -> Int? { LecternHarness.page(ofColor: pixels[x]) }
        func first(_ page: Int) -> Int? { pixels.indices.first { self.page(at: $0) == page } }
        func last(_ page: Int) -> Int? { pixels.indices.last { self.page(at: $0) == page } }

        static func channels(_ argb: UInt32) -> [Int] { [16, 8, 0].map { Int(argb >> UInt32($0) & 0xFF) } }

        /// Pixels between `start` and `end` that are no page's colour and lighter than `page`'s in
        /// every channel (its back).
        func lighter(than page: Int, from start: Int, to end: Int) -> [Int] {
            let range = min(start, end)..<max(start, end)
            let colour = Self.channels(LecternHarness.pageColors[page - 1])
            return range.filter { x in
                let c = Self.channels(pixels[x])
                return self.page(at: x) == nil && zip(c, colour).allSatisfy { $0 >= $1 - 2 }
                    && c.reduce(0, +) > colour.reduce(0, +) + 40
            }
        }

        /// Pixels between `start` and `end` that are no page's colour and darker than `page`'s in
        /// every channel (a shadow on it).
        func darker(than page: Int, from start: Int, to end: Int) -> [Int] {
            let range = min(start, end)..<max(start, end)
            let colour = Self.channels(LecternHarness.pageColors[page - 1])
            return range.filter { x in
                let c = Self.channels(pixels[x])
                return self.page(at: x) == nil && zip(c, colour).allSatisfy { $0 <= $1 + 2 }
                    && c.reduce(0, +) < colour.reduce(0, +) - 30
            }
        }
    }

    /// Puts a finger down at `x` (row 360) and moves it to `to` in `steps` moves a frame apart.
    static func drag(_ lectern: KioskHarness, from x: Double, to end: Double, steps: Int = 10, down: Bool = true) {
        if down {
            lectern.compositor.touchDown(id: 0, x: x, y: Double(row))
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
        }
        for step in 1...steps {
            lectern.compositor.touchMotion(id: 0, x: x + (end - x) * Double(step) / Double(steps), y: Double(row))
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
        }
    }

    /// Runs `body` with Lectern started on `arguments`, and stops it however `body` ends (a
    /// failed `#require` too, which would otherwise leave the app and the compositor to be torn
    /// down in any order).
    static func with(_ arguments: [String], _ body: (KioskHarness) throws -> Void) throws {
        let lectern = try KioskHarness(arguments)
        var stopped = false
        defer { if !stopped { try? lectern.stop() } }
        try body(lectern)
        stopped = true
        try lectern.stop()
    }

    static func release(_ lectern: KioskHarness) {
        lectern.compositor.touchUp(id: 0)
        lectern.turn()
    }

    @Test("a drag curls the page: the next page beneath, the back, a shadow; the fold follows the finger")
    func dragCurls() throws {
        // The slide at the same drag, for comparison.
        var slidFrame: Commit?
        try Self.with([colors]) { slide in
            #expect(slide.settle())
            Self.drag(slide, from: 1100, to: 900)
            slidFrame = slide.lastCommit
            Self.release(slide)
        }
        let slid = try #require(slidFrame)

        try Self.with([colors, "--transition", "curl"]) { lectern in
            #expect(lectern.settle())
            #expect(lectern.pages(alongRow: Self.row) == [1], "at rest the page lies flat")
            Self.drag(lectern, from: 1100, to: 900)
            let curled = try #require(lectern.lastCommit)
            let differing = zip(slid.pixels, curled.pixels).filter { $0 != $1 }.count
            #expect(differing > 20_000, "the curl frame differs from the slide's: \(differing) pixels")
            #expect(lectern.pages(alongRow: Self.row) == [1, 2], "the page, then the next one beneath")
            let first = Row(curled)
            let flatEnd = try #require(first.last(1)), nextStart = try #require(first.first(2))
            let back = first.lighter(than: 1, from: flatEnd, to: nextStart)
            let shadow = first.darker(than: 2, from: flatEnd, to: nextStart)
            #expect(back.count >= 20, "the page's back, lighter than its front, past the flat part")
            #expect(shadow.count >= 3, "a shadow on the next page beside the fold")
            #expect((back.max() ?? .max) < (shadow.min() ?? 0), "the back, then the fold, then the shadow")
            lectern.saveLastCommit("curl-drag")

            Self.drag(lectern, from: 900, to: 700, down: false)
            let second = Row(lectern.lastCommit)
            let flatEnd2 = try #require(second.last(1)), nextStart2 = try #require(second.first(2))
            #expect(flatEnd2 < flatEnd - 20, "the flat part shrinks as the finger moves on: \(flatEnd) → \(flatEnd2)")
            #expect(nextStart2 < nextStart - 20, "the fold moves with the finger: \(nextStart) → \(nextStart2)")
            #expect(second.darker(than: 2, from: flatEnd2, to: nextStart2).count >= 3, "the shadow moves with it")

            Self.release(lectern)
            #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
            #expect(lectern.pages(alongRow: Self.row) == [2] && lectern.page(atX: 400, y: Self.row) == 2)
        }
    }

    @Test("at output scale 2 the curl is drawn in buffer pixels: a full-size frame, the back, a shadow, then page 2")
    func curlAtScale2() throws {
        // The output is 1280 × 720 pixels at scale 2: a surface of 640 × 360 units.
        let lectern = try KioskHarness([colors, "--transition", "curl"], scale: 2)
        var stopped = false
        defer { if !stopped { try? lectern.stop() } }
        #expect(lectern.settle())
        lectern.compositor.touchDown(id: 0, x: 550, y: 180)
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        for step in 1...10 {
            lectern.compositor.touchMotion(id: 0, x: 550 - 10 * Double(step), y: 180)
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
        }
        let curled = try #require(lectern.lastCommit)
        #expect(
            curled.width == 1280 && curled.height == 720, "a buffer of every pixel: \(curled.width)×\(curled.height)")
        #expect(lectern.pages(alongRow: 360) == [1, 2], "the page, then the next one beneath")
        let row = Row(curled, y: 360)
        let lastOfPage1 = row.last(1), firstOfPage2 = row.first(2)  // outside #require: it would print the row
        let flatEnd = try #require(lastOfPage1), nextStart = try #require(firstOfPage2)
        #expect(row.lighter(than: 1, from: flatEnd, to: nextStart).count >= 40, "the back, in buffer pixels")
        #expect(row.darker(than: 2, from: flatEnd, to: nextStart).count >= 6, "a shadow beside the fold")
        lectern.compositor.touchUp(id: 0)
        lectern.turn()
        #expect(lectern.waitForPage(2))
        #expect(lectern.pages(alongRow: 360) == [2])
        stopped = true
        try lectern.stop()
    }

    @Test("under right-edge binding the page curls from its left edge, the next page coming in on the left")
    func rightEdgeBindingMirrors() throws {
        try Self.with([colors, "--transition", "curl", "--binding", "right"]) { lectern in
            #expect(lectern.settle())
            Self.drag(lectern, from: 180, to: 380)
            #expect(lectern.pages(alongRow: Self.row) == [2, 1], "the next page left of the page")
            let row = Row(lectern.lastCommit)
            let nextEnd = try #require(row.last(2)), flatStart = try #require(row.first(1))
            let shadow = row.darker(than: 2, from: nextEnd, to: flatStart)
            let back = row.lighter(than: 1, from: nextEnd, to: flatStart)
            #expect(shadow.count >= 3 && back.count >= 20, "shadow \(shadow.count) px, back \(back.count) px")
            #expect((shadow.max() ?? .max) < (back.min() ?? 0), "the shadow, then the fold, then the back")
            #expect(nextEnd > 395 && flatStart < 886, "the fold lies on the page: \(nextEnd)…\(flatStart)")
            Self.release(lectern)
            #expect(lectern.waitForPage(2), "view state: \(lectern.viewState ?? "none")")
            #expect(lectern.pages(alongRow: Self.row) == [2])
        }
    }

    @Test("a slow drag released early curls back down onto the same page")
    func earlyReleaseSnapsBack() throws {
        try Self.with([colors, "--transition", "curl"]) { lectern in
            #expect(lectern.settle())
            let atRest = try #require(lectern.lastCommit)
            // 150 px in a second: too short and too slow to turn.
            lectern.compositor.touchDown(id: 0, x: 1000, y: Double(Self.row))
            for step in 1...10 {
                lectern.advanceWithoutSettling(by: 0.1)
                lectern.compositor.touchMotion(id: 0, x: 1000 - 15 * Double(step), y: Double(Self.row))
            }
            lectern.advanceWithoutSettling(by: 0.1)
            #expect(lectern.pages(alongRow: Self.row) == [1, 2], "curled part of the way")
            let before = try #require(Row(lectern.lastCommit).first(2))
            Self.release(lectern)
            lectern.advanceWithoutSettling(by: 2 * KioskHarness.frame)
            let during = Row(lectern.lastCommit).first(2)
            #expect(
                during.map { $0 > before } ?? true, "the fold goes back towards the edge: \(before) → \(during ?? -1)")
            #expect(lectern.waitForPage(1), "view state: \(lectern.viewState ?? "none")")
            #expect(lectern.lastCommit?.pixels == atRest.pixels, "the page lies flat again, exactly as before")
        }
    }

    @Test("a tap and a fling curl the page over on the clock and end on the next page")
    func tapAndFlingCurl() throws {
        try Self.with([colors, "--transition", "curl"]) { lectern in
            #expect(lectern.settle())
            let commits = lectern.compositor.commitCount
            lectern.tap(x: 1240, y: 360)
            var folds: [Int] = []
            var backs = 0
            for _ in 0..<60 where lectern.dominantPage != 2 || lectern.status.isAnimating {
                lectern.advanceWithoutSettling(by: KioskHarness.frame)
                let row = Row(lectern.lastCommit)
                guard let next = row.first(2), next > 400 else { continue }
                folds.append(next)
                // Neither page moves: page 2 lies where it will rest, page 1 where it rested.
                #expect(
                    row.last(2).map { $0 >= 880 && $0 <= 886 } == true, "page 2 rests beneath: \(row.last(2) ?? -1)")
                #expect(row.first(1).map { $0 <= 400 } ?? true, "page 1 stays put: \(row.first(1) ?? -1)")
                backs = max(backs, row.lighter(than: 1, from: 395, to: next).count)
            }
            #expect(lectern.compositor.commitCount > commits + 3)
            #expect(folds.count >= 3, "frames of the turn show both pages: \(folds)")
            #expect(zip(folds, folds.dropFirst()).allSatisfy { $0 >= $1 }, "the fold only moves on: \(folds)")
            #expect(backs >= 20, "the page's back shows as it turns")
            #expect(lectern.waitForPage(2) && lectern.pages(alongRow: Self.row) == [2])

            // A quick flick: 120 px in three frames.
            Self.drag(lectern, from: 1000, to: 880, steps: 3)
            Self.release(lectern)
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
            #expect(lectern.pages(alongRow: Self.row) == [2, 3], "the flick curls page 2 over page 3")
            let flicked = Row(lectern.lastCommit)
            #expect(flicked.first(2).map { $0 <= 400 } == true && flicked.last(3).map { $0 >= 880 } == true)
            #expect(lectern.waitForPage(3), "view state: \(lectern.viewState ?? "none")")
            #expect(lectern.pages(alongRow: Self.row) == [3])
        }
    }

    @Test("--transition none: a tap or a drag changes the page at once, nothing moves")
    func noTransition() throws {
        try Self.with([colors, "--transition", "none"]) { lectern in
            #expect(lectern.settle())
            let commits = lectern.compositor.commitCount
            lectern.tap(x: 1240, y: 360)
            for _ in 0..<60 where lectern.page(atX: 640, y: Self.row) != 2 {
                lectern.advanceWithoutSettling(by: KioskHarness.frame)
            }
            #expect(lectern.page(atX: 640, y: Self.row) == 2)
            #expect(!lectern.status.isAnimating, "the first frame with the next page is the end of the turn")
            #expect(lectern.settle() && lectern.dominantPage == 2)
            /// Each frame shows one page, where it rests.
            func eachFrameAtRest(since start: Int) -> Bool {
                lectern.compositor.commits.dropFirst(start).allSatisfy { commit in
                    let row = Row(commit)
                    return row.page(at: 400) != nil && row.page(at: 400) == row.page(at: 880)
                        && row.page(at: 380) == nil
                        && row.page(at: 900) == nil
                }
            }
            #expect(lectern.compositor.commitCount > commits)
            #expect(eachFrameAtRest(since: commits), "no frame shows the page moving")
            #expect(lectern.page(atX: 640, y: Self.row) == 2)

            let dragged = lectern.compositor.commitCount
            Self.drag(lectern, from: 1100, to: 900)
            #expect(lectern.pages(alongRow: Self.row) == [2], "a short drag leaves the page where it is")
            Self.drag(lectern, from: 900, to: 400, down: false)
            #expect(lectern.pages(alongRow: Self.row) == [3], "past half way the next page shows")
            Self.release(lectern)
            #expect(lectern.waitForPage(3), "view state: \(lectern.viewState ?? "none")")
            #expect(eachFrameAtRest(since: dragged), "no frame of the drag shows the page moving")
        }
    }

    @Test("page-turn.transition: the policy key takes curl, slide or none; slide is the default")
    func policyKey() throws {
        let base = KioskConfiguration(documentPath: "/srv/sample.pdf")
        #expect(base.transition == .slide)
        for name in ["curl", "slide", "none"] {
            let configuration = try PolicyFile.parse(
                "[page-turn]\ntransition = \"\(name)\"\n", path: "p.toml", over: base)
            #expect(configuration.transition.rawValue == name)
        }
        do {
            _ = try PolicyFile.parse("[page-turn]\ntransition = \"fold\"\n", path: "p.toml", over: base)
            Issue.record("a transition Lectern does not know is accepted")
        } catch {
            #expect(
                error.problems.map(\.description) == [
                    "p.toml:2: page-turn.transition: must be one of curl, none, slide, not \"fold\""
                ])
        }
    }
}
