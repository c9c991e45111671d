import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// The contrast modes a visitor with low vision chooses (issue 30): the committed pixels of the
/// page's paper, its text and a coloured image in each mode, and the tile cache across a change.
/// `KioskApp` in process against the test compositor, real MuPDF on Tests/Fixtures/contrast.pdf
/// (made by make-contrast-fixture: a 400 × 300 pt page).
@Suite("Contrast modes")
struct ContrastTests {
    static let fixture = LecternHarness.fixture("contrast.pdf")

    /// Where the fixture's features are, in PDF points (y up).
    enum Spot {
        /// Paper with nothing on it.
        static let paper = (x: 200.0, y: 120.0)
        /// The middle of the big "I"'s stem.
        static let ink = (x: 60.0, y: 110.0)
        /// The middle of the image's top-left (dark blue) and bottom-right (brown) quadrants.
        static let darkBlue = (x: 270.0, y: 150.0)
        static let brown = (x: 330.0, y: 90.0)
    }

    /// The committed pixel at `spot` of the page on screen.
    static func pixel(_ lectern: KioskHarness, _ spot: (x: Double, y: Double)) throws -> UInt32 {
        let page = try #require(lectern.status.pagesOnScreen.first)
        let scale = Double(page.frame.width) / 400
        let x = page.frame.x + Int(spot.x * scale), y = page.frame.y + Int((300 - spot.y) * scale)
        return try #require(lectern.lastCommit).pixel(x: x, y: y)
    }

    static func hex(_ pixel: UInt32) -> String { "0x" + String(pixel, radix: 16, uppercase: true) }

    struct Expected: Sendable, CustomStringConvertible {
        var contrast: Contrast
        var paper: UInt32
        var ink: UInt32
        var darkBlue: UInt32
        var description: String { contrast.description }
    }

    static let modes: [Expected] = [
        Expected(contrast: .normal, paper: 0xFFFF_FFFF, ink: 0xFF00_0000, darkBlue: 0xFF20_3090),
        Expected(contrast: Contrast(.invert), paper: 0xFF00_0000, ink: 0xFFFF_FFFF, darkBlue: 0xFF20_3090),
        Expected(contrast: Contrast(.high), paper: 0xFFFF_FFFF, ink: 0xFF00_0000, darkBlue: 0xFF20_3090),
        Expected(contrast: Contrast(.yellowOnBlack), paper: 0xFF00_0000, ink: 0xFFFF_FF00, darkBlue: 0xFF20_3090),
        // The image recoloured too: dark blue's lightness turned over (each channel + 79), to
        // black and white by its luminance, and to yellow by it.
        Expected(
            contrast: Contrast(.invert, recolorsImages: true), paper: 0xFF00_0000, ink: 0xFFFF_FFFF,
            darkBlue: 0xFF6F_7FDF),
        Expected(
            contrast: Contrast(.high, recolorsImages: true), paper: 0xFFFF_FFFF, ink: 0xFF00_0000,
            darkBlue: 0xFF00_0000),
    ]

    @Test("each mode draws the paper, the text and the image as it says", arguments: modes)
    func pixels(of expected: Expected) throws {
        let lectern = try KioskHarness([Self.fixture])
        #expect(lectern.settle())
        lectern.app.setContrast(expected.contrast)
        #expect(lectern.settle())
        #expect(lectern.status.contrast == expected.contrast)
        let paper = try Self.pixel(lectern, Spot.paper), ink = try Self.pixel(lectern, Spot.ink)
        let image = try Self.pixel(lectern, Spot.darkBlue)
        #expect(paper == expected.paper, "paper: \(Self.hex(paper))")
        #expect(ink == expected.ink, "text: \(Self.hex(ink))")
        #expect(image == expected.darkBlue, "image: \(Self.hex(image))")
        try lectern.stop()
    }

    /// The darkest luminance (0 black … 255 white) across the fixture's hairline, 0.1 pt wide.
    static func hairline(_ lectern: KioskHarness) throws -> Int {
        let page = try #require(lectern.status.pagesOnScreen.first)
        let commit = try #require(lectern.lastCommit)
        let scale = Double(page.frame.width) / 400
        let x = page.frame.x + Int(160 * scale)
        let y0 = page.frame.y + Int((300 - 44) * scale), y1 = page.frame.y + Int((300 - 36) * scale)
        return (y0...y1).map { y in
            let pixel = commit.pixel(x: x, y: y)
            return Int((pixel >> 16 & 0xFF) * 77 + (pixel >> 8 & 0xFF) * 150 + (pixel & 0xFF) * 29) >> 8
        }.min() ?? 255
    }

    @Test("high contrast thickens a stroke thinner than a pixel: a pale grey line becomes ink")
    func thinStrokes() throws {
        let lectern = try KioskHarness([Self.fixture])
        #expect(lectern.settle())
        let normal = try Self.hairline(lectern)
        lectern.app.setContrast(Contrast(.high))
        #expect(lectern.settle())
        let high = try Self.hairline(lectern)
        #expect(normal > 128, "drawn as it is, the hairline is a pale grey: \(normal)")
        #expect(high < 40, "in high contrast it is ink: \(high) (drawn as it is: \(normal))")
        try lectern.stop()
    }

    @Test("a change of contrast renders the page again; a change back finds the first tiles in the cache")
    func cache() throws {
        let lectern = try KioskHarness([Self.fixture])
        #expect(lectern.settle())
        let normalPaper = try Self.pixel(lectern, Spot.paper)
        let first = lectern.status.tileRendersStarted
        lectern.app.setContrast(Contrast(.invert))
        #expect(lectern.settle())
        let inverted = lectern.status.tileRendersStarted
        #expect(inverted > first, "the inverted page is rendered")
        #expect(try Self.pixel(lectern, Spot.paper) == 0xFF00_0000)
        lectern.app.setContrast(.normal)
        #expect(lectern.settle())
        #expect(lectern.status.tileRendersStarted == inverted, "the normal tiles are still cached: nothing rendered")
        #expect(try Self.pixel(lectern, Spot.paper) == normalPaper)
        #expect(lectern.status.contrast == .normal)
        try lectern.stop()
    }

    @Test("the idle reset puts the operator's contrast back")
    func idleReset() throws {
        let lectern = try KioskHarness([Self.fixture, "--idle-reset", "30"])
        #expect(lectern.settle())
        lectern.app.setContrast(Contrast(.yellowOnBlack))
        #expect(lectern.settle())
        #expect(try Self.pixel(lectern, Spot.ink) == 0xFFFF_FF00)
        lectern.advance(by: 31)
        #expect(lectern.settle())
        #expect(lectern.status.contrast == .normal)
        #expect(try Self.pixel(lectern, Spot.ink) == 0xFF00_0000)
        try lectern.stop()
    }

    @Test(
        "the chrome follows: the title bar, the scrubber, their text and the background take the mode's palette",
        arguments: [Contrast.normal, Contrast(.invert), Contrast(.high), Contrast(.yellowOnBlack)])
    func chrome(in contrast: Contrast) throws {
        let lectern = try KioskHarness([Self.fixture])
        #expect(lectern.settle())
        lectern.app.setContrast(contrast)
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.settle())
        #expect(lectern.status.isUserInterfaceVisible)
        let palette = Palette(contrast)
        let commit = try #require(lectern.lastCommit)
        let title = Scene.Chrome.titleBar(width: 1280, height: 720)
        let scrubber = Scene.Chrome.scrubberBar(width: 1280, height: 720)
        #expect(commit.pixel(x: 640, y: title.y + 2) == palette.chrome.argb, "title bar")
        #expect(commit.pixel(x: 1260, y: scrubber.maxY - 2) == palette.chrome.argb, "scrubber")
        #expect(commit.pixel(x: 5, y: 360) == palette.background.argb, "background beside the page")
        // The position ("Page 1 of 1") is written in the palette's text colour.
        var textPixels = 0
        for y in title.y..<title.maxY {
            for x in 1000..<1280 where commit.pixel(x: x, y: y) == palette.text.argb { textPixels += 1 }
        }
        #expect(textPixels > 20, "the title bar's text in \(Self.hex(palette.text.argb)): \(textPixels) pixels")
        try lectern.stop()
    }

    @Test("the operator's default (--contrast) is the first frame's, and the idle reset goes back to it")
    func operatorDefault() throws {
        let lectern = try KioskHarness([Self.fixture, "--contrast", "yellow-on-black", "--idle-reset", "30"])
        #expect(lectern.settle())
        #expect(lectern.status.contrast == Contrast(.yellowOnBlack))
        #expect(try Self.pixel(lectern, Spot.ink) == 0xFFFF_FF00)
        lectern.app.setContrast(.normal)
        #expect(lectern.settle())
        #expect(try Self.pixel(lectern, Spot.ink) == 0xFF00_0000)
        lectern.advance(by: 31)
        #expect(lectern.settle())
        #expect(lectern.status.contrast == Contrast(.yellowOnBlack))
        #expect(try Self.pixel(lectern, Spot.paper) == 0xFF00_0000)
        try lectern.stop()
    }

    @Test("the presenter mirror and the thumbnails follow the contrast")
    func mirrorAndThumbnails() throws {
        let lectern = try KioskHarness([Self.fixture])
        #expect(lectern.settle())
        let second = lectern.compositor.plugOutput(width: 800, height: 600)
        lectern.advance(by: 1)
        #expect(lectern.settle())
        lectern.app.setContrast(Contrast(.invert))
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.settle())
        let mirror = try #require(lectern.compositor.commits.last { $0.title == "Lectern mirror" })
        // The page fills most of the mirror's 800 × 600 (4:3, as the page): its paper is black,
        // the big "I" white.
        #expect(mirror.pixel(x: 400, y: 360) == 0xFF00_0000, "the mirror's paper")
        #expect(mirror.pixel(x: 125, y: 380) == 0xFFFF_FFFF, "the mirror's text")
        // The thumbnail bar (its ground dark grey, its labels light grey): the thumbnail's paper
        // is black.
        #expect(lectern.status.navigation.thumbnailsInFrame > 0)
        let commit = try #require(lectern.lastCommit)
        let bar = Scene.ThumbnailBar.box(width: 1280, height: 720)
        var paperPixels = 0
        for y in bar.y..<bar.maxY {
            for x in 0..<1280 where commit.pixel(x: x, y: y) == 0xFF00_0000 { paperPixels += 1 }
        }
        #expect(paperPixels > 100, "the thumbnail's paper is the mode's: \(paperPixels) black pixels in the bar")
        lectern.compositor.unplug(second)
        try lectern.stop()
    }

    @Test(
        "a new default in the policy file applies at once, unless a visitor chose another contrast; the reset then takes it"
    )
    func policyLive() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.fixture)\"\n[accessibility]\ncontrast = \"invert\"\n")
        let lectern = try KioskHarness(["--config", policy.path, "--idle-reset", "30"])
        #expect(lectern.settle())
        #expect(lectern.status.contrast == Contrast(.invert))
        try policy.replace(with: "document = \"\(Self.fixture)\"\n[accessibility]\ncontrast = \"high\"\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        #expect(lectern.settle())
        #expect(lectern.status.contrast == Contrast(.high), "nobody chose: the new default at once")
        lectern.app.setContrast(Contrast(.yellowOnBlack))
        try policy.replace(with: "document = \"\(Self.fixture)\"\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        #expect(lectern.settle())
        #expect(lectern.status.contrast == Contrast(.yellowOnBlack), "the visitor's choice stays")
        lectern.advance(by: 31)
        #expect(lectern.settle())
        #expect(lectern.status.contrast == .normal, "the reset takes the new default")
        #expect(try Self.pixel(lectern, Spot.paper) == 0xFFFF_FFFF)
        try lectern.stop()
    }

    @Test("the shelf's covers are drawn in the contrast, and again when it changes")
    func shelfCovers() throws {
        let colors = LecternHarness.fixture("colors-8pages.pdf")
        let policy = try PolicyTests.PolicyDirectory(
            "documents = [\"\(Self.fixture)\", \"\(colors)\"]\n[accessibility]\ncontrast = \"invert\"\n")
        let lectern = try KioskHarness(["--config", policy.path])
        /// How many pixels of the first cover's box are `color`.
        func count(_ color: UInt32) -> Int {
            guard let box = lectern.status.shelf.first?.box, let commit = lectern.lastCommit else { return 0 }
            var count = 0
            for y in stride(from: box.y, to: box.maxY, by: 2) {
                for x in stride(from: box.x, to: box.maxX, by: 2) where commit.pixel(x: x, y: y) == color { count += 1 }
            }
            return count
        }
        #expect(lectern.wait { lectern.status.shelf.count == 2 && lectern.status.shelf.allSatisfy(\.hasCover) })
        #expect(lectern.settle())
        // Its paper black, its big "I" and its text white; nothing yellow yet.
        #expect(count(0xFF00_0000) > 1000 && count(0xFFFF_FFFF) > 50 && count(0xFFFF_FF00) == 0)
        lectern.app.setContrast(Contrast(.yellowOnBlack))
        #expect(lectern.wait { count(0xFFFF_FF00) > 50 }, "drawn again, yellow on black")
        #expect(count(0xFFFF_FFFF) == 0)
        try lectern.stop()
    }
}
