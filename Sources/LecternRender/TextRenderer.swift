import CFcft
import CPixman
import Glibc
import Logging

/// On-screen text with fcft (fontconfig + FreeType, HarfBuzz shaping when fcft has it):
/// error messages, banners, labels. Glyphs are pixman images composited as masks.
public final class TextRenderer {
    private let fcft: CFcft_functions
    private let font: UnsafeMutablePointer<fcft_font>
    private let canShape: Bool
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

    /// Pixels in surface units.
    private func units(_ pixels: Int) -> Int { scale == 1 ? pixels : Int((Double(pixels) / scale).rounded()) }
    /// Surface units in pixels.
    private func pixels(_ units: Int) -> Int { scale == 1 ? units : Int((Double(units) * scale).rounded()) }

    /// Shapes a line and calls `body` with each glyph and its pen position. The glyphs of
    /// a shaped run live only as long as the run, so they are used inside this call only.
    private func forEachGlyph(_ text: String, _ body: (fcft_glyph, _ x: Int) -> Void) -> Int {
        let scalars = text.unicodeScalars.map { $0.value }
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
                body(glyph, pen)
                pen += Int(glyph.advance.x)
            }
            return pen
        }
        // Single glyphs are cached by fcft and stay valid while the font lives.
        for cp in scalars {
            guard let glyph = fcft.rasterize_char_utf32(font, cp, FCFT_SUBPIXEL_NONE)?.pointee else { continue }
            body(glyph, pen)
            pen += Int(glyph.advance.x)
        }
        return pen
    }

    /// The advance width of `text` in surface units.
    public func width(of text: String) -> Int {
        units(forEachGlyph(text) { _, _ in })
    }

    /// Breaks `text` into lines no wider than `maxWidth` at spaces (a long word stands alone).
    public func wrap(_ text: String, maxWidth: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if width(of: candidate) <= maxWidth || line.isEmpty {
                    line = candidate
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
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
