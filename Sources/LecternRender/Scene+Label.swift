import CPixman
import LecternCore

extension Scene {
    /// Text in a box: centred lines, wrapped to the box's width, cut at its bottom.
    public struct Label: Hashable, Sendable {
        public var text: String
        public var box: PixelBox
        /// Drawn in the error colour (a document that cannot be opened).
        public var isError: Bool

        public init(_ text: String, in box: PixelBox, isError: Bool = false) {
            self.text = text
            self.box = box
            self.isError = isError
        }
    }
}

extension FrameCompositor {
    /// Draws `label`'s lines, centred across its box, as many as fit down it.
    func paint(_ label: Scene.Label, target: OpaquePointer) {
        guard let bodyFont, label.box.width > 0 else { return }
        var baseline = label.box.y + bodyFont.ascent
        for line in bodyFont.wrap(label.text, maxWidth: label.box.width) {
            guard baseline - bodyFont.ascent + bodyFont.lineHeight <= label.box.maxY else { break }
            let x = label.box.x + max(0, (label.box.width - bodyFont.width(of: line)) / 2)
            bodyFont.draw(
                line, x: x, baselineY: baseline, color: label.isError ? .errorAccent : .text, into: target)
            baseline += bodyFont.lineHeight
        }
    }
}
