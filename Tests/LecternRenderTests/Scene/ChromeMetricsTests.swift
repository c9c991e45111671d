import LecternCore
import Testing

@testable import LecternRender

/// The chrome's sizes from the screen's millimetres, and where its controls stay in reach.
@Suite struct ChromeMetricsTests {
    @Test func todaysSizesWhenTheMillimetresAreNotKnown() {
        #expect(ChromeMetrics(physical: nil, width: 1280, height: 720) == .standard)
        #expect(ChromeMetrics.standard.scaled(128) == 128 && ChromeMetrics.standard.keyHeight == 58)
        #expect(ChromeMetrics.standard.reachTop == 0 && ChromeMetrics.standard.reachBottom == 0)
    }

    @Test func aSmallScreenGetsLargerTextBarsAndTargets() {
        // 10 inches at 1280 × 720: 5.8 units a millimetre; a capital H of 7.33 mm is 42.4 units.
        let metrics = ChromeMetrics(physical: PhysicalScreen(width: 221, height: 125), width: 1280)
        let perMillimetre = 1280 / 221.0
        #expect(Double(metrics.textSize) * 0.69 >= 7.33 * perMillimetre)
        #expect(metrics.titleTextSize >= metrics.textSize && metrics.smallTextSize >= metrics.textSize)
        #expect(Double(metrics.target) >= 9 * perMillimetre)
        #expect(Double(metrics.buttonHeight) >= 9 * perMillimetre && metrics.barHeight > 64)
        #expect(metrics.scaled(128) > 128)
    }

    @Test func neverSmallerThanTodays() {
        // 55 inches at 1280 × 720: today's sizes are readable, and kept.
        let metrics = ChromeMetrics(physical: PhysicalScreen(width: 1210, height: 680), width: 1280)
        #expect(metrics.barHeight == 64 && metrics.textSize == 22 && metrics.target == 48)
    }

    @Test func theControlsStayInReachAndTheRoomTheyNeedIsKept() throws {
        let screen = try #require(PhysicalScreen(width: 708, height: 398))
        let high = ChromeMetrics(physical: screen, width: 1280, height: 720, reach: Reach(screen: screen, bottom: 1000))
        #expect(high.reachTop == Int((178 * 720 / 398.0).rounded(.up)) && high.reachBottom == 0)
        // Wholly above 1220 mm: the controls go to the bottom, as near to the reach as can be.
        let above = ChromeMetrics(
            physical: screen, width: 1280, height: 720, reach: Reach(screen: screen, bottom: 1300))
        #expect(above.reachTop == 720 - above.roomNeeded && above.reachEnd(720) == 720)
        let below = ChromeMetrics(physical: screen, width: 1280, height: 720, reach: Reach(screen: screen, bottom: 10))
        #expect(below.reachBottom == 720 - below.roomNeeded && below.reachTop == 0)
    }
}
