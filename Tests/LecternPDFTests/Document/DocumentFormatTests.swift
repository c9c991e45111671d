import LecternTestSupport
import Testing

@testable import LecternPDF

/// A file's format is told by its first bytes, whatever its name.
@Suite struct DocumentFormatTests {
    @Test func eachFormatIsToldByItsFirstBytes() {
        let epub = GeneratedEPUB(title: "T", chapters: [.init(title: "One", paragraphs: ["A."])]).zip.bytes
        let cases: [([UInt8], DocumentFormat?)] = [
            (Array("%PDF-1.7\n".utf8), .pdf),
            (Array("junk before the header %PDF-1.4".utf8), .pdf),
            (epub, .zip),
            (GeneratedCBZ.zip(pages: 1).bytes, .zip),
            (GeneratedPNG(width: 2, height: 2).bytes, .png),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], .jpeg),
            (Array("II*\0".utf8) + [8, 0, 0, 0], .tiff),
            (Array("\u{FEFF}\n  <?xml version=\"1.0\"?><FictionBook xmlns=\"x\">".utf8), .fictionBook),
            (Array("<?xml version=\"1.0\"?>\n<HTML xmlns=\"http://www.w3.org/1999/xhtml\">".utf8), .xhtml),
            (Array("<!DOCTYPE html><p>hi".utf8), .xhtml),
            (Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
            (Array("This is a plain text file, not a PDF.".utf8), nil),
            (Array("<note>xml of no kind we show</note>".utf8), nil),
            ([], nil),
        ]
        for (bytes, format) in cases {
            #expect(DocumentFormat.sniff(bytes) == format, "\(String(decoding: bytes.prefix(24), as: UTF8.self))")
        }
        #expect(DocumentFormat.allCases.filter(\.isPDF) == [.pdf])
    }
}
