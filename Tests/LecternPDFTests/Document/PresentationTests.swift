import LecternCore
import Testing

@testable import LecternPDF

/// The title, the language and the presentation keys (/Dur, /Trans) read through the shim, from
/// presentation-8pages.pdf (Tests/Fixtures/make-presentation-fixture).
@Suite("Title and presentation keys")
struct PresentationTests {
    static var fixture: String { Fixture.path("presentation-8pages.pdf") }

    @Test("the title comes from /Info /Title; a document without one has none")
    func title() throws {
        #expect(try PDFDocument(path: Self.fixture).title() == "Colours in motion")
        #expect(try PDFDocument(path: Fixture.path("colors-8pages.pdf")).title() == nil)
    }

    @Test("the language comes from the catalog's /Lang, as its ISO 639 code; a document without one has none")
    func language() throws {
        #expect(try PDFDocument(path: Fixture.path("columns.pdf")).language() == "en")
        #expect(try PDFDocument(path: Fixture.path("colors-8pages.pdf")).language() == nil)
    }

    @Test("each page's /Dur and /Trans, with the PDF reference's defaults")
    func presentation() throws {
        let document = try PDFDocument(path: Self.fixture)
        let pages = try (0..<8).map { index throws(PDFError) in try document.presentation(page: index) }
        #expect(pages[0] == PagePresentation(duration: 3))
        #expect(pages[1] == PagePresentation(duration: 2, transition: .init(style: .fade, duration: 1)))
        #expect(pages[2] == PagePresentation(transition: .init(style: .push, duration: 0.5, direction: 180)))
        #expect(pages[3] == PagePresentation(duration: 1.5, transition: .init(style: .glitter, duration: 1)))
        #expect(pages[4].transition?.style == .dissolve)
        #expect(pages[5].transition == .init(style: .cover, duration: 0.5, direction: 270))
        #expect(pages[6].transition == .init(style: .uncover, duration: 0.5, direction: 0))
        #expect(pages[7].transition == .init(style: .wipe, duration: 0.5, direction: 90))
        #expect(try PDFDocument(path: Fixture.path("colors-8pages.pdf")).presentation(page: 0) == PagePresentation())
        #expect(throws: PDFError.self) { try document.presentation(page: 8) }
    }
}
