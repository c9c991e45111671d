import Foundation
import LecternCore
import LecternRender
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// Issue 30 item 1 through the test compositor: the chrome's text and targets sized from the
/// screen's millimetres. The capital H of the title is measured in the frame's pixels (its ink,
/// not the font's size), and so is the title bar's first button.
@Suite("Chrome sized in millimetres", .serialized)
struct ChromeSizeTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// A 1280 × 720 screen of `width` × `height` mm.
    struct Screen: Sendable, CustomTestStringConvertible {
        var inches: Int
        var width: Int
        var height: Int
        var testDescription: String { "\(inches)-inch (\(width)×\(height) mm)" }
        /// Pixels per millimetre (the window fills the screen at scale 1).
        var perMillimetre: Double { 1280 / Double(width) }
    }

    static let screens = [Screen(inches: 10, width: 221, height: 125), Screen(inches: 32, width: 708, height: 398)]

    /// A copy of the colours fixture named "H.pdf" (the title bar shows "H") and a policy that
    /// opens it on `screen`.
    static func policy(_ screen: Screen) throws -> PolicyTests.PolicyDirectory {
        let policy = try PolicyTests.PolicyDirectory("")
        let document = policy.url.appendingPathComponent("H.pdf").path
        try FileManager.default.copyItem(atPath: colors, toPath: document)
        try policy.replace(
            with: "document = \"\(document)\"\n[screen]\nwidth-mm = \(screen.width)\nheight-mm = \(screen.height)\n")
        return policy
    }

    /// The columns `x0..<x1` of rows `y0..<y1` where some pixel is lighter than `threshold`
    /// (the chrome's text is light on its dark bar), as runs of consecutive columns.
    static func inkRuns(_ commit: Commit, x: Range<Int>, y: Range<Int>, threshold: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for column in x {
            let ink = y.contains { Commit.luminance(commit.pixel(x: column, y: $0)) > threshold }
            if ink, start == nil { start = column }
            if !ink, let first = start {
                runs.append(first..<column)
                start = nil
            }
        }
        if let first = start { runs.append(first..<x.upperBound) }
        return runs
    }

    @Test("the shelf's titles are in the chrome's size too: a capital H at least 0.7° high", arguments: screens)
    func shelfTitles(_ screen: Screen) throws {
        let policy = try PolicyTests.PolicyDirectory("")
        var paths: [String] = []
        for name in ["H.pdf", "Hb.pdf"] {
            let path = policy.url.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: Self.colors, toPath: path)
            paths.append("\"\(path)\"")
        }
        try policy.replace(
            with: "documents = [\(paths.joined(separator: ", "))]\n[screen]\nwidth-mm = \(screen.width)\n"
                + "height-mm = \(screen.height)\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.wait { lectern.status.shelf.count == 2 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        let physical = try #require(lectern.status.physicalScreen)
        let commit = try #require(lectern.lastCommit)
        let cover = try #require(lectern.status.shelf.first).box
        let background = commit.pixel(x: 2, y: 2)
        let text = Commit.luminance(Palette.normal.text.argb)
        let threshold = (Commit.luminance(background) + text) / 2
        let below = cover.maxY..<min(720, cover.maxY + 200)
        let runs = Self.inkRuns(commit, x: cover.x..<cover.maxX, y: below, threshold: threshold)
        let glyph = try #require(runs.first, "the title under the cover")
        let rows = below.filter { y in glyph.contains { Commit.luminance(commit.pixel(x: $0, y: y)) > threshold } }
        let capital = Double((rows.last ?? 0) - (rows.first ?? 0) + 1) / screen.perMillimetre
        #expect(
            capital >= physical.minimumCapitalHeight, "the H's ink is \(rows.count) rows: \(capital) mm")
        try lectern.stop()
    }

    @Test(
        "a capital H of the title bar is at least 0.7° high at 600 mm, and its buttons at least 9 mm",
        arguments: screens)
    func textAndTargets(_ screen: Screen) throws {
        let policy = try Self.policy(screen)
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let physical = try #require(lectern.status.physicalScreen)
        #expect(physical.problem == nil, "\(physical) is big enough for the chrome")
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible)
        #expect(lectern.settle())
        let commit = try #require(lectern.lastCommit)
        let bar = lectern.status.chromeMetrics.barHeight
        let background = commit.pixel(x: 2, y: 2)

        // The first button, from its fill: from (8, 8) right and down to the bar's colour.
        let fill = commit.pixel(x: 10, y: 10)
        #expect(fill != background, "a button at (8, 8)")
        var right = 10, bottom = 10
        while right < 1280, commit.pixel(x: right, y: 10) == fill { right += 1 }
        while bottom < bar, commit.pixel(x: 10, y: bottom) == fill { bottom += 1 }
        let button = (
            width: Double(right - 8) / screen.perMillimetre, height: Double(bottom - 8) / screen.perMillimetre
        )
        #expect(
            button.width >= PhysicalScreen.minimumTarget && button.height >= PhysicalScreen.minimumTarget,
            "the button is \(right - 8)×\(bottom - 8) px: \(button.width)×\(button.height) mm")

        // The last button's right edge along row 10, then the title's one glyph after it.
        var lastButton = right
        for x in right..<1280 where commit.pixel(x: x, y: 10) == fill { lastButton = x + 1 }
        let text = Commit.luminance(Palette.normal.text.argb)
        let threshold = (Commit.luminance(background) + text) / 2
        let runs = Self.inkRuns(commit, x: lastButton..<1280, y: 0..<bar, threshold: threshold)
        let glyph = try #require(runs.first, "the title after the buttons")
        var rows: [Int] = []
        for y in 0..<bar where glyph.contains(where: { Commit.luminance(commit.pixel(x: $0, y: y)) > threshold }) {
            rows.append(y)
        }
        let ink = (rows.last ?? 0) - (rows.first ?? 0) + 1
        #expect(rows.count == ink, "one H, its rows together: \(rows)")
        let capital = Double(ink) / screen.perMillimetre
        #expect(
            capital >= physical.minimumCapitalHeight,
            "the H's ink is \(ink) px high, \(capital) mm; \(physical.minimumCapitalHeight) mm needed")
        // Not far more than needed either, on the small screen (the bars grow with the text).
        if screen.inches == 10 { #expect(capital < 1.3 * physical.minimumCapitalHeight, "\(capital) mm") }
        // The accessibility button, a target too.
        let accessibility = try #require(lectern.status.accessibilityButton)
        #expect(Double(min(accessibility.width, accessibility.height)) / screen.perMillimetre >= 9, "\(accessibility)")
        try lectern.stop()
    }

    @Test("on the small screen the search bar and the keyboard grow too, and their keys are where they are drawn")
    func searchAndKeyboard() throws {
        let screen = Self.screens[0]
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(LecternHarness.fixture("search.pdf"))\"\n[screen]\nwidth-mm = \(screen.width)\n"
                + "height-mm = \(screen.height)\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        let metrics = lectern.status.chromeMetrics
        let search = Scene.Chrome.buttonBox(1, metrics: metrics)
        lectern.tap(x: Double(search.x + search.width / 2), y: Double(search.y + search.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.isKeyboardShown == true, "the Search button, where it is drawn")
        let keyboard = OnScreenKeyboardLayout(width: 1280, height: 720, keyHeight: Double(metrics.keyHeight))
        for key in keyboard.keys {
            #expect(
                min(key.frame.width, key.frame.height) / screen.perMillimetre >= PhysicalScreen.minimumTarget,
                "\(key.label): \(key.frame)")
        }
        for character in "apple" {
            let key = try #require(keyboard.keys.first { $0.action == .character(character) })
            lectern.tap(x: key.frame.midX, y: key.frame.midY)
        }
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.query == "apple", "the keys typed what they say")
        let close = Scene.SearchBar.closeButton(width: 1280, height: 720, metrics: metrics)
        #expect(Double(close.height) / screen.perMillimetre >= PhysicalScreen.minimumTarget)
        let done = try #require(keyboard.keys.first { $0.action == .done })
        lectern.tap(x: done.frame.midX, y: done.frame.midY)
        #expect(lectern.settle())
        #expect(lectern.status.navigation.search?.isKeyboardShown == false, "Done hides the keyboard")
        try lectern.stop()
    }

    @Test("a policy that gives other millimetres sizes the chrome anew, while the reader runs")
    func policyChange() throws {
        let policy = try Self.policy(Self.screens[1])
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        #expect(lectern.status.chromeMetrics.textSize == ChromeMetrics.standard.textSize, "32 inches: today's text")
        let document = policy.url.appendingPathComponent("H.pdf").path
        let small = Self.screens[0]
        try policy.replace(
            with: "document = \"\(document)\"\n[screen]\nwidth-mm = \(small.width)\nheight-mm = \(small.height)\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        let metrics = lectern.status.chromeMetrics
        #expect(Double(metrics.textSize) * 0.69 >= 7.33 * small.perMillimetre, "10 inches: larger text, \(metrics)")
        #expect(lectern.status.accessibilityButton.map { $0.width >= metrics.target } == true)
        try lectern.stop()
    }
}
