import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Page links: targets, and rects in PDF user space checked against where the link text is drawn.
@Suite struct LinkTests {
    /// The link colour of kiosk/sample/make-sample.js (0.05 0.35 0.75): blue, not navy or the photo's sky.
    static func isLinkBlue(_ pixel: (UInt8, UInt8, UInt8, UInt8)) -> Bool {
        let (b, g, r, _) = pixel
        return r < 80 && g < 130 && b > 150
    }

    /// Pixels of `bitmap` that pass `test`, inside `rects` and outside all of them.
    static func count(
        in bitmap: Bitmap, rects: [PixelBox], where test: ((UInt8, UInt8, UInt8, UInt8)) -> Bool
    ) -> (inside: [Int], outside: Int) {
        var inside = [Int](repeating: 0, count: rects.count)
        var outside = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where test(bitmap.pixel(x, y)) {
                var hit = false
                for (i, r) in rects.enumerated() where x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height {
                    inside[i] += 1
                    hit = true
                }
                if !hit { outside += 1 }
            }
        }
        return (inside, outside)
    }

    /// Every link's rect, mapped through the page's geometry, covers blue link text, and no link text
    /// is drawn outside the rects.
    static func expectRectsOverLinkText(_ document: PDFDocument, page: Int, _ links: [PDFLink]) throws {
        let info = try document.pageInfo(at: page)
        let scale = 2.0
        let bitmap = try Bitmap.renderPage(document, page: page, scale: scale)
        let rects = links.map { TextBlockTests.displayRect($0.rect, info, scale: scale) }
        let (inside, outside) = count(in: bitmap, rects: rects, where: isLinkBlue)
        for (link, pixels) in zip(links, inside) {
            #expect(pixels > 300, "no link text under \(link)")
        }
        #expect(outside == 0)
    }

    @Test func sampleLinksPage() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let links = try document.links(page: 5)
        #expect(
            links.map(\.target) == [
                .page(0), .page(2), .page(3), .page(6), .uri("https://mupdf.com"),
                .uri("https://github.com/cage-kiosk/cage"),
            ])
        // make-sample.js linkText: a rect from x - 2, baseline - 0.35 size, 1.35 size high (15 pt text at x 56).
        for link in links {
            #expect(abs(link.rect.minX - 54) < 0.01)
            #expect(abs(link.rect.height - 20.25) < 0.01)
            #expect(link.rect.width > 100 && link.rect.maxX < 595 - 56)
        }
        // The internal links are lines 28 pt apart, from the top of the page down.
        for (upper, lower) in zip(links[0..<3], links[1..<4]) {
            #expect(abs(upper.rect.minY - lower.rect.minY - 28) < 0.01)
        }
        #expect(links[0].rect.maxY < 842 - 140 && links[5].rect.minY > 48)
        // Each rect lies over the text blocks of its line.
        let blocks = try document.textBlocks(page: 5)
        for link in links {
            let middle = (link.rect.minY + link.rect.maxY) / 2
            #expect(blocks.contains { $0.minY < middle && $0.maxY > middle && $0.minX < link.rect.minX + 5 })
        }
        try Self.expectRectsOverLinkText(document, page: 5, links)
    }

    @Test func sampleCoverTableOfContents() throws {
        let document = try PDFDocument(path: Fixture.sample)
        let links = try document.links(page: 0)
        #expect(links.map(\.target) == (1...6).map { .page($0) })
        // Lines 26 pt apart at x 84 (rect from 82); the last, Hebrew, line's rect starts 0.75 pt lower.
        #expect(links.allSatisfy { abs($0.rect.minX - 82) < 0.01 })
        for (upper, lower) in zip(links.dropLast(), links.dropFirst()) {
            let step = lower.target == .page(6) ? 26.75 : 26
            #expect(abs(upper.rect.minY - lower.rect.minY - step) < 0.01)
        }
        try Self.expectRectsOverLinkText(document, page: 0, links)
    }

    @Test func sampleOtherPages() throws {
        let document = try PDFDocument(path: Fixture.sample)
        // The Hebrew page's "back to the first page" and the last page's button.
        #expect(try document.links(page: 7).map(\.target) == [.page(0)])
        let end = try #require(try document.links(page: 8).first)
        #expect(end.target == .page(0))
        #expect(end.rect.height == 48)
        // Pages without links, among them the /Rotate 90 page (make-sample.js gives it none).
        for index in [1, 2, 3, 4, 6] {
            #expect(try document.links(page: index) == [])
        }
        #expect(try document.pageInfo(at: 4).rotation == 90)
    }

    @Test func rotatedPageLinksAreInUnrotatedUserSpace() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("rotated-links.pdf").path
        try LinkPDF.write(to: path)
        let document = try PDFDocument(path: path)
        let info = try document.pageInfo(at: 0)
        #expect(info.rotation == 90)
        let links = try document.links(page: 0)
        // Links to a missing named destination or past the last page are left out.
        #expect(
            links == [
                PDFLink(rect: Rect(corner: Point(x: 20, y: 200), corner: Point(x: 120, y: 230)), target: .page(1)),
                PDFLink(
                    rect: Rect(corner: Point(x: 30, y: 40), corner: Point(x: 90, y: 60)),
                    target: .uri("https://example.org/a?b=c")),
            ])
        // Mapped with /Rotate, each rect covers the black box drawn under it, and nothing else is drawn.
        let bitmap = try Bitmap.renderPage(document, page: 0, scale: 1)
        #expect(bitmap.width == 300 && bitmap.height == 200)
        let rects = links.map { TextBlockTests.displayRect($0.rect, info, scale: 1) }
        #expect(rects[0].width < rects[0].height)  // wide in user space, tall once turned
        let (inside, outside) = Self.count(in: bitmap, rects: rects) { $0.0 < 128 && $0.1 < 128 && $0.2 < 128 }
        #expect(inside[0] >= 100 * 30 && inside[1] >= 60 * 20)
        #expect(outside == 0)
        #expect(try document.links(page: 1) == [])
    }

    @Test func errors() throws {
        let document = try PDFDocument(path: Fixture.path("damaged-page.pdf"))
        // Page 2's content is garbage; its links are read without running it.
        #expect(try document.links(page: 1) == [])
        for index in [-1, 3] {
            let error = try #require(throws: PDFError.self) { try document.links(page: index) }
            #expect(error.kind == .pageOutOfRange)
        }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("rotated-links.pdf").path
        try LinkPDF.write(to: path)
        let broken = try PDFDocument(path: path)
        let error = try #require(throws: PDFError.self) { try broken.links(page: 2) }
        #expect(error.kind == .damaged)
        // The document is still usable afterwards.
        #expect(try broken.links(page: 0).count == 2)
    }
}

/// A small hand-written PDF: page 1 (200 x 300, /Rotate 90) has two black boxes with a link over each
/// (to page 2, and a URI) and two links that do not resolve; page 2 has none; page 3 is counted in
/// /Count but missing from /Kids, so it cannot be loaded.
enum LinkPDF {
    static func write(to path: String) throws {
        let content = "0 0 0 rg 20 200 100 30 re f 30 40 60 20 re f"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] /Rotate 90 /Contents 5 0 R"
                + " /Annots [6 0 R 7 0 R 8 0 R 9 0 R] >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /Type /Annot /Subtype /Link /Rect [20 200 120 230] /Border [0 0 0] /A << /S /GoTo /D [4 0 R /Fit] >> >>",
            "<< /Type /Annot /Subtype /Link /Rect [90 60 30 40] /A << /S /URI /URI (https://example.org/a?b=c) >> >>",
            "<< /Type /Annot /Subtype /Link /Rect [10 10 20 20] /Dest (nowhere) >>",
            "<< /Type /Annot /Subtype /Link /Rect [10 30 20 40] /Dest [99 /Fit] >>",
        ]
        var pdf = "%PDF-1.7\n"
        var offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(i + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = pdf.utf8.count
        pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { pdf += String(format: "%010d 00000 n \n", offset) }
        pdf += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        try pdf.write(toFile: path, atomically: true, encoding: .ascii)
    }
}
