import LecternCore
import LecternLinux
import Testing

@testable import LecternDocuments

/// A page's text as the reader receives it from the render worker (`DocumentResponse.pageText`).
@Suite("Page text on the wire")
struct PageTextWireTests {
    @Test("a page's characters come out at the count the message gives, not grown by doubling")
    func charactersReserved() throws {
        let characters = (0..<5365).map {
            PageCharacter(
                scalar: 0x41, rect: Rect(x: Double($0 % 80), y: Double($0 / 80), width: 1, height: 1), line: $0 / 80,
                block: 0)
        }
        var writer = WireWriter()
        DocumentResponse.pageText(blocks: [], links: [], characters: characters, tagged: []).encode(into: &writer)
        var reader = WireReader(writer.bytes)
        guard case .pageText(_, _, let decoded, _) = try DocumentResponse.decode(&reader) else {
            Issue.record("not page text")
            return
        }
        #expect(decoded == characters)
        // The reader keeps this array while the page is shown (its text for selection and speech).
        #expect(decoded.capacity < characters.count + characters.count / 8, "capacity \(decoded.capacity)")
    }
}
