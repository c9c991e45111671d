import CFontShaping
import LecternRender

/// Why a column cannot be laid out in the worker (no font, a font FreeType cannot read).
struct ReflowError: Error, CustomStringConvertible {
    var description: String
}

/// A font file measured as fcft measures it for the reader (`TextRenderer`): the same file,
/// size and load flags, shaped by HarfBuzz in the parts fcft shapes (Sources/CFontShaping). Its
/// widths equal fcft's (`FontFaceTests`), except for characters the file has no glyph for: fcft
/// draws those from a fallback font this process does not have, so each counts as two em, more
/// than any fallback glyph is wide, and a line that holds them stays inside the column.
///
/// Not thread safe: `PageReflow` uses it under its lock.
final class FontFace: TextMeasure {
    /// Owned (CFontShaping_close in deinit).
    private let face: OpaquePointer
    private(set) var scale = 1.0
    /// The advance of a character the file has no glyph for, in pixels: two em.
    private var missingAdvance: Int32 = 0
    /// The size and file it is set to (`setSize(_:scale:)`).
    private var size: (pixels: Double, flags: Int32)?

    /// Reads the font file `descriptor` (borrowed: not closed, its offset left alone) and opens its
    /// face `index`.
    init(descriptor: Int32, index: Int) throws(ReflowError) {
        var message = [CChar](repeating: 0, count: 256)
        guard descriptor >= 0 else { throw ReflowError(description: "no font file came with the request") }
        guard let face = CFontShaping_open(descriptor, Int32(index), &message, message.count) else {
            throw ReflowError(description: message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        self.face = face
    }

    /// Sizes the face as fcft sizes `file` (its pixel size, its load flags), its widths given in
    /// units of `scale` pixels.
    func setSize(_ file: FontFile, scale: Double) throws(ReflowError) {
        let flags = CFontShaping_load_flags(
            file.antialias ? 1 : 0, file.hinting ? 1 : 0, Int32(file.hintStyle), Int32(file.rgba),
            file.embeddedBitmap ? 1 : 0, file.autohint ? 1 : 0)
        self.scale = scale
        guard size.map({ $0 != (file.pixelSize, flags) }) ?? true else { return }
        let status = CFontShaping_set_size(face, file.pixelSize, flags)
        guard status == 0 else {
            size = nil
            throw ReflowError(description: "FreeType cannot size the font at \(file.pixelSize) px (error \(status))")
        }
        size = (file.pixelSize, flags)
        missingAdvance = Int32((2 * file.pixelSize).rounded(.up))
    }

    func forEachAdvance(_ scalars: [UInt32], _ body: (_ advance: Int, _ cluster: Int) -> Void) -> Int {
        guard !scalars.isEmpty else { return 0 }
        // HarfBuzz may give more glyphs than characters (a decomposed letter), rarely many more.
        let capacity = scalars.count * 4 + 16
        var advances = [Int32](repeating: 0, count: capacity), clusters = [UInt32](repeating: 0, count: capacity)
        let count = CFontShaping_shape(face, scalars, scalars.count, &advances, &clusters, capacity, missingAdvance)
        var pen = 0
        for index in 0..<count {
            body(Int(advances[index]), Int(clusters[index]))
            pen += Int(advances[index])
        }
        return pen
    }

    deinit { CFontShaping_close(face) }
}
