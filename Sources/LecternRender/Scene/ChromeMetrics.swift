import LecternCore

/// The chrome's sizes in surface units on one screen: its fonts, bars and smallest target, from
/// the screen's millimetres (`PhysicalScreen`) so that its text can be read and its targets hit
/// at the viewing distance. Never smaller than `standard` (the sizes of a screen whose
/// millimetres are not known), which the layouts had as constants.
public struct ChromeMetrics: Equatable, Sendable {
    /// The chrome's text (the title bar, buttons, the notice bar), in surface units.
    public var textSize: Int
    /// Headings: message cards, the accessibility panel's rows.
    public var titleTextSize: Int
    /// The smallest text (the thumbnail grid's page labels).
    public var smallTextSize: Int
    /// The height of the title bar, the scrubber bar and the search bar.
    public var barHeight: Int
    /// The smallest side of a target a finger must hit.
    public var target: Int
    /// How far below the top edge and above the bottom edge the controls stay, to be in reach
    /// (`Reach`): 0 and 0 unless the screen is mounted high or low.
    public var reachTop = 0
    public var reachBottom = 0
    /// The screen's width when the chrome is laid out right to left (Arabic, Hebrew): the title
    /// bar's and the panels' boxes are mirrored in it (`placed(_:)`); nil: left to right.
    public var mirroredWidth: Int?

    /// Today's sizes: a screen whose millimetres are not known.
    public static let standard = ChromeMetrics(
        textSize: 22, titleTextSize: 34, smallTextSize: 17, barHeight: 64, target: 48)

    /// A capital H's height per font size that the chrome's fonts are at least sized for: a
    /// little less than DejaVu Sans's 0.73 (and Noto Sans's 0.71), so that the ink of a
    /// rasterized H, rounded to whole pixels, is not short of the required height.
    static let capitalHeightPerFontSize = 0.69

    public init(textSize: Int, titleTextSize: Int, smallTextSize: Int, barHeight: Int, target: Int) {
        self.textSize = textSize
        self.titleTextSize = titleTextSize
        self.smallTextSize = smallTextSize
        self.barHeight = barHeight
        self.target = target
    }

    /// The sizes on `physical` (nil: not known, `standard`) shown `width` × `height` surface
    /// units, and where the controls are in reach on it when it is mounted as `reach` says.
    public init(physical: PhysicalScreen?, width: Int, height: Int = 0, reach: Reach? = nil) {
        self = .standard
        guard let physical, width > 0 else { return }
        defer { if let reach, height > 0 { placeInReach(reach, height: height) } }
        let perMillimetre = physical.unitsPerMillimetre(surfaceWidth: Double(width))
        func units(_ millimetres: Double) -> Int { Int((millimetres * perMillimetre).rounded(.up)) }
        let font = Int((physical.minimumCapitalHeight * perMillimetre / Self.capitalHeightPerFontSize).rounded(.up))
        textSize = max(textSize, font)
        titleTextSize = max(titleTextSize, font)
        smallTextSize = max(smallTextSize, font)
        target = max(target, units(PhysicalScreen.minimumTarget))
        // A line of text with room around it, and a target with 8 units above and below.
        barHeight = max(barHeight, units(physical.chromeBarHeight), textSize * 8 / 5, target + 16)
    }

    /// The height the controls need in reach: the title bar, the scrubber, the accessibility
    /// button (a bar and 8 more) and the margins around it.
    public var roomNeeded: Int { 3 * barHeight + 24 }

    /// Sets `reachTop` and `reachBottom` from the part of the screen out of reach. When too
    /// little is left for the controls, they go as near to the reach as the screen allows.
    private mutating func placeInReach(_ reach: Reach, height: Int) {
        let perMillimetre = Double(height) / reach.screen.height
        let out = reach.outOfReach
        var top = Int((out.top * perMillimetre).rounded(.up)), bottom = Int((out.bottom * perMillimetre).rounded(.up))
        if top > 0 { top = min(top, max(0, height - bottom - roomNeeded)) }
        if bottom > 0 { bottom = min(bottom, max(0, height - top - roomNeeded)) }
        reachTop = top
        reachBottom = bottom
    }

    /// The y of the bottom edge of the part in reach, in a frame `height` high.
    public func reachEnd(_ height: Int) -> Int { height - reachBottom }

    /// `standard` widths (of boxes that hold a label) grown with the text: `value` × textSize / 22.
    public func scaled(_ value: Int) -> Int {
        textSize == Self.standard.textSize ? value : value * textSize / Self.standard.textSize
    }

    /// The on-screen keyboard's keys' height: a target, with room for a letter of the text.
    public var keyHeight: Int {
        max(Int(OnScreenKeyboardLayout.standardKeyHeight), target, textSize * 5 / 4)
    }

    /// A button's height in a bar (8 units above and below it).
    public var buttonHeight: Int { barHeight - 16 }

    /// `box`, laid out left to right, where the chrome's direction puts it: mirrored across the
    /// screen when it is right to left. Every box of the mirrored chrome comes through here, for
    /// the drawing and the hit tests alike.
    public func placed(_ box: PixelBox) -> PixelBox {
        guard let width = mirroredWidth else { return box }
        return PixelBox(x: width - box.x - box.width, y: box.y, width: box.width, height: box.height)
    }

    /// These sizes with the chrome left to right: to lay a box out before it is placed.
    public var leftToRight: ChromeMetrics {
        var metrics = self
        metrics.mirroredWidth = nil
        return metrics
    }
}
