import Testing

@testable import LecternCore

/// Sizes in millimetres from the viewing distance (EN 301 549 5.1.4) and the target size.
@Suite struct PhysicalScreenTests {
    @Test func capitalHeightSubtendsSevenTenthsOfADegree() throws {
        let screen = try #require(PhysicalScreen(width: 527, height: 296))  // a 24-inch 16:9 panel
        #expect(abs(screen.minimumCapitalHeight - 7.33) < 0.01, "2 × 600 × tan(0.35°)")
        #expect(abs(screen.minimumFontSize - 10.04) < 0.01)
        #expect(abs(screen.chromeBarHeight - 16.07) < 0.01, "the line with room around it, above 9 mm")
        let far = try #require(PhysicalScreen(width: 527, height: 296, viewingDistance: 1200))
        #expect(abs(far.minimumCapitalHeight - 2 * screen.minimumCapitalHeight) < 1e-9, "twice as far, twice as big")
        #expect(abs(screen.unitsPerMillimetre(surfaceWidth: 1920) - 1920 / 527) < 1e-9)
    }

    @Test func aTargetIsNeverUnderNineMillimetres() throws {
        let near = try #require(PhysicalScreen(width: 200, height: 120, viewingDistance: 200))
        #expect(near.minimumCapitalHeight < 3)
        #expect(near.chromeBarHeight == PhysicalScreen.minimumTarget)
    }

    @Test func aSmallScreenReadFromAfarIsTooSmallAndSaysWhy() throws {
        let tablet = try #require(PhysicalScreen(width: 154, height: 87))  // 7 inches, landscape
        #expect(!tablet.fitsChrome)
        #expect(
            tablet.problem
                == "the screen (154×87 mm read from 600 mm) is too small for chrome text that can be read there"
                + " (a capital H of 7.3 mm) and 9 mm targets: a line of 40 characters needs 220.9 mm across;"
                + " a bigger screen or a shorter viewing distance is needed")
        let strip = try #require(PhysicalScreen(width: 600, height: 60))  // a shelf-edge display
        #expect(strip.problem?.contains("would take 32.1 mm, more than half its height") == true)
        #expect(PhysicalScreen(width: 527, height: 296)?.problem == nil)
        #expect(PhysicalScreen(width: 154, height: 87, viewingDistance: 350)?.fitsChrome == true, "read from nearer")
    }

    @Test func anUnknownSizeIsNoScreen() {
        #expect(PhysicalScreen(width: 0, height: 0) == nil)
        #expect(PhysicalScreen(width: 300, height: 0) == nil)
    }
}
