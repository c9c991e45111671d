import LecternCore
import LecternKiosk
import LecternPDF
import LecternTestSupport
import Testing

/// Issue 9 through the test compositor: views with two or more pages on screen, in every
/// layout and zoom that used to leave a page white with both cores busy, and small cache
/// budgets. Once the view is at rest every page on screen is sharp and matches MuPDF's
/// rendering of that region, and however long the clock then runs, no tile is rendered again.
@Suite("Tiles at rest through the test compositor")
struct TilesAtRestTests {
    static let letter = LecternHarness.fixture("letter-6pages.pdf")

    /// What the visitor does before the view comes to rest.
    enum Action: String, Sendable {
        case none
        /// Two drags of three quarters of the screen up the page, held still before letting go
        /// (no fling): a page boundary comes to rest on screen.
        case twoDragsUp
        /// A double tap in the middle of the screen: the gutter of a double spread, where no
        /// text block is, so the fallback zoom (2× about the finger) keeps both pages in view.
        case doubleTapMiddle
        /// A double tap on a line of text: smart zoom to its block.
        case doubleTapText
        /// A pinch about a point off the centre.
        case pinch
        /// `+` twice.
        case keys
        /// Rotated to portrait and back.
        case rotate
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var options: [String]
        var action: Action
        var width: Int32 = 1280
        var height: Int32 = 720
        var testDescription: String { "\(options.joined(separator: " ")), \(action.rawValue), \(width)×\(height)" }
    }

    static let cases: [Case] = [
        Case(options: ["--scroll", "continuous", "--direction", "vertical", "--page", "2"], action: .twoDragsUp),
        Case(
            options: ["--scroll", "continuous", "--direction", "vertical", "--page", "2"], action: .twoDragsUp,
            width: 1280, height: 800),
        Case(
            options: ["--scroll", "continuous", "--direction", "vertical", "--page", "2"], action: .twoDragsUp,
            width: 1920, height: 1080),
        Case(options: ["--spreads", "double", "--page", "3"], action: .doubleTapMiddle),
        Case(options: ["--spreads", "double", "--page", "3"], action: .doubleTapText),
        Case(options: ["--spreads", "double", "--page", "3"], action: .pinch),
        Case(options: ["--spreads", "cover", "--page", "2"], action: .keys),
        Case(options: ["--spreads", "double", "--scroll", "continuous", "--page", "3"], action: .keys),
        Case(options: ["--spreads", "double", "--scroll", "continuous", "--page", "3"], action: .doubleTapMiddle),
        Case(options: ["--spreads", "double", "--page", "3"], action: .rotate),
        Case(options: ["--spreads", "double", "--page", "3", "--cache-mb", "1"], action: .doubleTapMiddle),
        Case(options: ["--cache-mb", "1"], action: .none),
        Case(options: ["--cache-mb", "2", "--page", "5"], action: .none),
        Case(options: ["--cache-mb", "4", "--spreads", "double"], action: .none),
        Case(
            options: ["--cache-mb", "4", "--scroll", "continuous", "--direction", "vertical", "--page", "2"],
            action: .twoDragsUp),
    ]

    @Test("at rest, every page on screen is sharp, matches MuPDF, and no tile is rendered again", arguments: cases)
    func atRest(_ c: Case) throws {
        // The pages compared with MuPDF's whole: no accessibility button over a corner.
        let lectern = try KioskHarness(
            [Self.letter, "--no-accessibility-button"] + c.options, width: c.width, height: c.height)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        try act(c.action, lectern)
        #expect(lectern.settle(), "\(c): the view comes to rest")
        let pages = lectern.status.pagesOnScreen
        if c.action != .none {
            #expect(pages.count >= 2, "\(c): two or more pages in view: \(pages.map(\.page))")
        }
        #expect(pages.allSatisfy { $0.isSharp }, "\(c): every page on screen is sharp: \(pages)")
        let commit = try #require(lectern.lastCommit)
        let pdf = try PDFDocument(path: Self.letter)
        for page in pages {
            let difference = try Self.difference(commit, page, pdf)
            #expect(
                difference.max <= 8 && difference.mean < 0.2,
                "\(c): page \(page.page + 1) at \(page.visible) differs from MuPDF: mean \(difference.mean), max \(difference.max)"
            )
        }
        // At rest: three seconds on the clock, frame by frame, and nothing happens.
        let renders = lectern.status.tileRendersStarted, commits = lectern.compositor.commitCount
        for _ in 0..<30 {
            lectern.advanceWithoutSettling(by: 0.1)
            lectern.turn(wait: .milliseconds(1))
        }
        // What the clock started meanwhile (the saved view's write, on the background worker)
        // ends in real time, which a loaded machine stretches: wait for it, not for the clock.
        #expect(lectern.settle(), "\(c): at rest")
        #expect(lectern.status.tileRendersStarted == renders, "\(c): tiles rendered again at rest")
        #expect(lectern.compositor.commitCount == commits, "\(c): frames committed at rest")
        #expect(lectern.status.isAtRest)
        try lectern.stop()
    }

    func act(_ action: Action, _ lectern: KioskHarness) throws {
        let size = lectern.compositor.outputSize
        let x = Double(size.width) / 2, y = Double(size.height) / 2
        switch action {
        case .none:
            return
        case .twoDragsUp:
            for _ in 0..<2 {
                let half = 0.38 * Double(size.height)
                lectern.drag(from: (x, y + half), to: (x, y - half), release: false)
                lectern.advanceWithoutSettling(by: 0.2)
                lectern.compositor.touchUp(id: 0)
                lectern.turn()
            }
        case .doubleTapMiddle, .doubleTapText:
            // The letter pages' text starts 72 pt from the top: a quarter down the screen is text.
            let point = action == .doubleTapText ? (x - 200, Double(size.height) / 4) : (x, y)
            lectern.tap(x: point.0, y: point.1)
            lectern.advanceWithoutSettling(by: 0.06)
            lectern.tap(x: point.0, y: point.1)
        case .pinch:
            let c = lectern.compositor
            c.touchDown(id: 0, x: x - 50, y: y + 30)
            c.touchDown(id: 1, x: x + 50, y: y + 30)
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
            for step in 1...10 {
                let d = 50 + 4.3 * Double(step)
                c.touchMotion(id: 0, x: x - d, y: y + 30)
                c.touchMotion(id: 1, x: x + d, y: y + 30)
                lectern.advanceWithoutSettling(by: KioskHarness.frame)
            }
            c.touchUp(id: 0)
            c.touchUp(id: 1)
            lectern.turn()
        case .keys:
            lectern.press(LecternHarness.Key.equal)
            lectern.press(LecternHarness.Key.equal)
        case .rotate:
            #expect(lectern.resize(to: size.height, size.width))
            #expect(lectern.resize(to: size.width, size.height))
        }
    }

    /// How the visible part of `page` in `commit` differs from MuPDF drawing that region at
    /// the size the page is shown at.
    static func difference(
        _ commit: Commit, _ page: KioskStatus.PageOnScreen, _ pdf: PDFDocument
    ) throws -> (mean: Double, max: Int) {
        let info = try pdf.pageInfo(at: page.page)
        let scale = Double(page.frame.width) / info.displaySize.width
        let region = page.visible.offsetBy(dx: -page.frame.x, dy: -page.frame.y)
        let stride = region.width * 4
        var reference = [UInt8](repeating: 0, count: stride * region.height)
        try reference.withUnsafeMutableBytes { raw in
            try pdf.render(page: page.page, scale: scale, region: region, into: raw.baseAddress!, stride: stride)
        }
        var sum = 0, largest = 0
        commit.pixels.withUnsafeBufferPointer { pixels in
            reference.withUnsafeBufferPointer { bgra in
                for row in 0..<region.height {
                    let line = (page.visible.y + row) * commit.width + page.visible.x
                    for column in 0..<region.width {
                        let a = pixels[line + column], offset = row * stride + column * 4
                        guard
                            a & 0xFF_FFFF != UInt32(bgra[offset + 2]) << 16 | UInt32(bgra[offset + 1]) << 8
                                | UInt32(bgra[offset])
                        else { continue }
                        for (shift, index) in [(16, 2), (8, 1), (0, 0)] as [(UInt32, Int)] {
                            let d = abs(Int(a >> shift & 0xFF) - Int(bgra[offset + index]))
                            sum += d
                            largest = max(largest, d)
                        }
                    }
                }
            }
        }
        return (Double(sum) / Double(max(1, 3 * region.width * region.height)), largest)
    }
}
