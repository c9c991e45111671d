import LecternCore
import LecternLinux
import LecternPDF
import LecternRender

/// Large print's columns, laid out in the render worker (`DocumentRequest.reflow`): a page's
/// text in reading order (`ReadingOrder`: the left column before the right), as paragraphs broken
/// into lines in the reader's font (`FontFace`, from the file the reader sent), the page's links
/// over their words and its pictures between its paragraphs. The last `cacheSize` answers are
/// kept, by page, width, scale and font.
///
/// Thread safe: one reflow at a time, under `lock` (the channels' threads may ask at once).
final class PageReflow: @unchecked Sendable {
    // Sendable: everything below is used under `lock`.
    private let lock = ConditionLock()
    /// The font files read so far, by path and face: read once, sized for each request.
    private var faces: [String: FontFace] = [:]
    private var columns: [ReflowRequest: ReflowedPage] = [:]
    /// The keys of `columns`, least recently used first.
    private var recent: [ReflowRequest] = []
    /// How many columns are kept.
    static let cacheSize = 8

    /// The column `request` asks for, from the cache or laid out now with the font file
    /// `descriptor` (borrowed; read only when this font was not read before).
    func answer(_ request: ReflowRequest, font descriptor: Int32, document: PDFDocument) -> DocumentResponse {
        lock.lock()
        defer { lock.unlock() }
        if let page = columns[request] {
            use(request)
            return .reflowed(page)
        }
        do throws(ReflowError) {
            let key = "\(request.font.index):\(request.font.path)"
            let face: FontFace
            if let read = faces[key] {
                face = read
            } else {
                face = try FontFace(descriptor: descriptor, index: request.font.index)
                faces[key] = face
            }
            try face.setSize(request.font, scale: request.scale)
            let page = try layOut(request, font: face, document: document)
            columns[request] = page
            use(request)
            return .reflowed(page)
        } catch {
            return .failed("cannot lay out large print of page \(request.page + 1): \(error)")
        }
    }

    /// Forgets every column (the document was edited).
    func forget() {
        lock.lock()
        columns = [:]
        recent = []
        lock.unlock()
    }

    private func use(_ request: ReflowRequest) {
        recent.removeAll { $0 == request }
        recent.append(request)
        while recent.count > Self.cacheSize { columns[recent.removeFirst()] = nil }
    }

    private func layOut(
        _ request: ReflowRequest, font: FontFace, document: PDFDocument
    ) throws(ReflowError)
        -> ReflowedPage
    {
        let page = request.page
        let characters: PageCharacters, links: [PDFLink], info: PageInfo
        do throws(PDFError) {
            characters = PageCharacters(readingOrder: try document.pageCharacters(page: page).characters)
            links = (try? document.links(page: page)) ?? []
            info = try document.pageInfo(at: page)
        } catch {
            throw ReflowError(description: error.description)
        }
        let toDisplay: AffineTransform
        do throws(DocumentViewError) {
            toDisplay = try PageGeometry(mediaBox: info.mediaBox, cropBox: info.cropBox, rotation: info.rotation)
                .pageToDisplay
        } catch {
            throw ReflowError(description: "page \(page + 1) has no size")
        }
        let blocks = ReadingOrder.blocks(of: characters, toDisplay: toDisplay, rightToLeft: request.rightToLeft)
        guard !blocks.isEmpty else { return ReflowedPage(column: .empty, figureAreas: []) }
        // Each link's words, by the index of the link on the page.
        let words = links.enumerated().flatMap { index, link in
            blocks.enumerated().compactMap { paragraph, block in
                block.characters(under: link.rect).map { (paragraph, $0, index) }
            }
        }
        let areas = (try? Self.imageAreas(of: document, page: page)) ?? []
        let figures = Self.figures(areas, blocks: blocks, toDisplay: toDisplay, width: request.width)
        let column = LargePrintColumn(
            paragraphs: blocks.map(\.text), width: request.width, font: font, metrics: request.metrics, links: words,
            figures: figures.map { ($0.before, $0.width, $0.height) })
        return ReflowedPage(column: column, figureAreas: figures.map(\.area))
    }

    /// Where `page` draws images, in the page as displayed (points from its top left).
    static func imageAreas(of document: PDFDocument, page: Int) throws(PDFError) -> [Rect] {
        // At scale 1 a pixel is a point of the page as displayed.
        let size = try document.pageInfo(at: page).displaySize
        let whole = PixelBox(x: 0, y: 0, width: Int(size.width.rounded(.up)), height: Int(size.height.rounded(.up)))
        return try document.imageAreas(page: page, scale: 1, region: whole).map {
            Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height))
        }
    }

    /// The pictures of a page (`areas`, as displayed) for a column `width` wide, in reading order:
    /// each before the first paragraph below its top in its own column, else before the first
    /// below it, else at the end; as wide as the column (narrower when that would make it more
    /// than twice as high as wide). Areas smaller than 24 points (rules, bullets) are left out.
    static func figures(
        _ areas: [Rect], blocks: [ReadingBlock], toDisplay: AffineTransform, width: Int
    )
        -> [(area: Rect, before: Int, width: Int, height: Int)]
    {
        let shown = blocks.map { toDisplay.apply(to: $0.rect) }
        return areas.filter { $0.width >= 24 && $0.height >= 24 }.map { area in
            let before =
                shown.firstIndex { $0.minY >= area.minY - 1 && $0.maxX > area.minX && $0.minX < area.maxX }
                ?? shown.firstIndex { $0.minY >= area.maxY } ?? blocks.count
            let wide = min(Double(width), 2 * Double(width) * area.width / area.height)
            return (area, before, Int(wide.rounded()), Int((wide * area.height / area.width).rounded()))
        }
    }
}
