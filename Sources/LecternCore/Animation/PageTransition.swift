/// How a new page comes on screen in place of the old one: a PDF page's `/Trans` (ISO 32000-1,
/// 12.4.4.1), or the transition the attract loop is configured with.
public struct PageTransition: Equatable, Sendable {
    /// The effect (`/S`).
    public enum Style: String, CaseIterable, Sendable {
        /// The new page simply replaces the old one (a cut).
        case replace = "R"
        case split = "Split"
        case blinds = "Blinds"
        case box = "Box"
        /// A line sweeps across the screen, uncovering the new page.
        case wipe = "Wipe"
        /// The old page dissolves, pixel by pixel, into the new one.
        case dissolve = "Dissolve"
        case glitter = "Glitter"
        case fly = "Fly"
        /// The new page slides on, pushing the old one off.
        case push = "Push"
        /// The new page slides on over the old one.
        case cover = "Cover"
        /// The old page slides off, uncovering the new one.
        case uncover = "Uncover"
        /// The old page fades into the new one.
        case fade = "Fade"
    }

    public var style: Style
    /// Seconds the effect lasts (`/D`).
    public var duration: Double
    /// The direction of motion (`/Di`), in degrees counterclockwise from left to right: 0 moves
    /// left to right, 90 bottom to top, 180 right to left, 270 top to bottom.
    public var direction: Int
    /// `/Dm /V`: split and blinds run vertically.
    public var isVertical: Bool
    /// `/M /O`: split and box move outward from the centre.
    public var isOutward: Bool

    public init(
        style: Style, duration: Double = 1, direction: Int = 0, isVertical: Bool = false, isOutward: Bool = false
    ) {
        self.style = style
        self.duration = duration
        self.direction = direction
        self.isVertical = isVertical
        self.isOutward = isOutward
    }

    /// A cut: no effect.
    public static let cut = PageTransition(style: .replace, duration: 0)
}

/// A page's presentation keys: how long it shows before a presentation moves on (`/Dur`), and
/// how it comes on screen (`/Trans`).
public struct PagePresentation: Equatable, Sendable {
    /// Seconds the page shows before the next (nil: the page does not say).
    public var duration: Double?
    /// How the page comes on screen (nil: the page does not say).
    public var transition: PageTransition?

    public init(duration: Double? = nil, transition: PageTransition? = nil) {
        self.duration = duration
        self.transition = transition
    }
}
