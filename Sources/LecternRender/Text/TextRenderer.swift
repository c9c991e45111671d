import CFcft
import CPixman
import Glibc
import Logging

/// On-screen text with fcft (fontconfig + FreeType, HarfBuzz shaping when fcft has it):
/// error messages, banners, labels. Glyphs are pixman images composited as masks.
public final class TextRenderer: TextMeasure {
    private let fcft: CFcft_functions
    private let font: UnsafeMutablePointer<fcft_font>
    private let canShape: Bool
    /// The name fcft matched its primary font for (the first family at the size).
    let primaryName: String
    public let pixelSize: Int
    /// Buffer pixels per unit of the coordinates and metrics this renderer takes and gives:
    /// the glyphs are rasterized at `pixelSize × scale` pixels, for a sharp text on a dense
    /// screen, and placed and measured in surface units.
    public let scale: Double

    /// Loads the first font fontconfig matches for `families` at `pixelSize` (surface units),
    /// rasterized at `scale`. Returns nil (after logging) when no font is installed at all, or
    /// fcft is missing.
    public init?(
        pixelSize: Int, scale: Double = 1, families: [String] = ["sans-serif", "DejaVu Sans"], logger: Logger
    ) {
        guard let fcft = TextRenderer.library else {
            let reason = CFcft_load_error().map { String(cString: $0) } ?? "unknown error"
            logger.error("cannot load fcft (\(reason)): no text can be shown; install the libfcft4 package")
            return nil
        }
        self.fcft = fcft
        let names = families.map { "\($0):pixelsize=\(Int((Double(pixelSize) * scale).rounded()))" }
        var cNames = names.map { UnsafePointer(strdup($0)) }
        defer { cNames.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        guard let font = cNames.withUnsafeMutableBufferPointer({ fcft.from_name($0.count, $0.baseAddress!, nil) })
        else {
            logger.error(
                "no font found for \(families.joined(separator: ", ")): install a font package such as fonts-dejavu-core"
            )
            return nil
        }
        self.font = font
        primaryName = names.first ?? ""
        self.pixelSize = pixelSize
        self.scale = scale
        canShape = fcft.capabilities().rawValue & FCFT_CAPABILITY_TEXT_RUN_SHAPING.rawValue != 0
    }

    /// fcft, loaded and initialized the first time a font is asked for; nil if it cannot be loaded.
    private static let library: CFcft_functions? = {
        guard let fcft = CFcft_load()?.pointee else { return nil }
        _ = fcft.initialize(FCFT_LOG_COLORIZE_NEVER, false, FCFT_LOG_CLASS_ERROR)
        return fcft
    }()

    public var ascent: Int { units(Int(font.pointee.ascent)) }
    public var lineHeight: Int { units(Int(font.pointee.height)) }
    /// The height of a capital H as drawn, in surface units (0 when the font has no H).
    public var capitalHeight: Int {
        guard let glyph = fcft.rasterize_char_utf32(font, 0x48, FCFT_SUBPIXEL_NONE)?.pointee else { return 0 }
        return units(Int(glyph.height))
    }

    /// Surface units in pixels.
    private func pixels(_ units: Int) -> Int { scale == 1 ? units : Int((Double(units) * scale).rounded()) }

    /// Shapes `scalars` as one run and calls `body` with each glyph, its pen position and its
    /// cluster (the index in `scalars` of the first character it draws), in drawing order: left
    /// to right, so a right-to-left run (fcft guesses the direction from the text) gives its last
    /// letter first. The glyphs of a shaped run live only as long as the run, so they are used
    /// inside this call only.
    private func forEachGlyph(_ scalars: [UInt32], _ body: (fcft_glyph, _ x: Int, _ cluster: Int) -> Void) -> Int {
        guard !scalars.isEmpty else { return 0 }
        var pen = 0
        if canShape,
            let run = scalars.withUnsafeBufferPointer({
                fcft.rasterize_text_run_utf32(font, $0.count, $0.baseAddress!, FCFT_SUBPIXEL_NONE)
            })
        {
            defer { fcft.text_run_destroy(run) }
            for i in 0..<run.pointee.count {
                guard let glyph = run.pointee.glyphs[i]?.pointee else { continue }
                body(glyph, pen, Int(run.pointee.cluster[i]))
                pen += Int(glyph.advance.x)
            }
            return pen
        }
        // Single glyphs are cached by fcft and stay valid while the font lives.
        for (index, cp) in scalars.enumerated() {
            guard let glyph = fcft.rasterize_char_utf32(font, cp, FCFT_SUBPIXEL_NONE)?.pointee else { continue }
            body(glyph, pen, index)
            pen += Int(glyph.advance.x)
        }
        return pen
    }

    /// Shapes a line and calls `body` with each glyph and its pen position, left to right: a
    /// line with right-to-left letters in pieces that fcft shapes one by one (`VisualOrder`).
    private func forEachGlyph(_ text: String, _ body: (fcft_glyph, _ x: Int) -> Void) -> Int {
        var pen = 0
        for piece in VisualOrder.pieces(text.unicodeScalars.map(\.value)) {
            pen += forEachGlyph(piece) { glyph, x, _ in body(glyph, pen + x) }
        }
        return pen
    }

    public func forEachAdvance(_ scalars: [UInt32], _ body: (_ advance: Int, _ cluster: Int) -> Void) -> Int {
        forEachGlyph(scalars) { glyph, _, cluster in body(Int(glyph.advance.x), cluster) }
    }

    /// The font's size and metrics, in surface units.
    public var metrics: FontMetrics {
        FontMetrics(pixelSize: pixelSize, capitalHeight: capitalHeight, ascent: ascent, lineHeight: lineHeight)
    }

    /// Draws `text` with its baseline at `baselineY`, starting at `x` (surface units).
    func draw(_ text: String, x: Int, baselineY: Int, color: Color, into destination: OpaquePointer) {
        // The glyphs follow each other at their pixel advances: only the start is scaled.
        let left = pixels(x), baseline = pixels(baselineY)
        var pixmanColor = color.pixman
        guard let fill = pixman_image_create_solid_fill(&pixmanColor) else { return }
        defer { pixman_image_unref(fill) }
        _ = forEachGlyph(text) { glyph, penX in
            guard let pix = glyph.pix else { return }
            let gx = Int32(left + penX + Int(glyph.x))
            let gy = Int32(baseline - Int(glyph.y))
            // Colour glyphs (emoji) are composited as they are; others are masks for the colour.
            let isColor = pixman_image_get_format(pix) == PIXMAN_a8r8g8b8
            pixman_image_composite32(
                PIXMAN_OP_OVER, isColor ? pix : fill, isColor ? nil : pix, destination, 0, 0, 0, 0, gx, gy,
                glyph.width, glyph.height)
        }
    }

    deinit { fcft.destroy(font) }
}
