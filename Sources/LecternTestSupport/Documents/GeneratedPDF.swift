import Foundation

/// A PDF written object by object, for tests and benchmarks that need a document of a given
/// shape without a fixture file: objects are numbered from 1 in the order given, the first is
/// the catalog.
public struct GeneratedPDF {
    public var objects: [[UInt8]] = []

    public init() {}

    /// Adds `body` (what goes between `N 0 obj` and `endobj`) as the next object; its number.
    @discardableResult
    public mutating func add(_ body: String) -> Int { add(Array(body.utf8)) }

    @discardableResult
    public mutating func add(_ body: [UInt8]) -> Int {
        objects.append(body)
        return objects.count
    }

    /// A stream object: `dictionary`'s entries (without `<<`/`>>`) and its data.
    @discardableResult
    public mutating func addStream(_ entries: String, _ data: [UInt8]) -> Int {
        add(Array("<< \(entries) /Length \(data.count) >>\nstream\n".utf8) + data + Array("\nendstream".utf8))
    }

    /// The file: header, objects, cross-reference table and trailer.
    public var bytes: [UInt8] {
        var pdf = Array("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(pdf.count)
            pdf += Array("\(index + 1) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        let xref = pdf.count
        var table = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { table += String(format: "%010d 00000 n \n", offset) }
        table += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return pdf + Array(table.utf8)
    }

    public func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// The document the audit's tests read (issue 34), four A4 pages:
/// 1. a scan: one 64 × 64 grey image over the page, no text;
/// 2. slow: a tiling pattern over the page whose cell repeats every `slowStep` points (2.5 × 10^7
///    cells at 0.14: MuPDF draws them one by one, a second of a core or more at any size);
/// 3. tagged: a /Figure with /Alt and one without, a line of 12-point and one of 6-point Helvetica
///    (not embedded: substituted), a /Text annotation and a text field;
/// 4. a line of 12-point Helvetica.
/// The catalog has /MarkInfo /Marked, a /StructTreeRoot and /Lang (en-GB).
public enum AuditFixture {
    public static let pageCount = 4
    public static let scanPage = 0, slowPage = 1, taggedPage = 2, textPage = 3

    /// Writes the document to a file of its own in the temporary directory, named for `suite`
    /// and `test` (the caller's `#function`: tests run in parallel); its path.
    public static func temporary(_ suite: String, _ test: String) throws -> String {
        let name = "lectern-\(suite)-\(getpid())-\(test.prefix { $0 != "(" }).pdf"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try write(to: path)
        return path
    }

    public static func write(to path: String, slowStep: String = "0.14") throws {
        var pdf = GeneratedPDF()
        pdf.add(
            "<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> /StructTreeRoot 3 0 R /Lang (en-GB)"
                + " /AcroForm << /Fields [17 0 R] >> >>")
        pdf.add("<< /Type /Pages /Kids [6 0 R 8 0 R 11 0 R 14 0 R] /Count 4 >>")
        pdf.add("<< /Type /StructTreeRoot /K [4 0 R 5 0 R] >>")
        pdf.add("<< /Type /StructElem /S /Figure /P 3 0 R /Pg 11 0 R /K 0 /Alt (A red square) >>")  // 4
        pdf.add("<< /Type /StructElem /S /Figure /P 3 0 R /Pg 11 0 R /K 1 >>")  // 5
        let box = "/MediaBox [0 0 595 842]"
        // 6, 7: the scan.
        pdf.add("<< /Type /Page /Parent 2 0 R \(box) /Contents 7 0 R /Resources << /XObject << /Im1 18 0 R >> >> >>")
        pdf.addStream("", Array("q 595 0 0 842 0 0 cm /Im1 Do Q".utf8))
        // 8, 9, 10: the slow page.
        pdf.add(
            "<< /Type /Page /Parent 2 0 R \(box) /Contents 9 0 R /Resources << /Pattern << /P1 10 0 R >> >> >>")
        pdf.addStream("", Array("/Pattern cs /P1 scn 0 0 595 842 re f".utf8))
        pdf.addStream(
            "/Type /Pattern /PatternType 1 /PaintType 2 /TilingType 1 /BBox [0 0 1 1] /XStep \(slowStep)"
                + " /YStep \(slowStep) /Resources << >>", Array("0 0 0.5 0.5 re f".utf8))
        // 11, 12, 13: the tagged page.
        pdf.add(
            "<< /Type /Page /Parent 2 0 R \(box) /Contents 12 0 R /StructParents 0"
                + " /Resources << /Font << /F1 13 0 R >> >> /Annots [16 0 R 17 0 R] >>")
        pdf.addStream(
            "",
            Array(
                ("/Figure << /MCID 0 >> BDC 1 0 0 rg 72 600 100 100 re f EMC"
                    + " /Figure << /MCID 1 >> BDC 0 0 1 rg 300 600 100 100 re f EMC"
                    + " 0 0 0 rg BT /F1 12 Tf 72 500 Td (Two figures, one described.) Tj ET"
                    + " BT /F1 6 Tf 72 480 Td (The small print.) Tj ET").utf8))
        pdf.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")  // 13
        // 14, 15: the text page.
        pdf.add("<< /Type /Page /Parent 2 0 R \(box) /Contents 15 0 R /Resources << /Font << /F1 13 0 R >> >> >>")
        pdf.addStream("", Array("0 0 0 rg BT /F1 12 Tf 72 760 Td (A page of text.) Tj ET".utf8))
        // 16, 17: a note and a text field on the tagged page.
        pdf.add("<< /Type /Annot /Subtype /Text /Rect [500 780 520 800] /Contents (A note) >>")
        pdf.add(
            "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [72 400 300 420] /P 11 0 R /DA (/Helv 12 Tf 0 g) >>"
        )
        // 18: the scan's picture: light paper with dark bands (lines of "text" in the picture).
        let pixels = (0..<64 * 64).map { i -> UInt8 in
            let (y, x) = i.quotientAndRemainder(dividingBy: 64)
            return (y % 8 == 2 || y % 8 == 3) && (6..<58).contains(x) ? 0x30 : 0xF0
        }
        pdf.addStream(
            "/Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceGray /BitsPerComponent 8", pixels)
        try pdf.write(to: path)
    }
}
