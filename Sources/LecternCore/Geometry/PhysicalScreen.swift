/// A screen's size in millimetres and the distance it is read from: what the chrome's sizes
/// follow, so that text can be read and targets hit at that distance.
///
/// - Text: EN 301 549 5.1.4 asks for a capital H that subtends at least 0.7° at the viewing
///   distance: 2 · d · tan(0.35°), 7.3 mm at 600 mm.
/// - Targets: at least 9 mm (EN 301 549 and ISO 9241-9 put a finger's target at 9 mm or more;
///   WCAG 2.5.8 asks less).
public struct PhysicalScreen: Sendable, Equatable, CustomStringConvertible {
    /// The screen's width and height in millimetres, as the reader sees it (rotation applied).
    public var width: Double
    public var height: Double
    /// How far the visitor's eyes are, in millimetres.
    public var viewingDistance: Double

    /// The smallest target a finger should have, in millimetres.
    public static let minimumTarget = 9.0
    /// A capital H is about this fraction of the font's size (DejaVu Sans: 0.73).
    public static let capitalHeightPerFontSize = 0.73

    /// A screen of `width` × `height` mm; nil when either is unknown (0, as a compositor reports
    /// a screen whose size it does not know).
    public init?(width: Double, height: Double, viewingDistance: Double = 600) {
        guard width > 0, height > 0, viewingDistance > 0 else { return nil }
        self.width = width
        self.height = height
        self.viewingDistance = viewingDistance
    }

    /// tan(0.35°): half the 0.7° a capital H must subtend (a constant, so LecternCore needs no C
    /// math library).
    static let tangentOfHalfAngle = 0.006_108_728_365_859_659

    /// The capital H's height that subtends 0.7° at the viewing distance, in millimetres.
    public var minimumCapitalHeight: Double { 2 * viewingDistance * Self.tangentOfHalfAngle }

    /// The smallest font size (em, in millimetres) whose capital H is `minimumCapitalHeight`.
    public var minimumFontSize: Double { minimumCapitalHeight / Self.capitalHeightPerFontSize }

    /// The height of a bar of the chrome (a title bar, the scrubber) that holds a line of the
    /// smallest text with room around it, and is at least a target high, in millimetres.
    public var chromeBarHeight: Double { max(Self.minimumTarget, minimumFontSize * 1.6) }

    /// Surface units per millimetre on a surface `units` wide that fills the screen's width.
    public func unitsPerMillimetre(surfaceWidth units: Double) -> Double { units / width }

    /// The width a line of the chrome's text needs: 40 characters (a notice such as the idle
    /// countdown's) of the smallest text, at an average 0.55 em each, in millimetres.
    public var chromeLineWidth: Double { 40 * 0.55 * minimumFontSize }

    /// Whether the chrome at these sizes fits: its two bars (title bar and scrubber) take no more
    /// than half the height, and a line of its text fits across.
    public var fitsChrome: Bool { 2 * chromeBarHeight <= height / 2 && chromeLineWidth <= width }

    /// What an operator should know when the screen is too small for text and targets of these
    /// sizes, or nil.
    public var problem: String? {
        var reasons: [String] = []
        if 2 * chromeBarHeight > height / 2 {
            reasons.append(
                "the title bar and the page scrubber would take \(Self.millimetres(2 * chromeBarHeight)), "
                    + "more than half its height")
        }
        if chromeLineWidth > width {
            reasons.append("a line of 40 characters needs \(Self.millimetres(chromeLineWidth)) across")
        }
        guard !reasons.isEmpty else { return nil }
        return "the screen (\(self)) is too small for chrome text that can be read there (a capital H of "
            + "\(Self.millimetres(minimumCapitalHeight))) and \(Int(Self.minimumTarget)) mm targets: "
            + reasons.joined(separator: ", and ") + "; a bigger screen or a shorter viewing distance is needed"
    }

    public var description: String {
        "\(Self.millimetres(width, unit: false))×\(Self.millimetres(height)) read from \(Int(viewingDistance)) mm"
    }

    /// "7.3 mm": one decimal when it matters.
    static func millimetres(_ value: Double, unit: Bool = true) -> String {
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return unit ? text + " mm" : text
    }
}
