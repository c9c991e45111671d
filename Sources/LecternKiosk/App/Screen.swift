import LecternCore
import LecternPolicy
import LecternRender

/// The screen the reader's window fills: its size in surface units (the window's last
/// configure), its scale (buffer pixels per unit, at which tiles are rendered) and the contrast
/// it shows in (the colours tiles are rendered in, and the chrome's palette). Its one
/// owner: `KioskApp` makes it, the frame presenter sets it from the window, and every part that
/// lays something out reads it here (it used to be a property of the document session).
final class Screen {
    /// The size the reader lays out for, in surface units (1 × 1 until the first configure): the
    /// window's, less the band at its top while a seated visitor has lowered the reading area.
    private(set) var size = Size(width: 1, height: 1)
    /// The window's size, in surface units.
    private(set) var windowSize = Size(width: 1, height: 1)
    /// A visitor lowered the reading area ("Lower" in the accessibility panel): everything the
    /// reader shows is drawn below a band at the top of the window (`lowering`).
    var isLowered = false {
        didSet { if isLowered != oldValue, hasSize { apply() } }
    }
    /// The band's height in surface units while lowered (0 when not): the part of the screen
    /// above a seated visitor's reach (above 1220 mm, `Reach`), or a third of the window where the
    /// mounting is not known or the whole screen is in reach; at most half the window.
    private(set) var lowering = 0
    /// Buffer pixels per surface unit.
    var scale = DisplayScale.one
    /// The colours pages and chrome are drawn in (`ContrastSetting` sets it).
    var contrast = Contrast.normal
    /// Whether a configure has given the size yet.
    private(set) var hasSize = false
    /// Called when the size changed (the document session keeps the reader's view across it).
    var onResize: ((Size) -> Void)?
    /// The screen's size in millimetres as its output reports it (rotation applied), if it does.
    var outputMillimetres: (width: Double, height: Double)?
    /// The screen in millimetres as last measured (`physical(_:)`, at each configure): what the
    /// chrome's sizes follow.
    var measured: PhysicalScreen?
    /// How high its bottom edge is above the floor, in millimetres (0: not known;
    /// `mount.bottom-mm`, taken at each configure).
    var mountBottom = 0.0

    /// The sizes of the chrome's text, bars and targets: from `measured` and the width, today's
    /// (`ChromeMetrics.standard`) when the millimetres are not known. Every layout of the chrome,
    /// and every hit test and focus ring on it, reads them here.
    var metrics: ChromeMetrics {
        var metrics = ChromeMetrics(physical: measured, width: width, height: Int(windowSize.height), reach: reach)
        // Measured on the whole window; below the band, the reach's top is that much nearer.
        metrics.reachTop = max(0, metrics.reachTop - lowering)
        // The chrome of a right-to-left language is mirrored (`ChromeMetrics.placed`).
        if Translation.language.isRightToLeft { metrics.mirroredWidth = width }
        return metrics
    }

    /// Which part of the screen is in reach, when its size and its mounting are known.
    var reach: Reach? { Reach(screen: measured, bottom: mountBottom) }

    /// The size in whole surface units.
    var width: Int { Int(size.width) }
    var height: Int { Int(size.height) }

    /// The size in buffer pixels.
    var pixelSize: (width: Int, height: Int) { (scale.pixels(width), scale.pixels(height)) }

    /// The screen in millimetres and the distance it is read from: the policy's size
    /// (`screen.width-mm`, `height-mm`) or the output's, and `screen.viewing-distance-mm`; nil
    /// when neither gives a size.
    func physical(_ policy: KioskConfiguration) -> PhysicalScreen? {
        let configured = (Double(policy.screenWidthMillimetres), Double(policy.screenHeightMillimetres))
        let size = configured.0 > 0 && configured.1 > 0 ? configured : outputMillimetres.map { ($0.width, $0.height) }
        guard let size else { return nil }
        return PhysicalScreen(
            width: size.0, height: size.1, viewingDistance: Double(policy.viewingDistanceMillimetres))
    }

    /// The window has a new size.
    func resize(to newSize: Size) {
        windowSize = newSize
        hasSize = true
        apply()
    }

    /// Lays out again for the window's size less the band (if lowered).
    private func apply() {
        let height = Int(windowSize.height)
        if isLowered {
            let outOfReach = reach.map { reach in
                Int((reach.outOfReach.top * Double(height) / reach.screen.height).rounded(.up))
            }
            lowering = min(height / 2, outOfReach.flatMap { $0 > 0 ? $0 : nil } ?? height / 3)
        } else {
            lowering = 0
        }
        size = Size(width: windowSize.width, height: windowSize.height - Double(lowering))
        onResize?(size)
    }
}
