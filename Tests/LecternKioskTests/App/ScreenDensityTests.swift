import LecternCore
import LecternKiosk
import LecternPDF
import LecternRender
import LecternTestSupport
import Testing

/// Issue 16 item 7 through the test compositor: a screen of scale 2 (`wl_output.scale`) or
/// 1.5 (`wp_fractional_scale_v1` with `wp_viewporter`) gets buffers of its real pixel size,
/// pages as sharp as MuPDF draws them at that size, the chrome drawn at that density, touches
/// where the visitor made them, and a rotated output keeps the page.
@Suite("Screen density and rotation through the test compositor")
struct ScreenDensityTests {
    static let letter = LecternHarness.fixture("letter-6pages.pdf")
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// A screen: its mode in pixels, `wl_output.scale`, the preferred fractional scale × 120.
    struct Screen: Sendable, CustomTestStringConvertible {
        var width: Int32
        var height: Int32
        var scale: Int32 = 1
        var preferred: Int32?
        /// Buffer pixels per surface unit.
        var factor: Double { preferred.map { Double($0) / 120 } ?? Double(scale) }
        var testDescription: String { "\(width)×\(height) at \(factor)" }

        func harness(_ arguments: [String]) throws -> KioskHarness {
            try KioskHarness(arguments, width: width, height: height, scale: scale, preferredScale: preferred)
        }
    }

    /// 1280 × 720 surface units at scale 2, 1.5 and 1.25.
    static let screens = [
        Screen(width: 2560, height: 1440, scale: 2),
        Screen(width: 1920, height: 1080, preferred: 180),
        Screen(width: 1600, height: 900, preferred: 150),
    ]

    @Test("the buffer has the screen's pixels and the page's text matches MuPDF at that size", arguments: screens)
    func sharpAtDensity(_ screen: Screen) throws {
        let lectern = try screen.harness([Self.letter, "--spreads", "double", "--page", "3"])
        #expect(lectern.settle())
        let commit = try #require(lectern.lastCommit)
        #expect(commit.width == Int(screen.width) && commit.height == Int(screen.height), "a buffer of every pixel")
        #expect(lectern.status.windowSize == Size(width: 1280, height: 720), "the window is 1280 × 720 units")
        #expect(lectern.status.scale == screen.factor)
        if let preferred = screen.preferred {
            #expect(commit.bufferScale == 1, "a fractional scale is said with the viewport, not the buffer scale")
            #expect(
                commit.viewportDestination.map { $0 == (1280, 720) } == true,
                "the viewport maps the \(commit.width)×\(commit.height) buffer onto 1280 × 720 (\(preferred))")
        } else {
            #expect(commit.bufferScale == screen.scale, "wl_surface.set_buffer_scale says the scale")
            let hasViewport = commit.viewportDestination != nil
            #expect(!hasViewport, "no viewport destination without a fractional scale")
        }
        let pages = lectern.status.pagesOnScreen
        #expect(pages.map(\.page) == [2, 3], "pages 3 and 4 side by side")
        let pdf = try PDFDocument(path: Self.letter)
        for page in pages {
            #expect(page.isSharp)
            // Two letter pages side by side, fitted in 720 units of height less the margins.
            #expect(
                Double(page.frame.height) > 600 * screen.factor,
                "page \(page.page + 1) is drawn with the screen's pixels: \(page.frame)")
            let difference = try TilesAtRestTests.difference(commit, page, pdf)
            #expect(
                difference.max <= 8 && difference.mean < 0.2,
                "page \(page.page + 1) differs from MuPDF at \(page.frame.width) px: mean \(difference.mean), max \(difference.max)"
            )
        }
        try lectern.stop()
    }

    @Test("the chrome is drawn at the screen's density: its bar and its text", arguments: screens)
    func chromeAtDensity(_ screen: Screen) throws {
        let lectern = try screen.harness([Self.colors])
        #expect(lectern.settle())
        let before = try #require(lectern.lastCommit)
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.isUserInterfaceVisible, "a tap in the middle shows the chrome")
        let after = try #require(lectern.lastCommit)
        let f = screen.factor
        let x = Int(640 * f)
        // The title bar is 64 units high: 60 units down it covers the page, 70 units down not.
        let inBar = Int(60 * f), belowBar = Int(70 * f)
        #expect(
            after.pixel(x: x, y: inBar) != before.pixel(x: x, y: inBar),
            "the title bar reaches 60 units down (\(inBar) px)")
        #expect(
            after.pixel(x: x, y: belowBar) == before.pixel(x: x, y: belowBar),
            "the title bar ends at 64 units (\(belowBar) px is the page)")
        // "Page 1 of 8" at the bar's right end, in a 22-unit font: its glyphs span about
        // 18 units of height (capitals to the descender of g), so 18 × scale rows of pixels.
        let bar = Int(64 * f)
        var rows = 0
        for y in 0..<bar {
            let right = Int(1280 * f)
            if (right - Int(300 * f)..<right).contains(where: { Commit.luminance(after.pixel(x: $0, y: y)) > 200 }) {
                rows += 1
            }
        }
        #expect(
            Double(rows) > 14 * f && Double(rows) < 26 * f,
            "the position's text is \(rows) px high: a font of 22 units at \(f)")
        try lectern.stop()
    }

    @Test("a tap lands where it was made in surface units: page edge, chrome button", arguments: screens)
    func tapsInUnits(_ screen: Screen) throws {
        let lectern = try screen.harness([Self.colors])
        #expect(lectern.settle())
        // The outer fifth of 1280 units: x > 1024 turns the page.
        lectern.tap(x: 1240, y: 360)
        #expect(lectern.waitForPage(2), "a tap at 1240 of 1280 units turns the page: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: Int(640 * screen.factor), y: Int(360 * screen.factor)) == 2)
        // 1000 units is inside the middle: it shows the chrome and turns nothing.
        lectern.tap(x: 1000, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.dominantPage == 2, "a tap at 1000 units is not a page turn")
        #expect(lectern.status.isUserInterfaceVisible, "it shows the chrome")
        // The title bar's first button, "Pages", 128 × 48 units at (8, 8).
        let pages = Scene.Chrome.buttonBox(0)
        lectern.tap(x: Double(pages.x + pages.width / 2), y: Double(pages.y + pages.height / 2))
        lectern.advance(by: 0.35)
        #expect(lectern.status.navigation.isGridOpen, "the Pages button opens the grid")
        try lectern.stop()
    }

    @Test("the output turned 90° (a swapped configure) keeps the page; turned back, the same view")
    func rotation() throws {
        let screen = Screen(width: 2560, height: 1440, scale: 2)
        let lectern = try screen.harness([Self.colors, "--page", "5"])
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 5)
        let c = lectern.compositor
        c.setOutput(width: 2560, height: 1440, scale: 2, transform: Int32(1))  // WL_OUTPUT_TRANSFORM_90
        let turned = c.logicalOutputSize
        #expect(turned.width == 720 && turned.height == 1280, "the turned output is 720 × 1280 units")
        #expect(lectern.resize(to: turned.width, turned.height))
        let portrait = try #require(lectern.lastCommit)
        #expect(
            portrait.width == 1440 && portrait.height == 2560,
            "the buffer follows: \(portrait.width)×\(portrait.height)")
        #expect(lectern.dominantPage == 5, "the page survives the rotation: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 720, y: 1280) == 5, "page 5 in the middle of the portrait frame")
        c.setOutput(width: 2560, height: 1440, scale: 2, transform: 0)
        #expect(lectern.resize(to: 1280, 720))
        let landscape = try #require(lectern.lastCommit)
        #expect(landscape.width == 2560 && landscape.height == 1440)
        #expect(lectern.dominantPage == 5 && lectern.page(atX: 1280, y: 720) == 5, "turned back: page 5")
        try lectern.stop()
    }

    @Test("the output's scale changing at run time redraws at the new density, the layout unchanged")
    func scaleChange() throws {
        let lectern = try KioskHarness([Self.letter, "--page", "2"])
        #expect(lectern.settle())
        let first = try #require(lectern.lastCommit)
        #expect(first.width == 1280 && first.height == 720 && first.bufferScale == 1)
        let before = try #require(lectern.status.pagesOnScreen.first)
        // The same 1280 × 720 units, now with twice the pixels each way (no new configure).
        lectern.compositor.setOutput(width: 2560, height: 1440, scale: 2)
        #expect(lectern.wait { lectern.lastCommit?.width == 2560 })
        #expect(lectern.settle())
        let commit = try #require(lectern.lastCommit)
        #expect(commit.height == 1440 && commit.bufferScale == 2)
        #expect(lectern.dominantPage == 2 && lectern.status.windowSize == Size(width: 1280, height: 720))
        let after = try #require(lectern.status.pagesOnScreen.first)
        #expect(abs(after.frame.width - 2 * before.frame.width) <= 2, "the page has twice the pixels: \(after.frame)")
        #expect(after.isSharp)
        let difference = try TilesAtRestTests.difference(commit, after, PDFDocument(path: Self.letter))
        #expect(difference.max <= 8 && difference.mean < 0.2, "sharp at scale 2: \(difference)")
        try lectern.stop()
    }
}
