import Testing

@testable import LecternCore

/// The part of a mounted screen in reach: 380 to 1220 mm above the floor.
@Suite struct ReachTests {
    static let screen = PhysicalScreen(width: 708, height: 398)  // 32 inches, 16:9

    @Test func nothingIsKnownWithoutAMountingOrASize() {
        #expect(Reach(screen: Self.screen, bottom: 0) == nil)
        #expect(Reach(screen: nil, bottom: 900) == nil)
    }

    @Test func theTopOfAHighScreenAndTheBottomOfALowOneAreOutOfReach() throws {
        let high = try #require(Reach(screen: Self.screen, bottom: 1000))
        #expect(high.top == 1398)
        #expect(high.outOfReach.top == 178 && high.outOfReach.bottom == 0)
        #expect(high.inReach == 220 && high.problem == nil)
        let low = try #require(Reach(screen: Self.screen, bottom: 250))
        #expect(low.outOfReach.top == 0 && low.outOfReach.bottom == 130)
        let inBetween = try #require(Reach(screen: Self.screen, bottom: 500))
        #expect(inBetween.inReach == 398, "the whole screen, 500 to 898 mm")
    }

    @Test func aScreenWhollyOutOfReachSaysSo() throws {
        let above = try #require(Reach(screen: Self.screen, bottom: 1250))
        #expect(above.inReach == 0)
        #expect(above.problem?.contains("the whole screen is above 1220 mm") == true)
        let below = try #require(Reach(screen: PhysicalScreen(width: 530, height: 300), bottom: 50))
        #expect(below.problem?.contains("the whole screen is below 380 mm") == true)
        let sliver = try #require(Reach(screen: Self.screen, bottom: 1200))
        #expect(sliver.inReach == 20 && sliver.problem?.contains("only 20 mm of the screen") == true)
    }
}
