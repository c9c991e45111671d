import Foundation

/// A PNG of one colour with a darker band across its middle (so a render of it is not blank and
/// its orientation shows), written with stored deflate blocks.
public struct GeneratedPNG: Sendable {
    public var width: Int
    public var height: Int
    /// The colour, red, green, blue.
    public var colour: (UInt8, UInt8, UInt8)

    public init(width: Int, height: Int, colour: (UInt8, UInt8, UInt8) = (200, 60, 40)) {
        self.width = width
        self.height = height
        self.colour = colour
    }

    public var bytes: [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)  // no filter
            let band = y >= height * 2 / 5 && y < height * 3 / 5
            for _ in 0..<width {
                raw += band ? [colour.0 / 3, colour.1 / 3, colour.2 / 3] : [colour.0, colour.1, colour.2]
            }
        }
        // zlib: header, stored blocks of at most 65,535 bytes, Adler-32.
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, raw.count - start)
            zlib.append(start + count == raw.count ? 1 : 0)
            zlib += le16(UInt16(count)) + le16(~UInt16(count))
            zlib += raw[start..<start + count]
            start += count
        } while start < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        zlib += be32(b << 16 | a)
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body))
        }
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    public func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// An EPUB 3 (with an EPUB 2 NCX for readers that want one) of `chapters`, each a heading and its
/// paragraphs, with a table of contents naming the chapters by their headings.
public struct GeneratedEPUB: Sendable {
    public struct Chapter: Sendable {
        public var title: String
        public var paragraphs: [String]

        public init(title: String, paragraphs: [String]) {
            self.title = title
            self.paragraphs = paragraphs
        }
    }

    public var title: String
    public var chapters: [Chapter]
    /// `page-progression-direction="rtl"` on the spine (a book bound on the right).
    public var isRightToLeft = false
    public var language = "en"

    public init(title: String, chapters: [Chapter], isRightToLeft: Bool = false) {
        self.title = title
        self.chapters = chapters
        self.isRightToLeft = isRightToLeft
    }

    /// A book of `chapters` chapters of `paragraphs` paragraphs each; every sentence names its
    /// chapter and paragraph ("Sentence 3 of chapter 2 …"), so a test can tell where it is.
    public static func numbered(chapters: Int, paragraphs: Int, title: String = "A Generated Book") -> GeneratedEPUB {
        GeneratedEPUB(
            title: title,
            chapters: (1...chapters).map { chapter in
                Chapter(
                    title: "Chapter \(chapter)",
                    paragraphs: (1...paragraphs).map { paragraph in
                        "Sentence \(paragraph) of chapter \(chapter) tells of the harbour, the lighthouse and the "
                            + "boats that come home at dusk, when the lamps are lit along the quay."
                    })
            })
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    public var zip: StoredZip {
        var zip = StoredZip()
        zip.add("mimetype", "application/epub+zip")
        zip.add(
            "META-INF/container.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
            </container>
            """)
        let items = chapters.indices.map {
            "<item id=\"c\($0 + 1)\" href=\"chapter\($0 + 1).xhtml\" media-type=\"application/xhtml+xml\"/>"
        }
        let spine = chapters.indices.map { "<itemref idref=\"c\($0 + 1)\"/>" }
        zip.add(
            "OEBPS/content.opf",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="id">lectern-generated</dc:identifier>
            <dc:title>\(Self.escaped(title))</dc:title><dc:language>\(language)</dc:language>
            </metadata>
            <manifest>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
            \(items.joined(separator: "\n"))
            </manifest>
            <spine toc="ncx"\(isRightToLeft ? " page-progression-direction=\"rtl\"" : "")>
            \(spine.joined(separator: "\n"))
            </spine>
            </package>
            """)
        let points = chapters.enumerated().map { index, chapter in
            "<navPoint id=\"n\(index + 1)\" playOrder=\"\(index + 1)\"><navLabel><text>\(Self.escaped(chapter.title))"
                + "</text></navLabel><content src=\"chapter\(index + 1).xhtml\"/></navPoint>"
        }
        zip.add(
            "OEBPS/toc.ncx",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
            <head><meta name="dtb:uid" content="lectern-generated"/></head>
            <docTitle><text>\(Self.escaped(title))</text></docTitle>
            <navMap>\(points.joined(separator: "\n"))</navMap>
            </ncx>
            """)
        let links = chapters.enumerated().map { index, chapter in
            "<li><a href=\"chapter\(index + 1).xhtml\">\(Self.escaped(chapter.title))</a></li>"
        }
        zip.add(
            "OEBPS/nav.xhtml",
            Self.page(title: "Contents", body: "<nav epub:type=\"toc\"><ol>\(links.joined())</ol></nav>"))
        for (index, chapter) in chapters.enumerated() {
            let body =
                "<h1>\(Self.escaped(chapter.title))</h1>\n"
                + chapter.paragraphs.map { "<p>\(Self.escaped($0))</p>" }.joined(separator: "\n")
            zip.add("OEBPS/chapter\(index + 1).xhtml", Self.page(title: chapter.title, body: body))
        }
        return zip
    }

    private static func page(title: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>\(escaped(title))</title></head>
        <body>\(body)</body>
        </html>
        """
    }

    public func write(to path: String) throws { try zip.write(to: path) }

    /// A zip that says it is an EPUB (its `mimetype`) but has no `META-INF/container.xml`.
    public static func withoutContainer() -> StoredZip {
        var zip = StoredZip()
        zip.add("mimetype", "application/epub+zip")
        zip.add("OEBPS/chapter1.xhtml", page(title: "Lost", body: "<p>No container names me.</p>"))
        return zip
    }
}

/// FictionBook 2: one section per chapter.
public enum GeneratedFB2 {
    public static func text(title: String, chapters: [GeneratedEPUB.Chapter]) -> String {
        let sections = chapters.map { chapter in
            "<section><title><p>\(chapter.title)</p></title>"
                + chapter.paragraphs.map { "<p>\($0)</p>" }.joined() + "</section>"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0">
            <description><title-info><book-title>\(title)</book-title><lang>en</lang></title-info></description>
            <body>\(sections.joined(separator: "\n"))</body>
            </FictionBook>
            """
    }

    public static func write(title: String, chapters: [GeneratedEPUB.Chapter], to path: String) throws {
        try Data(text(title: title, chapters: chapters).utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// A comic book archive: `pages` PNGs, each its own colour, named in reading order.
public enum GeneratedCBZ {
    public static let colours: [(UInt8, UInt8, UInt8)] = [(200, 60, 40), (40, 140, 60), (50, 70, 190), (190, 160, 30)]

    public static func zip(pages: Int, width: Int = 120, height: Int = 180) -> StoredZip {
        var zip = StoredZip()
        for page in 0..<pages {
            let png = GeneratedPNG(width: width, height: height, colour: colours[page % colours.count])
            zip.add(String(format: "page%03d.png", page + 1), png.bytes)
        }
        return zip
    }
}
