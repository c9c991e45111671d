import LecternCore
import Testing

@testable import LecternPDF

/// Reading order on a real page: columns.pdf (Tests/Fixtures/make-reading-order-fixtures) draws
/// its two columns row by row (page 1) and right column first (page 2); MuPDF's blocks follow
/// the drawing, `ReadingOrder` reads the columns whole, left first.
@Suite struct PageReadingOrderTests {
    static let path = Fixture.path("columns.pdf")

    static func sentences(page: Int) throws -> (order: [String], mupdf: [String]) {
        let document = try PDFDocument(path: path)
        let info = try document.pageInfo(at: page)
        let geometry = try PageGeometry(mediaBox: info.mediaBox, cropBox: info.cropBox, rotation: info.rotation)
        let characters = try document.pageCharacters(page: page)
        let blocks = ReadingOrder.blocks(of: characters, toDisplay: geometry.pageToDisplay)
        // What MuPDF's own order gives: its characters' text, cut at its line breaks.
        let drawn = characters.text(in: 0...(characters.count - 1)).split(separator: "\n").map(String.init)
        return (blocks.flatMap(\.sentences), drawn)
    }

    @Test func twoColumnsDrawnRowByRow() throws {
        let (order, mupdf) = try Self.sentences(page: 0)
        #expect(
            order == [
                "Visiting the city museum today", "The museum opens at nine.", "Tickets are sold at the door.",
                "Children enter for free.", "Guided tours start every hour.", "The garden is behind the hall.",
                "Please do not touch the paintings.", "The cafe serves hot soup.", "Lockers are near the stairs.",
                "Dogs must stay outside.", "The shop sells old maps.", "Photos are allowed without flash.",
                "The last entry is at five.", "Printed by the friends of the museum.",
            ])
        #expect(mupdf[1] == "The museum opens at nine." && mupdf[2] == "The cafe serves hot soup.", "MuPDF interleaves")
    }

    @Test func rightColumnDrawnFirstAndAShortTitle() throws {
        let (order, mupdf) = try Self.sentences(page: 1)
        #expect(
            order == [
                "Opening hours", "The museum opens at nine in the morning.", "Please book a tour in advance.",
                "Children under twelve enter for free.",
                "The garden cafe closes at five.", "Music plays in the yard.", "The roof terrace has a view.",
            ])
        #expect(mupdf[1] == "The garden cafe closes at five.", "MuPDF reads the column drawn first first")
    }
}
