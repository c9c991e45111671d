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
    /// The height of a capital H as drawn, in surface units (0 when the font has no H).
    public var capitalHeight: Int {
        guard let glyph = fcft.rasterize_char_utf32(font, 0x48, FCFT_SUBPIXEL_NONE)?.pointee else { return 0 }
        return units(Int(glyph.height))
    }

    /// Pixels in surface units.
    private func units(_ pixels: Int) -> Int { scale == 1 ? pixels : Int((Double(pixels) / scale).rounded()) }
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

    /// The advance width of `text` in surface units.
    public func width(of text: String) -> Int {
        units(forEachGlyph(text) { _, _ in })
    }

    /// Breaks `text` into lines no wider than `maxWidth`, at most `maxLines` of them. Lines break
    /// at spaces and after hyphens where they can; a word too long for a line of its own is
    /// broken after punctuation in it (`_`, `.`, …: file names), else between any two
    /// characters. When the text needs more lines than `maxLines`, the last one ends with "…".
    ///
    /// Lines are pieces of the text in its own (logical) order, put in the order they are drawn
    /// in when they are: a right-to-left title's lines read from the right, its "…" at the left.
    public func wrap(_ text: String, maxWidth: Int, maxLines: Int = .max) -> [String] {
        guard maxLines > 0 else { return [] }
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for (number, paragraph) in paragraphs.enumerated() {
            let line = LineFitter(self, Array(paragraph), maxWidth: maxWidth)
            var start = line.nextStart(after: 0)
            repeat {
                if lines.count == maxLines - 1 {
                    lines.append(line.ellipsized(from: start, always: number < paragraphs.count - 1))
                    return lines
                }
                let end = line.end(from: start)
                lines.append(line.text(start, end))
                start = line.nextStart(after: end)
            } while start < line.characters.count
        }
        return lines
    }

    /// Where the lines of one paragraph break: its characters, the width of each of their
    /// prefixes estimated from one shaped run, and the width checked by shaping the line picked
    /// (letters join differently where a line is cut: Arabic).
    private struct LineFitter {
        let renderer: TextRenderer
        let characters: [Character]
        let maxWidth: Int
        /// `prefixWidths[k]`: the advance of the first k characters, in pixels.
        let prefixWidths: [Int]

        init(_ renderer: TextRenderer, _ characters: [Character], maxWidth: Int) {
            self.renderer = renderer
            self.characters = characters
            self.maxWidth = maxWidth
            var scalars: [UInt32] = [], character: [Int] = []
            for (index, c) in characters.enumerated() {
                for scalar in c.unicodeScalars {
                    scalars.append(scalar.value)
                    character.append(index)
                }
            }
            // Each glyph's advance counts for the character its cluster starts in.
            var widths = [Int](repeating: 0, count: characters.count + 1)
            _ = renderer.forEachGlyph(scalars) { glyph, _, cluster in
                if character.indices.contains(cluster) { widths[character[cluster] + 1] += Int(glyph.advance.x) }
            }
            for k in widths.indices.dropFirst() { widths[k] += widths[k - 1] }
            prefixWidths = widths
        }

        /// The characters from `start` to `end`, without the spaces at the end.
        func text(_ start: Int, _ end: Int) -> String { String(characters[start..<trimmed(start, end)]) }

        /// `end` moved back over spaces (not before `start`).
        private func trimmed(_ start: Int, _ end: Int) -> Int {
            var end = end
            while end > start, characters[end - 1].isWhitespace { end -= 1 }
            return end
        }

        /// The first character that is not a space at or after `index`.
        func nextStart(after index: Int) -> Int {
            characters[index...].firstIndex { !$0.isWhitespace } ?? characters.count
        }

        /// Where the line starting at `start` ends (after its last character): the last break
        /// that fits, by the order of preference in `wrap`; at least one character.
        func end(from start: Int) -> Int {
            let count = characters.count
            guard start < count else { return count }
            let inside = Array(start + 1..<count)
            let words = inside.filter { characters[$0].isWhitespace || characters[$0 - 1] == "-" } + [count]
            if let end = lastFitting(words, from: start) { return end }
            let punctuation = inside.filter { Self.breaksAfter(characters[$0 - 1]) }
            if let end = lastFitting(punctuation, from: start) { return end }
            return lastFitting(inside, from: start) ?? start + 1
        }

        /// The rest of the paragraph from `start` as the last line: as it is if it fits (and
        /// `always` is false), else as much of it as fits with "…" after it.
        func ellipsized(from start: Int, always: Bool) -> String {
            let count = characters.count
            if !always, lastFitting([count], from: start) != nil { return text(start, count) }
            let ellipsis = renderer.forEachGlyph([Self.ellipsis.value]) { _, _, _ in }
            let ends = Array(start...(always ? count : max(start, count - 1)))
            guard let end = lastFitting(ends, from: start, suffix: ellipsis) else { return "" }
            return text(start, end) + String(Self.ellipsis)
        }

        static let ellipsis: Unicode.Scalar = "\u{2026}"

        /// The last of `ends` (ascending) whose line from `start` (with "…" after it when
        /// `suffix`, its width, is not 0) fits: found by the estimates, confirmed by shaping.
        private func lastFitting(_ ends: [Int], from start: Int, suffix: Int = 0) -> Int? {
            func estimate(_ end: Int) -> Int {
                renderer.units(prefixWidths[trimmed(start, end)] - prefixWidths[start] + suffix)
            }
            // The first end whose estimate does not fit (the estimates grow with the end).
            var low = 0, high = ends.count
            while low < high {
                let middle = (low + high) / 2
                if estimate(ends[middle]) <= maxWidth { low = middle + 1 } else { high = middle }
            }
            for index in stride(from: low - 1, through: 0, by: -1) {
                let line = text(start, ends[index]) + (suffix == 0 ? "" : String(Self.ellipsis))
                if renderer.width(of: line) <= maxWidth { return ends[index] }
            }
            return nil
        }

        /// Whether a word too long for a line may break after `character`: punctuation, but not
        /// an opening bracket or quote.
        private static func breaksAfter(_ character: Character) -> Bool {
            guard character.isPunctuation, let scalar = character.unicodeScalars.first else { return false }
            let category = scalar.properties.generalCategory
            return category != .openPunctuation && category != .initialPunctuation
        }
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
