/// Which part of a mounted screen a visitor can reach: EN 301 549 8.3.3.1 and ADA 308 put
/// controls between 380 and 1220 mm above the floor (15 to 48 inches), for a reader standing or
/// in a wheelchair.
public struct Reach: Sendable, Equatable {
    /// The lowest and highest a control may be, in millimetres above the floor.
    public static let lowest = 380.0
    public static let highest = 1220.0

    public var screen: PhysicalScreen
    /// The screen's bottom edge, in millimetres above the floor.
    public var bottom: Double

    /// The screen `screen` mounted with its bottom edge `bottom` mm above the floor; nil when
    /// either is not known (no size, or a mounting height of 0).
    public init?(screen: PhysicalScreen?, bottom: Double) {
        guard let screen, bottom > 0 else { return nil }
        self.screen = screen
        self.bottom = bottom
    }

    /// The screen's top edge, in millimetres above the floor.
    public var top: Double { bottom + screen.height }

    /// How much of the screen is out of reach at its top and at its bottom, in millimetres
    /// (each at most the screen's height).
    public var outOfReach: (top: Double, bottom: Double) {
        (min(screen.height, max(0, top - Self.highest)), min(screen.height, max(0, Self.lowest - bottom)))
    }

    /// The height of the screen in reach, in millimetres (0: none).
    public var inReach: Double { max(0, screen.height - outOfReach.top - outOfReach.bottom) }

    /// The height the essential controls need in reach: the title bar, the scrubber and the
    /// accessibility button, each a bar of the chrome high.
    public var roomNeeded: Double { 3 * screen.chromeBarHeight }

    /// What an operator should know when the mounting leaves too little of the screen in reach
    /// for the controls, or nil.
    public var problem: String? {
        guard inReach < roomNeeded else { return nil }
        let place =
            bottom >= Self.highest
            ? "the whole screen is above \(Int(Self.highest)) mm"
            : top <= Self.lowest
                ? "the whole screen is below \(Int(Self.lowest)) mm"
                : "only \(PhysicalScreen.millimetres(inReach)) of the screen is between \(Int(Self.lowest)) and "
                    + "\(Int(Self.highest)) mm"
        return "the screen mounted \(Int(bottom)) mm above the floor (its top at \(Int(top)) mm) leaves no room "
            + "for the controls in reach of a wheelchair user: \(place) above the floor, and they need "
            + "\(PhysicalScreen.millimetres(roomNeeded)); the controls are placed as near to that reach as they can be"
    }
}
