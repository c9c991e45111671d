import CPixman
import LecternCore

extension Scene {
    /// Text in a box: centred lines, wrapped to the box's width, as many as fit down it (at most
    /// `maxLines`), the last one ending with "…" when the text needs more.
    public struct Label: Hashable, Sendable {
        public var text: String
        public var box: PixelBox
        /// Drawn in the error colour (a document that cannot be opened).
        public var isError: Bool
        public var maxLines: Int

        public init(_ text: String, in box: PixelBox, isError: Bool = false, maxLines: Int = .max) {
            self.text = text
            self.box = box
            self.isError = isError
            self.maxLines = maxLines
        }
    }
}

extension FrameCompositor {
    /// Draws `label`'s lines, centred across its box, where `repaint` meets the box: nothing is
    /// drawn outside the box, so the damage of a label that moves or goes (its box) covers
    /// everything it drew.
    func paint(_ label: Scene.Label, repaint: Region, target: OpaquePointer) {
        guard let bodyFont, label.box.width > 0 else { return }
        let clip = repaint.intersecting(scale.enclosingPixels(label.box))
        guard !clip.isEmpty else { return }
        clip.clip(target)
        let fitting = label.box.height / max(1, bodyFont.lineHeight)
        let key = LabelLinesKey(text: label.text, width: label.box.width, maxLines: min(label.maxLines, fitting))
        let lines =
            labelLines[key]
            ?? {
                let lines = bodyFont.wrap(key.text, maxWidth: key.width, maxLines: key.maxLines).map {
                    (text: $0, width: bodyFont.width(of: $0))
                }
                if labelLines.count >= Self.labelLinesKept { labelLines.removeAll() }
                labelLines[key] = lines
                return lines
            }()
        var baseline = label.box.y + bodyFont.ascent
        for line in lines {
            let x = label.box.x + max(0, (label.box.width - line.width) / 2)
            bodyFont.draw(
                line.text, x: x, baselineY: baseline, color: label.isError ? palette.errorAccent : palette.text,
                into: target)
            baseline += bodyFont.lineHeight
        }
    }

    /// How many labels' lines `labelLines` keeps (a shelf's screenful, many times over).
    static let labelLinesKept = 256
}

/// What a label's lines depend on, besides the font.
struct LabelLinesKey: Hashable {
    var text: String
    var width: Int
    var maxLines: Int
}
