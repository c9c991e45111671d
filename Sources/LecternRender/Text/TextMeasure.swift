/// What lines are measured and broken with: a font that shapes a run of text into glyph
/// advances. fcft's `TextRenderer` draws with one; the render worker measures large print with
/// `FontFace` (FreeType and HarfBuzz on the same font file, as fcft shapes), so that the lines it
/// breaks are those the reader would have broken.
public protocol TextMeasure {
    /// Buffer pixels per surface unit: advances are in pixels, widths in surface units.
    var scale: Double { get }

    /// Shapes `scalars` as one run and calls `body` with each glyph's advance (pixels) and its
    /// cluster (the index in `scalars` of the first character it draws), in drawing order.
    /// Returns the run's advance in pixels.
    func forEachAdvance(_ scalars: [UInt32], _ body: (_ advance: Int, _ cluster: Int) -> Void) -> Int
}

/// A font's size and metrics, in surface units.
public struct FontMetrics: Equatable, Hashable, Sendable {
    public var pixelSize: Int
    /// The height of a capital H as drawn.
    public var capitalHeight: Int
    public var ascent: Int
    public var lineHeight: Int

    public init(pixelSize: Int, capitalHeight: Int, ascent: Int, lineHeight: Int) {
        self.pixelSize = pixelSize
        self.capitalHeight = capitalHeight
        self.ascent = ascent
        self.lineHeight = lineHeight
    }
}

extension TextMeasure {
    /// Pixels in surface units.
    func units(_ pixels: Int) -> Int { scale == 1 ? pixels : Int((Double(pixels) / scale).rounded()) }

    /// The advance width of `text` in surface units.
    public func width(of text: String) -> Int {
        var pen = 0
        for piece in VisualOrder.pieces(text.unicodeScalars.map(\.value)) { pen += forEachAdvance(piece) { _, _ in } }
        return units(pen)
    }

    /// Breaks `text` into lines no wider than `maxWidth`, at most `maxLines` of them. Lines break
    /// at spaces and after hyphens where they can; a word too long for a line of its own is
    /// broken after punctuation in it (`_`, `.`, …: file names), else between any two
    /// characters. When the text needs more lines than `maxLines`, the last one ends with "…".
    ///
    /// Lines are pieces of the text in its own (logical) order, put in the order they are drawn
    /// in when they are: a right-to-left title's lines read from the right, its "…" at the left.
    public func wrap(_ text: String, maxWidth: Int, maxLines: Int = .max) -> [String] {
        guard maxLines > 0 else { return [] }
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for (number, paragraph) in paragraphs.enumerated() {
            let line = LineFitter(self, Array(paragraph), maxWidth: maxWidth)
            var start = line.nextStart(after: 0)
            repeat {
                if lines.count == maxLines - 1 {
                    lines.append(line.ellipsized(from: start, always: number < paragraphs.count - 1))
                    return lines
                }
                let end = line.end(from: start)
                lines.append(line.text(start, end))
                start = line.nextStart(after: end)
            } while start < line.characters.count
        }
        return lines
    }
}

/// Where the lines of one paragraph break: its characters, the width of each of their
/// prefixes estimated from one shaped run, and the width checked by shaping the line picked
/// (letters join differently where a line is cut: Arabic).
private struct LineFitter<Measure: TextMeasure> {
    let renderer: Measure
    let characters: [Character]
    let maxWidth: Int
    /// `prefixWidths[k]`: the advance of the first k characters, in pixels.
    let prefixWidths: [Int]

    init(_ renderer: Measure, _ characters: [Character], maxWidth: Int) {
        self.renderer = renderer
        self.characters = characters
        self.maxWidth = maxWidth
        var scalars: [UInt32] = [], character: [Int] = []
        for (index, c) in characters.enumerated() {
            for scalar in c.unicodeScalars {
                scalars.append(scalar.value)
                character.append(index)
            }
        }
        // Each glyph's advance counts for the character its cluster starts in.
        var widths = [Int](repeating: 0, count: characters.count + 1)
        _ = renderer.forEachAdvance(scalars) { advance, cluster in
            if character.indices.contains(cluster) { widths[character[cluster] + 1] += advance }
        }
        for k in widths.indices.dropFirst() { widths[k] += widths[k - 1] }
        prefixWidths = widths
    }

    /// The characters from `start` to `end`, without the spaces at the end.
    func text(_ start: Int, _ end: Int) -> String { String(characters[start..<trimmed(start, end)]) }

    /// `end` moved back over spaces (not before `start`).
    private func trimmed(_ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start, characters[end - 1].isWhitespace { end -= 1 }
        return end
    }

    /// The first character that is not a space at or after `index`.
    func nextStart(after index: Int) -> Int {
        characters[index...].firstIndex { !$0.isWhitespace } ?? characters.count
    }

    /// Where the line starting at `start` ends (after its last character): the last break
    /// that fits, by the order of preference in `wrap`; at least one character.
    func end(from start: Int) -> Int {
        let count = characters.count
        guard start < count else { return count }
        let inside = Array(start + 1..<count)
        let words = inside.filter { characters[$0].isWhitespace || characters[$0 - 1] == "-" } + [count]
        if let end = lastFitting(words, from: start) { return end }
        let punctuation = inside.filter { Self.breaksAfter(characters[$0 - 1]) }
        if let end = lastFitting(punctuation, from: start) { return end }
        return lastFitting(inside, from: start) ?? start + 1
    }

    /// The rest of the paragraph from `start` as the last line: as it is if it fits (and
    /// `always` is false), else as much of it as fits with "…" after it.
    func ellipsized(from start: Int, always: Bool) -> String {
        let count = characters.count
        if !always, lastFitting([count], from: start) != nil { return text(start, count) }
        let suffix = renderer.forEachAdvance([ellipsis.value]) { _, _ in }
        let ends = Array(start...(always ? count : max(start, count - 1)))
        guard let end = lastFitting(ends, from: start, suffix: suffix) else { return "" }
        return text(start, end) + String(ellipsis)
    }

    /// The last of `ends` (ascending) whose line from `start` (with "…" after it when
    /// `suffix`, its width, is not 0) fits: found by the estimates, confirmed by shaping.
    private func lastFitting(_ ends: [Int], from start: Int, suffix: Int = 0) -> Int? {
        func estimate(_ end: Int) -> Int {
            renderer.units(prefixWidths[trimmed(start, end)] - prefixWidths[start] + suffix)
        }
        // The first end whose estimate does not fit (the estimates grow with the end).
        var low = 0, high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if estimate(ends[middle]) <= maxWidth { low = middle + 1 } else { high = middle }
        }
        for index in stride(from: low - 1, through: 0, by: -1) {
            let line = text(start, ends[index]) + (suffix == 0 ? "" : String(ellipsis))
            if renderer.width(of: line) <= maxWidth { return ends[index] }
        }
        return nil
    }

    /// Whether a word too long for a line may break after `character`: punctuation, but not
    /// an opening bracket or quote.
    private static func breaksAfter(_ character: Character) -> Bool {
        guard character.isPunctuation, let scalar = character.unicodeScalars.first else { return false }
        let category = scalar.properties.generalCategory
        return category != .openPunctuation && category != .initialPunctuation
    }
}

/// What a line cut short ends with.
private let ellipsis: Unicode.Scalar = "\u{2026}"
