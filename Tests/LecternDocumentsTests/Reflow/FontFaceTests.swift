import Foundation
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging
import Testing

@testable import LecternDocuments

/// The worker's measure of text (`FontFace`: FreeType and HarfBuzz on the font file fcft uses)
/// against fcft's (`TextRenderer`, what the reader draws with), on the text of the fixtures.
/// Serialized, with fcft fonts of their own (`renderer`): in the whole suite's run, an fcft font
/// of the same name used by other tests' threads at once was twice measured at another size.
@Suite("Large print in the worker: the font measured as fcft measures it", .serialized)
struct FontFaceTests {
    /// fcft's font at `pixelSize` and `scale`, the same primary font as the reader's (the first
    /// family decides) but an fcft font of this test's own: the last family is in no other name.
    static func renderer(pixelSize: Int, scale: Double = 1) throws -> TextRenderer {
        try #require(
            TextRenderer(
                pixelSize: pixelSize, scale: scale, families: ["sans-serif", "DejaVu Sans", "Lectern measure alone"],
                logger: Logger(label: "test")))
    }

    /// Every paragraph of the fixtures' text in reading order, and each of its first and last
    /// words (one word, two, three…): a few hundred strings of Latin, Hebrew and Arabic text.
    static let strings: [String] = {
        let files = [
            "text-3pages.pdf", "columns.pdf", "selection.pdf", "tagged.pdf", "rtl.pdf", "links.pdf", "search.pdf",
            "contrast.pdf", "labels.pdf",
        ]
        var found: [String] = []
        for file in files {
            guard let document = try? PDFDocument(path: DirectTransportTests.path(file)) else { continue }
            for page in 0..<min(document.pageCount, 4) {
                guard let characters = try? document.pageCharacters(page: page) else { continue }
                for block in ReadingOrder.blocks(of: PageCharacters(readingOrder: characters.characters)) {
                    found.append(block.text)
                    let words = block.text.split(separator: " ")
                    for count in 1..<min(words.count, 40) {
                        found.append(words.prefix(count).joined(separator: " "))
                        found.append(words.suffix(count).joined(separator: " "))
                    }
                }
            }
        }
        return found + [
            "Ærøskøbing straße — “quoted” «guillemets» fi fl ffi", "AVATAR Tw To Ty WA; y. r. fly. sky.",
            "Привет, мир! Ελληνικά", "שלום עולם", "مرحبا بالعالم", "naïve café 1½ €100",
        ]
    }()

    /// The worker's face for the font `renderer` draws with.
    static func face(for renderer: TextRenderer) throws -> (FontFace, ReadOnlyFile) {
        let font = try #require(renderer.fontFile)
        let file = try ReadOnlyFile(path: font.path)
        let face = try FontFace(descriptor: file.descriptor, index: font.index)
        try face.setSize(font, scale: renderer.scale)
        return (face, file)
    }

    @Test(
        "every string is as wide measured in the worker as fcft measures it, and breaks into the same lines, at five sizes and two scales",
        arguments: [(12, 1.0), (17, 1.0), (24, 1.0), (36, 1.0), (53, 1.0), (24, 2.0), (41, 1.5)])
    func widthsEqualFcft(pixelSize: Int, scale: Double) throws {
        #expect(Self.strings.count > 300, "enough strings: \(Self.strings.count)")
        let renderer = try Self.renderer(pixelSize: pixelSize, scale: scale)
        let (face, file) = try Self.face(for: renderer)
        _ = file
        var differing: [String] = []
        for string in Self.strings where face.width(of: string) != renderer.width(of: string) {
            differing.append("\(string): \(face.width(of: string)) ≠ \(renderer.width(of: string))")
        }
        #expect(differing.isEmpty, "\(differing.count) of \(Self.strings.count) differ: \(differing.prefix(5))")
        for string in Self.strings where string.count > 40 {
            #expect(face.wrap(string, maxWidth: 400) == renderer.wrap(string, maxWidth: 400), "\(string)")
        }
    }

    @Test("a character the font has no glyph for counts as two em, wider than fcft draws it from a fallback font")
    func missingGlyphs() throws {
        let renderer = try Self.renderer(pixelSize: 20)
        let (face, file) = try Self.face(for: renderer)
        _ = file
        #expect(face.width(of: "日本語") == 3 * 40)
        #expect(face.width(of: "日本語") >= renderer.width(of: "日本語"))
        #expect(face.width(of: "a日") == face.width(of: "a") + 40)
    }

    @Test("a file that is not a font, or no file, is a clear error")
    func notAFont() throws {
        let file = try ReadOnlyFile(path: DirectTransportTests.path("text-3pages.pdf"))
        #expect(throws: ReflowError.self) { try FontFace(descriptor: file.descriptor, index: 0) }
        #expect(throws: ReflowError.self) { try FontFace(descriptor: -1, index: 0) }
    }
}
