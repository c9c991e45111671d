import CPixman
import LecternCore

extension FrameCompositor {
    /// The font of the large print at `pixelSize` and the scene's scale (loaded again when
    /// either changes: the visitor's text size).
    func largePrintFont(pixelSize: Int) -> TextRenderer? {
        if let font = largePrintFont, font.pixelSize == pixelSize, font.scale == scale.factor { return font }
        largePrintFont = TextRenderer(pixelSize: pixelSize, scale: scale.factor, logger: logger)
        return largePrintFont
    }

    /// Paints the large print's column where `repaint` meets its area: the paper's colour, the
    /// page's pictures, the lines in the colour that reads on it, links underlined, the sentence
    /// read aloud and what a search found highlighted as on a page.
    func paintLargePrint(_ largePrint: Scene.LargePrint, repaint: Region, into target: OpaquePointer) {
        repaint.intersecting(scale.pixels(largePrint.area)).clip(target)
        fill(target, largePrint.area, palette.paper, op: PIXMAN_OP_SRC)
        let area = scale.pixels(largePrint.area)
        for figure in largePrint.figures {
            let box = scale.pixels(figure.rect)
            let rect = Rect(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
            composite(Scene.Layer(.image(figure.image), rect: rect), target: target, within: area)
        }
        guard let font = largePrintFont(pixelSize: largePrint.pixelSize) else { return }
        let paperIsDark = Int(palette.paper.red) + Int(palette.paper.green) + Int(palette.paper.blue) < 3 * 128
        let ink = paperIsDark ? palette.text : Color(rgb: 0x000000)
        for line in largePrint.lines {
            font.draw(line.text, x: line.x, baselineY: line.baseline, color: ink, into: target)
            let characters = Array(line.text)
            func span(_ range: Range<Int>) -> (x: Int, width: Int) {
                (
                    line.x + font.width(of: String(characters[..<range.lowerBound])),
                    font.width(of: String(characters[range]))
                )
            }
            for link in line.links {
                let (x, width) = span(link)
                let thickness = max(2, largePrint.pixelSize / 16)
                let rule = PixelBox(x: x, y: line.baseline + thickness, width: width, height: thickness)
                fill(target, rule, ink, op: PIXMAN_OP_SRC)
            }
            if let spoken = line.spoken {
                let (x, width) = span(spoken)
                let box = PixelBox(x: x, y: line.baseline - font.ascent, width: width, height: font.lineHeight)
                fill(target, box, palette.textSelection, op: palette.highlightOperator)
            }
            for mark in line.marks {
                let (x, width) = span(mark)
                let box = PixelBox(x: x, y: line.baseline - font.ascent, width: width, height: font.lineHeight)
                let color = mark == line.current ? palette.currentSearchHit : palette.searchHit
                fill(target, box, color, op: palette.highlightOperator)
            }
        }
        repaint.clip(target)
    }
}
