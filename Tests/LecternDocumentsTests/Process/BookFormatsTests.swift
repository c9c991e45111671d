import Foundation
import LecternCore
import LecternPDF
import LecternRender
import LecternTestSupport
import Logging
import Testing

@testable import LecternDocuments

/// EPUB, FB2, CBZ and single images open in the render worker, told by their content, and show
/// their first page; a broken EPUB fails to open with a message, as a broken PDF does.
@Suite("Render worker: books, comics and images")
struct BookFormatsTests {
    static func temporaryFile(_ name: String, test: String = #function) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lectern-books-\(getpid())-\(test.prefix { $0 != "(" })")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    static func worker(_ path: String) throws -> RenderProcess {
        try RenderProcess(
            settings: .init(
                executable: try LecternProcess.lecternExecutable().path, documentPath: path, password: nil,
                startPage: 0, channels: 2, addressSpace: 2048 << 20),
            logger: Logger(label: "test"))
    }

    static let chapters = [
        GeneratedEPUB.Chapter(
            title: "The Harbour", paragraphs: ["The boats come home at dusk.", "Gulls follow them."]),
        GeneratedEPUB.Chapter(title: "The Lighthouse", paragraphs: ["Its lamp turns all night."]),
    ]

    /// Every fixture, written under a name that says nothing of its format (`.bin`).
    static func fixture(_ kind: String, test: String = #function) throws -> String {
        let path = try temporaryFile("\(kind).bin", test: test)
        switch kind {
        case "epub": try GeneratedEPUB(title: "Harbour Tales", chapters: chapters).write(to: path)
        case "fb2": try GeneratedFB2.write(title: "Harbour Tales", chapters: chapters, to: path)
        case "cbz": try GeneratedCBZ.zip(pages: 3).write(to: path)
        case "png": try GeneratedPNG(width: 160, height: 100).write(to: path)
        case "xhtml":
            try Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Notice</title></head>
                <body><h1>Opening hours</h1><p>The reading room opens at nine.</p></body></html>
                """.utf8
            ).write(to: URL(fileURLWithPath: path))
        default: Issue.record("no fixture \(kind)")
        }
        return path
    }

    /// The share of a preview's pixels that are not white.
    static func inkedFraction(_ image: RasterImage) -> Double {
        var inked = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y) & 0x00FF_FFFF != 0x00FF_FFFF { inked += 1 }
        }
        return Double(inked) / Double(image.width * image.height)
    }

    @Test(
        "each format opens in the worker by its content and its first page shows",
        arguments: [("epub", 1), ("fb2", 1), ("cbz", 3), ("png", 1), ("xhtml", 1)])
    func opensAndShowsItsFirstPage(kind: String, minimumPages: Int) throws {
        let path = try Self.fixture(kind)
        let worker = try Self.worker(path)
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        #expect(client.pageCount >= minimumPages, "\(kind): \(client.pageCount) pages")
        let size = client.firstPageInfo().displaySize
        #expect(size.width > 10 && size.height > 10, "\(kind): \(size)")
        let key = TileKey(
            page: 0, pageWidth: Int(size.width.rounded()), pageHeight: Int(size.height.rounded()), kind: .preview)
        guard case .image(let image, false)? = client.renderTile(key, cookie: RenderCookie()) else {
            Issue.record("\(kind): page 1 did not render")
            return
        }
        let inked = Self.inkedFraction(image)
        #expect(inked > 0.002, "\(kind): page 1 is not blank (\(inked) inked)")
        if kind == "png" || kind == "cbz" { #expect(inked > 0.9, "\(kind): the picture fills the page") }
        #expect(worker.status.restarts == 0)
    }

    @Test("a page's text comes back in page space, y up, inside the page, on a book as on a PDF")
    func textOfABookPage() throws {
        let worker = try Self.worker(try Self.fixture("epub"))
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        let text = try #require(client.readPageText(pages: [0])[0])
        let characters = text.characters.characters
        let words = String(String.UnicodeScalarView(characters.compactMap { Unicode.Scalar($0.scalar) }))
        #expect(words.contains("The Harbour") && words.contains("boats come home"), "\(words)")
        let page = client.firstPageInfo().mediaBox
        #expect(characters.allSatisfy { page.contains($0.rect.center) }, "inside the page")
        let heading = try #require(characters.first)  // "The Harbour"
        let body = try #require(characters.last)  // "Gulls follow them."
        #expect(heading.rect.minY > body.rect.minY, "the heading is above its paragraph (y up)")
        #expect(!text.blocks.isEmpty)
    }

    @Test("an EPUB's table of contents is its outline, and search finds its words, through the worker")
    func outlineAndSearch() throws {
        let worker = try Self.worker(try Self.fixture("epub"))
        defer { worker.stop() }
        let client = try ShownDocument.open(worker)
        let outline = try client.outline()
        #expect(outline.map(\.title) == ["The Harbour", "The Lighthouse"])
        let lighthouse = try #require(outline.last?.page, "the entry leads to a page")
        #expect(lighthouse > 0)
        let query = try #require(SearchQuery("lamp turns"))
        #expect(!client.find(query, page: lighthouse).isEmpty)
        #expect(client.find(query, page: 0).isEmpty)
    }

    @Test("a zip that says it is an EPUB but has no container fails to open with a message; the worker stays up")
    func brokenEPUB() throws {
        let path = try Self.temporaryFile("broken.epub")
        try GeneratedEPUB.withoutContainer().write(to: path)
        let worker = try Self.worker(path)
        defer { worker.stop() }
        let error = try #require(throws: PDFError.self) { try ShownDocument.open(worker) }
        #expect(error.kind == .damaged, "\(error)")
        #expect(error.message.contains(path) && error.message.contains("container"), "\(error.message)")
        #expect(worker.status.restarts == 0)
    }
}
