import Foundation
import LecternCore
import LecternPDF
import LecternRender
import Logging
import Synchronization
import Testing

@testable import LecternDocuments

/// The document service in this process: the client, the codec and the server the worker runs,
/// joined by the direct transport.
@Suite("Document service in process: the direct transport")
struct DirectTransportTests {
    static func path(_ fixture: String) -> String { RenderWorkerTests.fixtures.appendingPathComponent(fixture).path }

    static func transport(_ fixture: String, password: String? = nil) -> DirectTransport {
        DirectTransport(documentPath: path(fixture), password: password, startPage: 0, logger: Logger(label: "test"))
    }

    /// The client of a server in this process for `fixture`, opened.
    static func opened(_ fixture: String) throws -> ShownDocument { try ShownDocument.open(transport(fixture)) }

    static func pixels(_ content: TileContent?) -> [UInt8]? {
        guard case .image(let image, _)? = content else { return nil }
        return Array(UnsafeRawBufferPointer(start: image.pixels, count: image.stride * image.height))
    }

    @Test("it opens a document: what the server says of it is what the document says")
    func opens() throws {
        let document = try PDFDocument(path: Self.path("labels.pdf"))
        let client = try Self.opened("labels.pdf")
        #expect(client.summary == (try DocumentSummary(document)))
        #expect(client.path == Self.path("labels.pdf"))
        #expect(client.pageCount == document.pageCount)
        #expect(client.label(forPage: 0) == document.labels?.label(forPage: 0))
        let estimate = try PageGeometry(size: Size(width: 1, height: 1))
        let sizes = try #require(client.readPageSizes(differingFrom: estimate, cookie: RenderCookie()))
        #expect(sizes.pageCount == document.pageCount)
        #expect(sizes.updates.count == document.pageCount, "every page differs from a 1-point square")
        #expect(sizes.failures == 0)
    }

    @Test("a tile drawn through it has the pixels of the same tile drawn by TileContent.render")
    func tilesMatch() throws {
        let document = try PDFDocument(path: Self.path("text-3pages.pdf"))
        let client = try Self.opened("text-3pages.pdf")
        let size = try document.pageInfo(at: 1).pixelSize(scale: 4)
        for kind in [TileKey.Kind.tile(column: 1, row: 2), .preview] {
            let key = TileKey(page: 1, pageWidth: size.width, pageHeight: size.height, kind: kind)
            let theirs = try #require(Self.pixels(client.renderTile(key, cookie: RenderCookie())), "\(key)")
            #expect(theirs == Self.pixels(TileContent.render(key, of: document)), "\(key)")
        }
    }

    @Test("page text and search answer as the document does")
    func textAndSearch() throws {
        let document = try PDFDocument(path: Self.path("search.pdf"))
        let client = try Self.opened("search.pdf")
        let text = try #require(client.readPageText(pages: [0])[0])
        #expect(text.blocks == (try document.textBlocks(page: 0)))
        #expect(text.characters.characters == (try document.pageCharacters(page: 0)).characters)
        #expect(!text.characters.characters.isEmpty)
        let query = try #require(SearchQuery("harbour   café"))
        let hits = client.find(query, page: 0)
        #expect(!hits.isEmpty)
        #expect(hits == (try document.search(query, page: 0)))
        let missing = try #require(client.readPageText(pages: [99])[99])
        #expect(missing.blocks.isEmpty && missing.characters.characters.isEmpty, "a page that is not there has no text")
    }

    @Test("an edit shows in the tiles drawn after it, and a save writes it")
    func editAndSave() throws {
        let document = try PDFDocument(path: Self.path("annotations.pdf"))
        let name = try #require(try document.annotations(page: 0).annotations.first { $0.field?.name == "name" })
        let client = try Self.opened("annotations.pdf")
        let size = try document.pageInfo(at: 0).pixelSize(scale: 1.5)
        let key = TileKey(page: 0, pageWidth: size.width, pageHeight: size.height, kind: .preview)
        let before = try #require(Self.pixels(client.renderTile(key, cookie: RenderCookie())))
        let edit = DocumentEdit.fieldValue("Grace Hopper", objectNumber: name.objectNumber, page: 0)
        #expect(try client.apply(edit).get() == "Grace Hopper")
        let edited = try #require(Self.pixels(client.renderTile(key, cookie: RenderCookie())))
        #expect(edited != before, "the field's new value is drawn")
        try edit.apply(to: document)
        #expect(edited == Self.pixels(TileContent.render(key, of: document)))
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID()).pdf").path
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try client.saveIncrementally(to: copy)
        let saved = try PDFDocument(path: copy).annotations(page: 0).annotations.first { $0.field?.name == "name" }
        #expect(saved?.field?.value == "Grace Hopper")
    }

    @Test(
        "a file that does not open fails with its error's kind, and so does every request",
        arguments: [("not-a-pdf.pdf", PDFError.Kind.notAPDF), ("encrypted.pdf", .passwordRequired)])
    func brokenFile(fixture: String, kind: PDFError.Kind) throws {
        let transport = Self.transport(fixture)
        let error = try #require(throws: PDFError.self) { try ShownDocument.open(transport) }
        #expect(error.kind == kind)
        #expect(error.path == Self.path(fixture))
        let key = TileKey(page: 0, pageWidth: 100, pageHeight: 100, kind: .preview)
        let request = ShownDocument.encode(.render(key, stride: 400, ownMemory: true))
        let memory = try transport.tileMemory(size: SharedTileBuffer.pixelOffset + 400 * 100)
        let outcome = transport.exchange(request, page: 0, cookie: RenderCookie(), memory: memory) { answer, _ in
            ShownDocument.decode(answer)
        }
        guard case .answered(.failed(let reason)) = outcome else {
            Issue.record("a tile of \(fixture) was answered: \(outcome)")
            return
        }
        #expect(reason == error.description)
    }

    @Test("several threads render at once, each tile as drawn alone")
    func concurrentRenders() throws {
        let document = try PDFDocument(path: Self.path("colors-8pages.pdf"))
        let client = try Self.opened("colors-8pages.pdf")
        let size = try document.pageInfo(at: 0).pixelSize(scale: 1)
        let keys = (0..<8).map { TileKey(page: $0, pageWidth: size.width, pageHeight: size.height, kind: .preview) }
        let drawn = Mutex<[Int: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: keys.count * 2) { index in
            let key = keys[index % keys.count]
            // Text read meanwhile, as the reader's text caller does.
            if index % 3 == 0 { _ = client.readPageText(pages: [key.page]) }
            guard let pixels = Self.pixels(client.renderTile(key, cookie: RenderCookie())) else { return }
            drawn.withLock { $0[index] = pixels }
        }
        let results = drawn.withLock { $0 }
        #expect(results.count == keys.count * 2, "every render drew")
        for (index, pixels) in results {
            #expect(pixels == Self.pixels(TileContent.render(keys[index % keys.count], of: document)), "\(index)")
        }
    }

    @Test("a render cancelled from another thread ends without a tile")
    func cancelledRender() throws {
        let document = try PDFDocument(path: Self.path("text-3pages.pdf"))
        let client = try Self.opened("text-3pages.pdf")
        let size = try document.pageInfo(at: 0).pixelSize(scale: 2)
        let key = TileKey(page: 0, pageWidth: size.width, pageHeight: size.height, kind: .preview)
        let cookie = RenderCookie()
        // A real thread: the cooperative pool may be busy with other tests on two cores.
        let cancelled = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(2_000)
            cookie.cancel()
            cancelled.signal()
        }
        var drewNothing = false
        for _ in 0..<2_000 where client.renderTile(key, cookie: cookie) == nil {
            drewNothing = true
            break
        }
        cancelled.wait()
        #expect(drewNothing, "a render gave no tile once cancelled")
        #expect(client.renderTile(key, cookie: cookie) == nil, "nor does one asked with the cancelled cookie")
        #expect(client.renderTile(key, cookie: RenderCookie()) != nil, "a new cookie draws")
    }
}
