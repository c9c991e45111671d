import LecternCore
import LecternLinux
import LecternRender

/// What the reader asks the render worker to lay out for large print (`DocumentRequest.reflow`):
/// a page's text in reading order, broken into lines of one column in the font the reader draws
/// it with. The font file's descriptor goes with the request (the worker cannot open files).
public struct ReflowRequest: Sendable, Equatable, Hashable {
    public var page: Int
    /// The column's width, in surface units.
    public var width: Int
    /// Buffer pixels per surface unit (the font's pixels are `metrics.pixelSize × scale`).
    public var scale: Double
    /// The font's file, as fcft loads it for the reader.
    public var font: FontFile
    /// The font's size and metrics as the reader's fcft gives them (surface units).
    public var metrics: FontMetrics
    /// `ReadingOrder.blocks`' `rightToLeft`: true for a right-to-left page binding, else nil.
    public var rightToLeft: Bool?

    public init(page: Int, width: Int, scale: Double, font: FontFile, metrics: FontMetrics, rightToLeft: Bool?) {
        self.page = page
        self.width = width
        self.scale = scale
        self.font = font
        self.metrics = metrics
        self.rightToLeft = rightToLeft
    }

    func encode(into writer: inout WireWriter) {
        for value in [page, width, metrics.pixelSize, metrics.capitalHeight, metrics.ascent, metrics.lineHeight] {
            writer.put(value)
        }
        writer.put(scale)
        writer.put(rightToLeft.map { $0 ? 1 : 0 } ?? -1)
        writer.put(font.path)
        writer.put(font.index)
        writer.put(font.pixelSize)
        for flag in [font.antialias, font.hinting, font.embeddedBitmap, font.autohint] { writer.put(flag) }
        writer.put(font.hintStyle)
        writer.put(font.rgba)
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> ReflowRequest {
        let page = try reader.int(), width = try reader.int()
        let metrics = FontMetrics(
            pixelSize: try reader.int(), capitalHeight: try reader.int(), ascent: try reader.int(),
            lineHeight: try reader.int())
        let scale = try reader.double(), direction = try reader.int()
        let path = try reader.string(), index = try reader.int(), pixelSize = try reader.double()
        let antialias = try reader.bool(), hinting = try reader.bool(), embeddedBitmap = try reader.bool()
        let autohint = try reader.bool()
        let font = FontFile(
            path: path, index: index, pixelSize: pixelSize, antialias: antialias, hinting: hinting,
            hintStyle: try reader.int(), rgba: try reader.int(), embeddedBitmap: embeddedBitmap, autohint: autohint)
        return ReflowRequest(
            page: page, width: width, scale: scale, font: font, metrics: metrics,
            rightToLeft: direction < 0 ? nil : direction == 1)
    }
}

/// The worker's answer to a reflow: the page's column, and where each of its figures is on the
/// page as displayed (points from its top left), by the figure's index, for the reader to draw.
public struct ReflowedPage: Sendable, Equatable {
    public var column: LargePrintColumn
    public var figureAreas: [Rect]

    public init(column: LargePrintColumn, figureAreas: [Rect]) {
        self.column = column
        self.figureAreas = figureAreas
    }

    func encode(into writer: inout WireWriter) {
        for value in [
            column.pixelSize, column.capitalHeight, column.ascent, column.lineAdvance, column.width, column.height,
        ] { writer.put(value) }
        writer.put(column.lines.count)
        for line in column.lines {
            writer.put(line.text)
            writer.put(line.top)
            writer.put(line.paragraph)
            writer.put(line.start)
        }
        writer.put(column.links.count)
        for link in column.links {
            for value in [link.line, link.range.lowerBound, link.range.count, link.x, link.width, link.index] {
                writer.put(value)
            }
        }
        writer.put(column.figures.count)
        for figure in column.figures {
            for value in [figure.top, figure.width, figure.height, figure.index] { writer.put(value) }
        }
        writer.put(figureAreas.count)
        for area in figureAreas { writer.put(area) }
    }

    static func decode(_ reader: inout WireReader) throws(WireError) -> ReflowedPage {
        let metrics = FontMetrics(
            pixelSize: try reader.int(), capitalHeight: try reader.int(), ascent: try reader.int(), lineHeight: 0)
        let lineAdvance = try reader.int(), width = try reader.int(), height = try reader.int()
        var lines: [LargePrintColumn.Line] = []
        for _ in 0..<(try reader.count()) {
            lines.append(
                LargePrintColumn.Line(
                    text: try reader.string(), top: try reader.int(), paragraph: try reader.int(),
                    start: try reader.int()))
        }
        var links: [LargePrintColumn.Link] = []
        for _ in 0..<(try reader.count()) {
            let line = try reader.int(), start = try reader.int(), count = try reader.count()
            guard lines.indices.contains(line) else { throw WireError("a link on no line") }
            links.append(
                LargePrintColumn.Link(
                    line: line, range: start..<start + count, x: try reader.int(), width: try reader.int(),
                    index: try reader.int()))
        }
        var figures: [LargePrintColumn.Figure] = []
        for _ in 0..<(try reader.count()) {
            figures.append(
                LargePrintColumn.Figure(
                    top: try reader.int(), width: try reader.int(), height: try reader.int(), index: try reader.int()))
        }
        var areas: [Rect] = []
        for _ in 0..<(try reader.count()) { areas.append(try reader.rect()) }
        let column = LargePrintColumn(
            lines: lines, links: links, figures: figures, metrics: metrics, lineAdvance: lineAdvance, width: width,
            height: height)
        return ReflowedPage(column: column, figureAreas: areas)
    }
}
