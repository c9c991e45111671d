import CMuPDF
import CUTF8Proc
import Glibc
import LecternCore

/// What a visitor searches for, folded once: case and accents do not count ("cafe" finds
/// "Café" and "CAFÉ", "strasse" finds "Straße"), ligatures and compatibility forms read as
/// their letters ("ﬁ" is "fi"), and any run of white space is one space.
///
/// Right-to-left text is found too. PDF files usually draw it in visual order, so MuPDF's text
/// of a Hebrew or Arabic line comes out reversed; a query with right-to-left letters is looked
/// for both as typed and reversed.
///
/// The folding is utf8proc's (NFKD, case folding, marks stripped): it replaced a table of our own.
public struct SearchQuery: Sendable, Equatable {
    /// The query as typed.
    public let text: String
    let needle: [UInt32]
    /// The needle reversed, when it holds right-to-left letters.
    let reversed: [UInt32]?

    /// Nil when `text` holds nothing to look for (only spaces or marks).
    public init?(_ text: String) {
        var folded: [UInt32] = []
        var scratch = Folding()
        for scalar in text.unicodeScalars { scratch.fold(scalar.value, into: &folded) }
        while folded.first == 0x20 { folded.removeFirst() }
        while folded.last == 0x20 { folded.removeLast() }
        guard !folded.isEmpty else { return nil }
        self.text = text
        needle = folded
        let rightToLeft = text.unicodeScalars.contains { Folding.isRightToLeft($0.value) }
        reversed = rightToLeft && folded.reversed() != folded ? folded.reversed() : nil
    }
}

/// One place a query was found on a page.
public struct SearchHit: Sendable, Equatable {
    /// Its boxes in PDF user space (unrotated, y up, like text blocks): one per line it spans.
    public var rects: [Rect]

    public init(rects: [Rect]) {
        self.rects = rects
    }
}

/// Text folded for matching: each scalar to zero or more folded scalars.
struct Folding {
    private var buffer = [utf8proc_int32_t](repeating: 0, count: 32)
    private static let options = utf8proc_option_t(
        rawValue: UTF8PROC_COMPAT.rawValue | UTF8PROC_DECOMPOSE.rawValue | UTF8PROC_CASEFOLD.rawValue
            | UTF8PROC_STRIPMARK.rawValue | UTF8PROC_IGNORE.rawValue)

    /// Appends `scalar` folded to `out`; white space becomes one space (none after another).
    mutating func fold(_ scalar: UInt32, into out: inout [UInt32]) {
        if scalar < 0x80 {
            // ASCII, most of most documents: no table lookups.
            if scalar <= 0x20 || scalar == 0x7F {
                if out.last != 0x20 { out.append(0x20) }
            } else {
                out.append(scalar >= 0x41 && scalar <= 0x5A ? scalar + 0x20 : scalar)
            }
            return
        }
        if Self.isSpace(scalar) {
            if out.last != 0x20 { out.append(0x20) }
            return
        }
        var boundary: utf8proc_int32_t = 0
        let count = buffer.withUnsafeMutableBufferPointer {
            utf8proc_decompose_char(
                utf8proc_int32_t(bitPattern: scalar), $0.baseAddress, $0.count, Self.options, &boundary)
        }
        guard count >= 0, count <= buffer.count else {
            out.append(scalar)  // unassigned or too long: as it is
            return
        }
        for index in 0..<count { out.append(UInt32(bitPattern: buffer[index])) }
    }

    static func isSpace(_ scalar: UInt32) -> Bool {
        guard let property = utf8proc_get_property(utf8proc_int32_t(bitPattern: scalar)) else { return false }
        let category = Int(property.pointee.category)
        return category == Int(UTF8PROC_CATEGORY_ZS.rawValue) || category == Int(UTF8PROC_CATEGORY_ZL.rawValue)
            || category == Int(UTF8PROC_CATEGORY_ZP.rawValue)
    }

    /// Whether `scalar` is a right-to-left letter (Hebrew, Arabic, …).
    static func isRightToLeft(_ scalar: UInt32) -> Bool {
        guard scalar >= 0x590, let property = utf8proc_get_property(utf8proc_int32_t(bitPattern: scalar)) else {
            return false
        }
        let bidi = Int(property.pointee.bidi_class)
        return bidi == Int(UTF8PROC_BIDI_CLASS_R.rawValue) || bidi == Int(UTF8PROC_BIDI_CLASS_AL.rawValue)
    }
}

extension PDFDocument {
    /// Where `query` is on page `index`, in the order MuPDF's text has the page. Loads the page
    /// and reads its text under the document lock (a millisecond or two for a page of text),
    /// without caching its display list: searching every page does not push the pages on screen
    /// out of the cache. Any thread.
    ///
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the page content cannot be read.
    /// Corresponding C function: `CMuPDF_page_text_chars` (`fz_new_stext_page_from_page`).
    public func search(_ query: SearchQuery, page index: Int) throws(PDFError) -> [SearchHit] {
        try checkIndex(index)
        var error = CMuPDF_error()
        var chars: UnsafeMutablePointer<CMuPDF_text_char>?
        var count: Int32 = 0
        guard CMuPDF_page_text_chars(handle, Int32(index), &chars, &count, &error) == 0 else {
            throw PDFError(
                .damaged, path: path,
                message: "cannot search page \(index + 1) of \(path): the page is damaged (MuPDF: \(error.text))")
        }
        defer { free(chars) }
        guard let chars, count > 0 else { return [] }
        return Self.search(query, in: UnsafeBufferPointer(start: chars, count: Int(count)))
    }

    /// The hits of `query` among a page's characters.
    static func search(_ query: SearchQuery, in chars: UnsafeBufferPointer<CMuPDF_text_char>) -> [SearchHit] {
        // The page folded, and for each folded scalar the character it came from.
        var folded: [UInt32] = []
        var origin: [Int32] = []
        folded.reserveCapacity(chars.count + 16)
        origin.reserveCapacity(chars.count + 16)
        var folding = Folding()
        for (index, char) in chars.enumerated() {
            // A new line is a space between words (MuPDF does not always end a line with one).
            if char.flags & Int32(CMUPDF_TEXT_LINE_START.rawValue) != 0, folded.last != 0x20, !folded.isEmpty {
                folded.append(0x20)
                origin.append(Int32(index))
            }
            let before = folded.count
            folding.fold(UInt32(bitPattern: char.c), into: &folded)
            for _ in before..<folded.count { origin.append(Int32(index)) }
        }
        var hits: [(start: Int, hit: SearchHit)] = []
        for needle in [query.needle, query.reversed].compactMap({ $0 }) {
            for start in matches(of: needle, in: folded) {
                let first = Int(origin[start]), last = Int(origin[start + needle.count - 1])
                hits.append((first, SearchHit(rects: rects(chars, from: min(first, last), to: max(first, last)))))
            }
        }
        return hits.sorted { $0.start < $1.start }.map(\.hit)
    }

    /// Where `needle` starts in `haystack`, without overlaps.
    private static func matches(of needle: [UInt32], in haystack: [UInt32]) -> [Int] {
        guard let first = needle.first, haystack.count >= needle.count else { return [] }
        var found: [Int] = []
        var index = 0
        let end = haystack.count - needle.count
        while index <= end {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                found.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The boxes of characters `first...last`, one per line.
    private static func rects(_ chars: UnsafeBufferPointer<CMuPDF_text_char>, from first: Int, to last: Int) -> [Rect] {
        var rects: [Rect] = []
        for index in first...last {
            let rect = Rect(corners: chars[index].box)
            let startsLine = chars[index].flags & Int32(CMUPDF_TEXT_LINE_START.rawValue) != 0
            if let previous = rects.last, !startsLine || index == first {
                rects[rects.count - 1] = previous.union(rect)
            } else {
                rects.append(rect)
            }
        }
        return rects
    }
}
