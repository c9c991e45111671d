import CMuPDF
import Glibc

/// The page labels of a document (/Root /PageLabels): "Cover", "i", "ii", "1", "A-1", …
///
/// A value read once when the document opens; `label(forPage:)` is a binary search, so asking for
/// every label of a 15,000-page document is cheap. Pages before the first range have no label.
public struct PageLabels: Sendable, Equatable {
    /// How the number part of a label is written (/S).
    public enum Style: Int, Sendable, Equatable {
        /// No number: the label is the prefix alone.
        case none
        case decimal
        case upperRoman
        case lowerRoman
        case upperLetters
        case lowerLetters
    }

    /// From page `start` on: `prefix` then the number `first + (page - start)` in `style`.
    public struct Range: Sendable, Equatable {
        public var start: Int
        public var style: Style
        public var prefix: String
        public var first: Int

        public init(start: Int, style: Style, prefix: String, first: Int) {
            self.start = start
            self.style = style
            self.prefix = prefix
            self.first = first
        }
    }

    /// Sorted by `start`; a later range with the same start replaces an earlier one.
    public let ranges: [Range]

    public init(ranges: [Range]) {
        var sorted: [Range] = []
        let ordered = ranges.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
        for range in ordered.map(\.element) {
            if sorted.last?.start == range.start { sorted.removeLast() }
            sorted.append(range)
        }
        self.ranges = sorted
    }

    /// The label of page `index` (0-based), or nil when no range covers it.
    public func label(forPage index: Int) -> String? {
        // The last range whose start is <= index.
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].start <= index { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let range = ranges[low - 1]
        let (number, overflow) = range.first.addingReportingOverflow(index - range.start)
        return range.prefix + (overflow ? "" : Self.format(number, range.style))
    }

    /// The first page (0-based) of a document of `pageCount` pages whose label is `text`: an
    /// exact match first, then one ignoring case ("IV" finds "iv"). O(ranges): each range is asked
    /// whether `text` is its prefix followed by a number it writes, never page by page.
    public func page(forLabel text: String, pageCount: Int) -> Int? {
        for ignoringCase in [false, true] {
            for (index, range) in ranges.enumerated() where range.start < pageCount {
                let end = index + 1 < ranges.count ? min(ranges[index + 1].start, pageCount) : pageCount
                if let page = Self.page(of: text, in: range, end: end, ignoringCase: ignoringCase) { return page }
            }
        }
        return nil
    }

    /// The page of `range` (which runs to `end`) labelled `text`, if any.
    private static func page(of text: String, in range: Range, end: Int, ignoringCase: Bool) -> Int? {
        func same(_ a: Substring, _ b: String) -> Bool { ignoringCase ? a.lowercased() == b.lowercased() : a == b }
        let text = Substring(text)
        guard text.count >= range.prefix.count, same(text.prefix(range.prefix.count), range.prefix) else {
            return nil
        }
        let rest = text.dropFirst(range.prefix.count)
        if range.style == .none { return rest.isEmpty && range.start < end ? range.start : nil }
        guard let number = number(in: rest, style: range.style), same(rest, format(number, range.style)) else {
            return nil
        }
        let (offset, overflow) = number.subtractingReportingOverflow(range.first)
        guard !overflow, offset >= 0, offset < end - range.start else { return nil }
        return range.start + offset
    }

    /// The number `text` would be in `style`, if it reads as one (checked against `format` by
    /// the caller: "IIII" reads as 4 but is not how 4 is written).
    private static func number(in text: Substring, style: Style) -> Int? {
        guard !text.isEmpty, text.count <= 40 else { return nil }
        switch style {
        case .none:
            return nil
        case .decimal:
            return text.allSatisfy(\.isASCII) ? Int(text) : nil
        case .upperRoman, .lowerRoman:
            let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
            var total = 0
            let digits = text.uppercased().compactMap { values[$0] }
            guard digits.count == text.count else { return nil }
            for (i, value) in digits.enumerated() {
                total += i + 1 < digits.count && digits[i + 1] > value ? -value : value
            }
            return total > 0 ? total : nil
        case .upperLetters, .lowerLetters:
            guard let letter = text.uppercased().first, let ascii = letter.asciiValue, letter.isLetter,
                text.uppercased().allSatisfy({ $0 == letter })
            else { return nil }
            return (text.count - 1) * 26 + Int(ascii - UInt8(ascii: "A")) + 1
        }
    }

    /// `number` (>= 1) written in `style`.
    static func format(_ number: Int, _ style: Style) -> String {
        switch style {
        case .none: return ""
        case .decimal: return String(number)
        case .upperRoman: return roman(number)
        case .lowerRoman: return roman(number).lowercased()
        case .upperLetters: return letters(number)
        case .lowerLetters: return letters(number).lowercased()
        }
    }

    /// I, II, …, MCMXCIX; thousands as repeated M. Beyond 100,000 (no real document) decimal.
    private static func roman(_ number: Int) -> String {
        guard number >= 1, number <= 100_000 else { return String(number) }
        let values: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var rest = number
        var out = ""
        for (value, digits) in values {
            while rest >= value {
                out += digits
                rest -= value
            }
        }
        return out
    }

    /// A…Z, then AA…ZZ, AAA… (PDF 32000-1, 12.4.2: the letter repeated). Beyond 26,000 decimal.
    private static func letters(_ number: Int) -> String {
        guard number >= 1, number <= 26_000 else { return String(number) }
        let letter = Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8((number - 1) % 26)))
        return String(repeating: letter, count: (number - 1) / 26 + 1)
    }
}

extension PageLabels {
    /// Reads /PageLabels through the shim. nil when the document has none; a broken tree is logged
    /// and gives no labels (never a failed open).
    /// Corresponding C function: `CMuPDF_document_page_labels`.
    static func read(from handle: OpaquePointer, path: String) -> PageLabels? {
        var error = CMuPDF_error()
        var pointer: UnsafeMutablePointer<CMuPDF_page_label_range>?
        var count: Int32 = 0
        guard CMuPDF_document_page_labels(handle, &pointer, &count, &error) == 0 else {
            MuPDFLog.logger.warning("\(path): ignoring its page labels: \(error.text)")
            return nil
        }
        guard let pointer, count > 0 else { return nil }
        defer { free(pointer) }
        let ranges = UnsafeBufferPointer(start: pointer, count: Int(count)).map { entry in
            var entry = entry
            let prefix =
                entry.has_prefix != 0
                ? withUnsafeBytes(of: &entry.prefix) { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    return String(decoding: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
                } : ""
            let style: Style =
                switch UInt8(truncatingIfNeeded: entry.style) {
                case UInt8(ascii: "D"): .decimal
                case UInt8(ascii: "R"): .upperRoman
                case UInt8(ascii: "r"): .lowerRoman
                case UInt8(ascii: "A"): .upperLetters
                case UInt8(ascii: "a"): .lowerLetters
                default: .none
                }
            return Range(start: Int(entry.start), style: style, prefix: prefix, first: Int(entry.first))
        }
        return PageLabels(ranges: ranges)
    }
}
