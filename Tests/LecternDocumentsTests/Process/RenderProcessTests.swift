import Foundation
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import LecternTestSupport
import Logging
import Testing

@testable import LecternDocuments

@Suite("Render worker process: messages and tiles")
struct RenderWorkerTests {
    /// Tests/Fixtures (this file is in Tests/LecternDocumentsTests/Process).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func worker(_ fixture: String, channels: Int = 2) throws -> RenderProcess {
        return try RenderProcess(
            settings: .init(
                executable: try LecternProcess.lecternExecutable().path,
                documentPath: fixtures.appendingPathComponent(fixture).path, password: nil, startPage: 0,
                channels: channels, addressSpace: 2048 << 20),
            logger: Logger(label: "test"))
    }

    @Test("every request and response reads back as it was written; a cut message is an error")
    func roundTrip() throws {
        let key = TileKey(page: 3, pageWidth: 800, pageHeight: 1000, kind: .tile(column: 2, row: 1))
        let requests: [DocumentRequest] = [
            .open(
                path: "/srv/a.pdf", password: "pw", preparePage: 4, edits: [],
                limits: WorkerLimits(addressSpace: 1 << 31, renderDelayMilliseconds: 5, isFiltered: false)),
            .open(
                path: "b", password: nil, preparePage: 0,
                edits: [
                    .annotationRect(Rect(x: 1, y: 2, width: 3, height: 4), objectNumber: 5, page: 6),
                    .annotationContents("note", objectNumber: 7, page: 0), .fieldValue("v", objectNumber: 8, page: 1),
                    .toggleField(objectNumber: 9, page: 2), .readingDirection(rightToLeft: true),
                    .layout(BookLayout(width: 960, height: 540, fontSize: 13.5)),
                ], limits: WorkerLimits(addressSpace: 0)),
            .edit(.fieldValue("Grace", objectNumber: 3, page: 0)),
            .render(key, stride: 1024, ownMemory: true),
            .render(TileKey(page: 0, pageWidth: 10, pageHeight: 20, kind: .preview), stride: 40, ownMemory: false),
            .render(
                TileKey(
                    page: 1, pageWidth: 10, pageHeight: 20, kind: .tile(column: 0, row: 0),
                    contrast: Contrast(.yellowOnBlack, recolorsImages: true)), stride: 40, ownMemory: false),
            .renderBatch(TileBatch(packing: [key, TileKey(page: 4, pageWidth: 300, pageHeight: 300, kind: .preview)])),
            .pageText(page: 7),
            .search(query: "harbour café", page: 2),
            .pageTree, .pageInfos(512..<1024), .releasePageObjects, .annotations(page: 3), .outline,
            .presentation(page: 9), .save(path: "/var/lib/lectern/copy é.pdf"),
            .documentFacts, .pageFacts(page: 14_999),
            .layout(BookLayout(width: 480, height: 700.5, fontSize: 18), keepingPage: 41, throughPage: nil),
            .layout(BookLayout(width: 72, height: 72, fontSize: 6), keepingPage: -1, throughPage: 12),
            .open(
                path: "c", password: nil, preparePage: -1, edits: [],
                limits: WorkerLimits(addressSpace: 1 << 30, niceness: 10)),
            .reflow(
                ReflowRequest(
                    page: 2, width: 900, scale: 1.5,
                    font: FontFile(
                        path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", index: 0, pixelSize: 61,
                        antialias: true, hinting: false, hintStyle: 3, rgba: 1, embeddedBitmap: false, autohint: true),
                    metrics: FontMetrics(pixelSize: 41, capitalHeight: 30, ascent: 39, lineHeight: 48),
                    rightToLeft: true)),
            .reflow(
                ReflowRequest(
                    page: 0, width: 10, scale: 1, font: FontFile(path: "f", index: 1, pixelSize: 12),
                    metrics: FontMetrics(pixelSize: 12, capitalHeight: 9, ascent: 11, lineHeight: 14), rightToLeft: nil)
            ),
        ]
        let requestTags = Self.roundTrip(requests, encode: { $0.encode(into: &$1) }, decode: DocumentRequest.decode)
        #expect(requestTags == Set(DocumentRequest.Tag.allCases.map(\.rawValue)), "every request")
        let page = PageInfo(
            index: 2, mediaBox: Rect(x: 0, y: 0, width: 612, height: 792),
            cropBox: Rect(x: 10, y: 10, width: 500, height: 700),
            rotation: 90, displaySize: Size(width: 700, height: 500), label: "iii")
        let summary = DocumentSummary(
            pageCount: 15_000, isRightToLeft: true, wasRepaired: true, firstPage: page,
            labels: PageLabels(ranges: [
                .init(start: 0, style: .lowerRoman, prefix: "", first: 1),
                .init(start: 4, style: .decimal, prefix: "A-", first: 1),
            ]), title: "Harbour", language: "he", isReflowable: true)
        var unlabelled = summary
        unlabelled.labels = nil
        unlabelled.title = nil
        unlabelled.language = nil
        unlabelled.isReflowable = false
        unlabelled.firstPage.label = nil
        let responses: [DocumentResponse] = [
            .opened(summary), .opened(unlabelled),
            .openFailed(PDFError(.wrongPassword, path: "/srv/a.pdf", message: "cannot open /srv/a.pdf: wrong")),
            .pageCount(15_000), .pageInfos([page, nil, page]), .done,
            .laidOut(LaidOutBook(pageCount: 312, page: 57), firstPage: page),
            .annotations([
                AnnotationInfo(
                    objectNumber: 12, subtype: "Widget", rect: Rect(x: 1, y: 2, width: 3, height: 4),
                    flags: [.locked, .hidden], contents: "c", author: "Ada", fieldType: .comboChoice, fieldName: "f",
                    value: "Yes", options: ["Yes", "No"], maxLength: 20, isFieldReadOnly: true),
                AnnotationInfo(objectNumber: 13, subtype: "FreeText", rect: Rect(x: 0, y: 0, width: 1, height: 1)),
            ]),
            .outline([
                OutlineEntry(title: "Chapter 1", page: 0, depth: 0, isOpen: true),
                OutlineEntry(title: "Web", page: nil, depth: 1, isOpen: false),
            ]),
            .presentation(PagePresentation()),
            .reflowed(
                ReflowedPage(
                    column: LargePrintColumn(
                        lines: [
                            LargePrintColumn.Line(text: "Harbour café", top: 0, paragraph: 0, start: 0),
                            LargePrintColumn.Line(text: "שלום", top: 58, paragraph: 1, start: 3),
                        ], links: [LargePrintColumn.Link(line: 1, range: 1..<3, x: 20, width: 31, index: 2)],
                        figures: [LargePrintColumn.Figure(top: 87, width: 600, height: 300, index: 0)],
                        metrics: FontMetrics(pixelSize: 41, capitalHeight: 30, ascent: 39, lineHeight: 0),
                        lineAdvance: 58, width: 600, height: 387),
                    figureAreas: [Rect(x: 240, y: 120, width: 120, height: 80)])),
            .reflowed(ReflowedPage(column: .empty, figureAreas: [])),
            .presentation(
                PagePresentation(
                    duration: 2.5,
                    transition: PageTransition(
                        style: .wipe, duration: 0.5, direction: 90, isVertical: true, isOutward: true))),
            .documentFacts(
                DocumentFacts(
                    isTagged: true, language: "en-GB", isEncrypted: false, wasRepaired: true, claimedPageCount: 20,
                    pageCount: 8)),
            .documentFacts(
                DocumentFacts(
                    isTagged: false, language: nil, isEncrypted: true, wasRepaired: false, claimedPageCount: 1,
                    pageCount: 1)),
            .pageFacts(
                PageFacts(
                    size: Size(width: 595, height: 842), characterCount: 40, smallestTextSize: 6.5,
                    substitutedFonts: ["Helvetica", "Times-Roman"], annotationCount: 1, fieldCount: 2, figureCount: 3,
                    figuresWithoutAlt: 1)),
            .pageFacts(
                PageFacts(
                    size: Size(width: 1, height: 1), characterCount: 0, smallestTextSize: nil, substitutedFonts: [],
                    annotationCount: 0, fieldCount: 0, figureCount: 0, figuresWithoutAlt: 0)),
            .failed("no"), .drawn(.drawn(isDamaged: true)),
            .drawn(.drawn(isDamaged: false)), .drawn(.cancelled), .drawn(.failed("damaged")), .edited(nil),
            .edited("Yes"),
            .searchHits([SearchHit(rects: [Rect(x: 1, y: 2, width: 3, height: 4)]), SearchHit(rects: [])]),
            .pageText(
                blocks: [Rect(x: 1, y: 2, width: 3, height: 4.5)],
                links: [
                    PDFLink(rect: Rect(x: 0, y: 0, width: 1, height: 1), target: .page(3)),
                    PDFLink(rect: Rect(x: 5, y: 5, width: 2, height: 2), target: .uri("https://example.org/é")),
                ],
                characters: [
                    PageCharacter(
                        scalar: 0x5D0, rect: Rect(x: 1, y: 2, width: 3, height: 4), line: 7, block: 2,
                        isRightToLeft: true),
                    PageCharacter(scalar: 0x41, rect: Rect(x: 5, y: 2, width: 3, height: 4), line: 8, block: 2),
                ],
                tagged: [
                    TaggedElement(
                        kind: .figure, depth: 2, alt: "A map of the ground floor.",
                        box: Rect(x: 50, y: 600, width: 200, height: 100)),
                    TaggedElement(kind: .figure, depth: 3),
                    TaggedElement(kind: .formula, alt: "x²", language: "fr-FR"),
                    TaggedElement(
                        kind: .other, depth: 4, actualText: "kilomètres",
                        glyphs: [Rect(x: 1, y: 2, width: 3, height: 4), Rect(x: 5, y: 2, width: 3, height: 4.5)]),
                ]),
        ]
        let responseTags = Self.roundTrip(responses, encode: { $0.encode(into: &$1) }, decode: DocumentResponse.decode)
        #expect(responseTags == Set(DocumentResponse.Tag.allCases.map(\.rawValue)), "every response")
    }

    /// Writes each message and reads it back, and a cut copy of it that must not read; the tags
    /// (first bytes) written.
    static func roundTrip<Message: Equatable>(
        _ messages: [Message], encode: (Message, inout WireWriter) -> Void,
        decode: (inout WireReader) throws(WireError) -> Message
    ) -> Set<UInt8> {
        var tags: Set<UInt8> = []
        for message in messages {
            var writer = WireWriter()
            encode(message, &writer)
            tags.insert(writer.bytes[0])
            var reader = WireReader(writer.bytes)
            #expect((try? decode(&reader)) == message, "\(message)")
            var cut = WireReader(Array(writer.bytes.dropLast()))
            #expect(throws: WireError.self, "\(message) cut short") { try decode(&cut) }
        }
        return tags
    }

    @Test("a tile drawn by the worker has the pixels of the same tile drawn in process")
    func tilesMatchInProcess() throws {
        let path = Self.fixtures.appendingPathComponent("text-3pages.pdf").path
        let document = try PDFDocument(path: path)
        let worker = try Self.worker("text-3pages.pdf")
        let client = try ShownDocument.open(worker)
        defer { worker.stop() }
        let size = try document.pageInfo(at: 1).pixelSize(scale: 4)  // big enough for a grid of tiles
        for kind in [TileKey.Kind.tile(column: 0, row: 0), .tile(column: 1, row: 2), .preview] {
            let key = TileKey(page: 1, pageWidth: size.width, pageHeight: size.height, kind: kind)
            guard case .image(let mine, false)? = TileContent.render(key, of: document),
                case .image(let theirs, false)? = client.renderTile(key, cookie: RenderCookie())
            else {
                Issue.record("\(key) did not render both ways")
                continue
            }
            #expect(mine.width == theirs.width && mine.height == theirs.height)
            #expect(memcmp(mine.pixels, theirs.pixels, mine.stride * mine.height) == 0, "\(key)")
        }
        let text = try #require(client.readPageText(pages: [0])[0])
        #expect(text.blocks == (try document.textBlocks(page: 0)))
        #expect(text.characters.characters == (try document.pageCharacters(page: 0)).characters)
        #expect(!text.characters.characters.isEmpty)
        #expect(worker.status.restarts == 0 && worker.status.pid != nil)
    }

    @Test("a tagged page's structure elements come through the worker as read in process")
    func taggedElementsMatchInProcess() throws {
        let document = try PDFDocument(path: Self.fixtures.appendingPathComponent("tagged.pdf").path)
        let worker = try Self.worker("tagged.pdf")
        let client = try ShownDocument.open(worker)
        defer { worker.stop() }
        let text = try #require(client.readPageText(pages: [0])[0])
        #expect(text.tagged == (try document.taggedElements(page: 0)))
        #expect(text.tagged.first?.alt == "A map of the ground floor.")
    }

    @Test("a search in the worker finds what a search in process finds")
    func searchMatchesInProcess() throws {
        let document = try PDFDocument(path: Self.fixtures.appendingPathComponent("search.pdf").path)
        let worker = try Self.worker("search.pdf")
        let client = try ShownDocument.open(worker)
        defer { worker.stop() }
        for text in ["muller", "harbour   café"] {
            let query = try #require(SearchQuery(text))
            let mine = try document.search(query, page: 0)
            #expect(!mine.isEmpty, "\(text) is on page 1")
            #expect(client.find(query, page: 0) == mine, "\(text)")
        }
    }

    @Test("an edit applied in the worker shows in its tiles as in process, and a new worker replays it")
    func editsReachTheWorkerAndSurviveARestart() throws {
        let path = Self.fixtures.appendingPathComponent("annotations.pdf").path
        let document = try PDFDocument(path: path)
        let name = try #require(try document.annotations(page: 0).annotations.first { $0.field?.name == "name" })
        let worker = try Self.worker("annotations.pdf")
        let client = try ShownDocument.open(worker)
        defer { worker.stop() }
        let size = try document.pageInfo(at: 0).pixelSize(scale: 1.5)
        let key = TileKey(page: 0, pageWidth: size.width, pageHeight: size.height, kind: .preview)
        func pixels(_ content: TileContent?) -> [UInt8]? {
            guard case .image(let image, _)? = content else { return nil }
            return Array(UnsafeRawBufferPointer(start: image.pixels, count: image.stride * image.height))
        }
        let before = try #require(pixels(client.renderTile(key, cookie: RenderCookie())))
        let edit = DocumentEdit.fieldValue("Grace Hopper", objectNumber: name.objectNumber, page: 0)
        #expect(try client.apply(edit).get() == "Grace Hopper")
        try edit.apply(to: document)
        let edited = try #require(pixels(client.renderTile(key, cookie: RenderCookie())))
        #expect(edited != before, "the field's new value is drawn")
        #expect(edited == pixels(TileContent.render(key, of: document)), "as in process")
        let pid = try #require(worker.status.pid)
        #expect(kill(pid, SIGKILL) == 0)
        let replayed = try #require(pixels(client.renderTile(key, cookie: RenderCookie())))
        #expect(worker.status.restarts == 1)
        #expect(replayed == edited, "the new worker has the edit")
    }

    @Test(
        "a document that does not open fails to open with its kind and every request with its reason; the worker stays up"
    )
    func documentThatDoesNotOpen() throws {
        let worker = try Self.worker("not-a-pdf.pdf")
        defer { worker.stop() }
        let error = try #require(throws: PDFError.self) { try ShownDocument.open(worker) }
        #expect(error.kind == .notAPDF)
        let key = TileKey(page: 0, pageWidth: 100, pageHeight: 100, kind: .preview)
        let request = ShownDocument.encode(.render(key, stride: 400, ownMemory: false))
        let outcome = worker.exchange(request, page: 0, cookie: RenderCookie(), memory: .channel) { answer, _ in
            ShownDocument.decode(answer)
        }
        guard case .failed(let reason) = outcome else {
            Issue.record("a tile of a file that is not a PDF was answered: \(outcome)")
            return
        }
        #expect(reason.contains("not a PDF"), "\(reason)")
        #expect(worker.status.restarts == 0)
    }
}
