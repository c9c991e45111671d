import CFcft
import LecternLinux
import Logging

/// The font file fcft draws a `TextRenderer` with and how fcft loads it (fontconfig's match and
/// properties): what the render worker needs to measure text as that renderer would
/// (`FontFace`, LecternDocuments), sent with its descriptor.
public struct FontFile: Hashable, Sendable {
    public var path: String
    /// The face in the file.
    public var index: Int
    /// The size in pixels fcft sets (fontconfig's pixel size).
    public var pixelSize: Double
    /// fontconfig's rendering properties, which fcft turns into FreeType load flags: antialias,
    /// hinting, hint style (FC_HINT_*), sub-pixel order (FC_RGBA_*), embedded bitmaps, autohint.
    public var antialias: Bool
    public var hinting: Bool
    public var hintStyle: Int
    public var rgba: Int
    public var embeddedBitmap: Bool
    public var autohint: Bool

    public init(
        path: String, index: Int, pixelSize: Double, antialias: Bool = true, hinting: Bool = true, hintStyle: Int = 1,
        rgba: Int = 0, embeddedBitmap: Bool = true, autohint: Bool = false
    ) {
        self.path = path
        self.index = index
        self.pixelSize = pixelSize
        self.antialias = antialias
        self.hinting = hinting
        self.hintStyle = hintStyle
        self.rgba = rgba
        self.embeddedBitmap = embeddedBitmap
        self.autohint = autohint
    }
}

extension TextRenderer {
    /// The file of the font this renderer draws with (fcft's primary font: fontconfig's match
    /// for its first family at its size), and how fcft loads it; nil when fontconfig cannot say.
    public var fontFile: FontFile? {
        var file = CFcft_font_file()
        guard CFcft_match_font_file(primaryName, &file) == 0 else { return nil }
        let path = withUnsafeBytes(of: file.path) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        return FontFile(
            path: path, index: Int(file.index), pixelSize: file.pixel_size, antialias: file.antialias != 0,
            hinting: file.hinting != 0, hintStyle: Int(file.hint_style), rgba: Int(file.rgba),
            embeddedBitmap: file.embedded_bitmap != 0, autohint: file.autohint != 0)
    }
}

/// The font files opened for the render worker, kept open (their descriptors go with each
/// request) by path. Thread safe.
public final class OpenFontFiles: @unchecked Sendable {
    // Sendable: `opened` is used under `lock`.
    private let lock = ConditionLock()
    private var opened: [String: ReadOnlyFile] = [:]

    public init() {}

    /// The file `renderer` draws with, how fcft loads it, and the file opened; nil (after
    /// logging) when fontconfig cannot say which file it is or it cannot be opened.
    public func file(of renderer: TextRenderer, logger: Logger) -> (font: FontFile, opened: ReadOnlyFile)? {
        guard let font = renderer.fontFile else {
            logger.error("cannot find the file of the font large print is drawn with")
            return nil
        }
        lock.lock()
        defer { lock.unlock() }
        if let file = opened[font.path] { return (font, file) }
        do throws(SystemError) {
            let file = try ReadOnlyFile(path: font.path)
            opened[font.path] = file
            return (font, file)
        } catch {
            logger.error("cannot open the font file \(font.path): \(error)")
            return nil
        }
    }
}
