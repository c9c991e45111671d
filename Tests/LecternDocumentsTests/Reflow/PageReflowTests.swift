import Foundation
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging
import Testing

@testable import LecternDocuments

/// Large print laid out by the server (`DocumentRequest.reflow`), in this process and in the
/// render worker process behind its seccomp filter: the column the reader made itself before,
/// with fcft.
@Suite("Large print in the worker: the reflow request")
struct PageReflowTests {
    static let logger = Logger(label: "test")

    /// A reflow of `page` in a column `width` wide at `pixelSize`, with the renderer it is drawn
    /// with and its font file.
    static func request(
        page: Int, pixelSize: Int = 40, width: Int = 600, scale: Double = 1
    ) throws -> (
        ReflowRequest, TextRenderer, ReadOnlyFile
    ) {
        let renderer = try FontFaceTests.renderer(pixelSize: pixelSize, scale: scale)
        let font = try #require(renderer.fontFile)
        let request = ReflowRequest(
            page: page, width: width, scale: scale, font: font, metrics: renderer.metrics, rightToLeft: nil)
        return (request, renderer, try ReadOnlyFile(path: font.path))
    }

    /// The column of `page` of `fixture` as the reader laid it out itself, with fcft.
    static func columnInReader(
        _ fixture: String, page: Int, renderer: TextRenderer, width: Int
    ) throws
        -> LargePrintColumn
    {
        let document = try PDFDocument(path: DirectTransportTests.path(fixture))
        let info = try document.pageInfo(at: page)
        let geometry = try PageGeometry(mediaBox: info.mediaBox, cropBox: info.cropBox, rotation: info.rotation)
        let blocks = ReadingOrder.blocks(
            of: PageCharacters(readingOrder: try document.pageCharacters(page: page).characters),
            toDisplay: geometry.pageToDisplay)
        let links = try document.links(page: page).enumerated().flatMap { index, link in
            blocks.enumerated().compactMap { paragraph, block in
                block.characters(under: link.rect).map { (paragraph, $0, index) }
            }
        }
        let figures = PageReflow.figures(
            try PageReflow.imageAreas(of: document, page: page), blocks: blocks, toDisplay: geometry.pageToDisplay,
            width: width)
        return LargePrintColumn(
            paragraphs: blocks.map(\.text), width: width, font: renderer, metrics: renderer.metrics, links: links,
            figures: figures.map { ($0.before, $0.width, $0.height) })
    }

    @Test(
        "in process and in the render worker, a page's column is the one fcft would have made in the reader: same lines, links and pictures",
        arguments: [
            ("columns.pdf", 0, 40, 600, 1.0), ("links.pdf", 0, 32, 500, 1.0), ("contrast.pdf", 0, 24, 700, 2.0),
        ])
    func columnAsInReader(fixture: String, page: Int, pixelSize: Int, width: Int, scale: Double) throws {
        let (request, renderer, file) = try Self.request(page: page, pixelSize: pixelSize, width: width, scale: scale)
        let expected = try Self.columnInReader(fixture, page: page, renderer: renderer, width: width)
        #expect(!expected.lines.isEmpty)
        let inProcess = try DirectTransportTests.opened(fixture).reflow(request, font: file).get()
        #expect(inProcess.column == expected)
        let worker = try RenderWorkerTests.worker(fixture)
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        let reflowed = try client.reflow(request, font: file).get()
        #expect(reflowed == inProcess)
        for line in reflowed.column.lines { #expect(renderer.width(of: line.text) <= width, "\(line.text)") }
        #expect(reflowed.figureAreas.count == reflowed.column.figures.count)
        // Asked again (kept in the worker), the same.
        #expect(try client.reflow(request, font: file).get() == reflowed)
        #expect(worker.status.restarts == 0)
    }

    @Test("a font file the worker cannot read is a failure that says so, and the worker goes on answering")
    func badFont() throws {
        let (good, _, font) = try Self.request(page: 0)
        var request = good
        let notAFont = try ReadOnlyFile(path: DirectTransportTests.path("text-3pages.pdf"))
        request.font.path = notAFont.path
        let worker = try RenderWorkerTests.worker("columns.pdf")
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        for document in [client, try DirectTransportTests.opened("columns.pdf")] {
            let error = try #require(throws: PDFError.self) { try document.reflow(request, font: notAFont).get() }
            #expect(error.message.contains("cannot lay out large print of page 1: FreeType cannot open the font"))
        }
        #expect(!(try client.reflow(good, font: font).get()).column.lines.isEmpty)
        #expect(worker.status.restarts == 0)
    }
}
