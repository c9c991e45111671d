import LecternCore
import LecternPolicy
import LecternRender

/// The screen the reader's window fills: its size in surface units (the window's last
/// configure), its scale (buffer pixels per unit, at which tiles are rendered) and the contrast
/// it shows in (the colours tiles are rendered in, and the chrome's palette). Its one
/// owner: `KioskApp` makes it, the frame presenter sets it from the window, and every part that
/// lays something out reads it here (it used to be a property of the document session).
final class Screen {
    /// The size the reader lays out for, in surface units (1 × 1 until the first configure).
    private(set) var size = Size(width: 1, height: 1)
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
        ChromeMetrics(physical: measured, width: width, height: height, reach: reach)
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
        size = newSize
        hasSize = true
        onResize?(newSize)
    }
}
