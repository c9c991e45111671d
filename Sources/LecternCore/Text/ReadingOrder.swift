/// A paragraph of a page's text, as a visitor reads it (speech, keypad focus, large print).
public struct ReadingBlock: Equatable, Sendable {
    /// The text: its lines joined by a space (a word hyphenated at a line's end joined again).
    public var text: String
    /// Its lines' boxes in page space, in reading order.
    public var lines: [Rect]
    /// Where each line starts in `text`, in characters.
    public var lineStarts: [Int]

    public init(text: String, lines: [Rect], lineStarts: [Int]? = nil) {
        self.text = text
        self.lines = lines
        self.lineStarts = lineStarts ?? [0]
    }

    /// The box around its lines.
    public var rect: Rect { lines.dropFirst().reduce(lines[0]) { $0.union($1) } }

    /// The characters of `text` under `rect` (page space: a link's box), whole words: on each
    /// line the box crosses over half the line's height, the share of the line's width it
    /// covers; nil when it covers none.
    public func characters(under rect: Rect) -> Range<Int>? {
        let characters = Array(text)
        var found: Range<Int>?
        for (index, line) in lines.enumerated() where line.width > 0 && index < lineStarts.count {
            let overlap = min(line.maxY, rect.maxY) - max(line.minY, rect.minY)
            guard overlap > line.height / 2, rect.maxX > line.minX, rect.minX < line.maxX else { continue }
            let start = lineStarts[index]
            let end = index + 1 < lineStarts.count ? lineStarts[index + 1] : characters.count
            func at(_ x: Double) -> Int {
                start
                    + Int(
                        ((min(max(x, line.minX), line.maxX) - line.minX) / line.width * Double(end - start)).rounded())
            }
            var from = at(rect.minX), to = at(rect.maxX)
            while from > start, !characters[from - 1].isWhitespace { from -= 1 }
            while to < end, to > 0, !characters[to - 1].isWhitespace, !characters[to].isWhitespace { to += 1 }
            while from < to, characters[from].isWhitespace { from += 1 }
            while to > from, characters[to - 1].isWhitespace { to -= 1 }
            guard from < to else { continue }
            found = found.map { min($0.lowerBound, from)..<max($0.upperBound, to) } ?? from..<to
        }
        return found
    }

    /// Its sentences (`Sentences.split`).
    public var sentences: [String] { Sentences.split(text) }

    /// Its sentences, each with the boxes of the lines it is on (to highlight the one spoken).
    public var sentencesWithLines: [(text: String, lines: [Rect])] {
        let characters = Array(text)
        var searchFrom = 0
        return sentences.map { sentence in
            let wanted = Array(sentence)
            var start = searchFrom
            while start + wanted.count <= characters.count, Array(characters[start..<start + wanted.count]) != wanted {
                start += 1
            }
            if start + wanted.count > characters.count { start = searchFrom }
            let end = start + wanted.count
            searchFrom = end
            let on = lines.indices.filter { index in
                let lineEnd = index + 1 < lineStarts.count ? lineStarts[index + 1] : characters.count
                return lineStarts[min(index, lineStarts.count - 1)] < end && lineEnd > start
            }
            return (sentence, on.map { lines[$0] })
        }
    }
}

/// The order in which a visitor reads a page's lines, which is not the order the page draws
/// them: MuPDF's structured text keeps the drawing order, and a page drawn row by row across two
/// columns comes out as blocks that hold a line of each (read in order, the columns interleave).
///
/// The lines are ordered by a recursive XY cut: the page's lines are split at the widest gap
/// that no line crosses, either a band of empty height (rows: top before bottom) or a band of
/// empty width at least a line high (columns: left before right, right before left on a
/// right-to-left page); each part is ordered the same way. Cutting at the widest gap first keeps
/// paragraph breaks that happen to be level across columns (narrow) from cutting the columns
/// into rows, while a title across the page (it crosses the column gap) stays before them.
/// Consecutive lines close below one another become a paragraph (`ReadingBlock`).
///
/// What it cannot recover: text flowing around a figure inside a column may be read as extra
/// columns; a table is read column by column; a tagged PDF's structure order (/K) is not used
/// (its figures and /ActualText are: the kiosk's `PageFigures`).
public enum ReadingOrder {
    /// The page's text in reading order, as paragraphs.
    /// - Parameters:
    ///   - toDisplay: page space to the page as displayed, y growing downwards (the page's
    ///     `PageGeometry.pageToDisplay`: PDF user space grows upwards, and /Rotate turns it);
    ///     the order is found there, the blocks keep their lines in page space.
    ///   - rightToLeft: orders columns from the right; nil takes it from the page (most
    ///     characters right-to-left letters).
    public static func blocks(
        of page: PageCharacters, toDisplay: AffineTransform = .identity, rightToLeft: Bool? = nil
    ) -> [ReadingBlock] {
        let lines = Self.lines(of: page)
        guard !lines.isEmpty else { return [] }
        let isRightToLeft =
            rightToLeft ?? (page.characters.filter(\.isRightToLeft).count * 2 > page.characters.count)
        let shown = lines.map { toDisplay.apply(to: $0.rect) }
        var blocks: [ReadingBlock] = []
        var previous: Rect?
        for index in order(shown, rightToLeft: isRightToLeft) {
            let line = lines[index]
            if let previous, let last = blocks.indices.last, continuesParagraph(previous, shown[index]) {
                let text = joined(blocks[last].text, line.text)
                blocks[last].lineStarts.append(text.count - line.text.count)
                blocks[last].text = text
                blocks[last].lines.append(line.rect)
            } else {
                blocks.append(ReadingBlock(text: line.text, lines: [line.rect]))
            }
            previous = shown[index]
        }
        return blocks
    }

    /// The indices of `boxes` (a page's lines, y growing downwards) in reading order.
    public static func order(_ boxes: [Rect], rightToLeft: Bool = false) -> [Int] {
        let heights = boxes.map(\.height).sorted()
        let columnGap = heights.isEmpty ? 0 : max(heights[heights.count / 2], 1)
        var result: [Int] = []
        result.reserveCapacity(boxes.count)
        func visit(_ items: [Int]) {
            guard items.count > 1 else { return result += items }
            let row = widestGap(items, boxes, start: \.minY, end: \.maxY)
            var column = widestGap(items, boxes, start: \.minX, end: \.maxX)
            if let gap = column, gap.width < columnGap { column = nil }
            if let column, column.width > row?.width ?? 0 {
                let (left, right) = split(items, boxes, at: column.position, by: \.midX)
                if rightToLeft {
                    visit(right)
                    visit(left)
                } else {
                    visit(left)
                    visit(right)
                }
            } else if let row {
                let (top, bottom) = split(items, boxes, at: row.position, by: \.midY)
                visit(top)
                visit(bottom)
            } else {
                // Nothing separates them (overlapping lines): top to bottom, then across.
                result += items.sorted { a, b in
                    boxes[a].minY != boxes[b].minY ? boxes[a].minY < boxes[b].minY : boxes[a].minX < boxes[b].minX
                }
            }
        }
        visit(Array(boxes.indices))
        return result
    }

    /// The widest band between `items` along one axis that none of them crosses: its middle and width.
    private static func widestGap(
        _ items: [Int], _ boxes: [Rect], start: KeyPath<Rect, Double>, end: KeyPath<Rect, Double>
    ) -> (position: Double, width: Double)? {
        let spans = items.map { (boxes[$0][keyPath: start], boxes[$0][keyPath: end]) }.sorted { $0.0 < $1.0 }
        var reach = spans[0].1
        var best: (position: Double, width: Double)?
        for (from, to) in spans.dropFirst() {
            if from > reach, from - reach > best?.width ?? 0 {
                best = ((reach + from) / 2, from - reach)
            }
            reach = max(reach, to)
        }
        return best
    }

    private static func split(
        _ items: [Int], _ boxes: [Rect], at position: Double, by centre: KeyPath<Rect, Double>
    ) -> ([Int], [Int]) {
        (
            items.filter { boxes[$0][keyPath: centre] < position },
            items.filter { boxes[$0][keyPath: centre] >= position }
        )
    }

    /// Whether `next` goes on the paragraph whose last line is `line`: just below it (less than
    /// half a line between them) and overlapping it across.
    private static func continuesParagraph(_ line: Rect, _ next: Rect) -> Bool {
        next.minY >= line.midY && next.minY - line.maxY < line.height / 2 && next.minX < line.maxX
            && next.maxX > line.minX
    }

    /// `text` and the next line's: a space between, or nothing after a hyphenated word.
    private static func joined(_ text: String, _ next: String) -> String {
        if let last = text.last, last == "-" || last == "\u{AD}", next.first?.isLowercase == true {
            return text.dropLast() + next
        }
        return text + " " + next
    }

    /// The page's lines (characters of one line id, in reading order) with their boxes.
    private static func lines(of page: PageCharacters) -> [(text: String, rect: Rect)] {
        var result: [(text: String, rect: Rect)] = []
        var scalars = String.UnicodeScalarView()
        var rect: Rect?
        var lineID: Int?
        func finish() {
            let text = String(scalars).trimmingWhitespace()
            if let rect, !text.isEmpty { result.append((text, rect)) }
            scalars = String.UnicodeScalarView()
            rect = nil
        }
        for character in page.characters {
            if character.line != lineID {
                finish()
                lineID = character.line
            }
            if let scalar = Unicode.Scalar(character.scalar) { scalars.append(scalar) }
            if !character.isSpace { rect = rect.map { $0.union(character.rect) } ?? character.rect }
        }
        finish()
        return result
    }
}

/// Splitting text into sentences, for speaking it one at a time.
public enum Sentences {
    /// Words that end with a full stop without ending a sentence.
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "prof", "e.g", "i.e", "etc", "vs", "cf", "no", "fig", "p", "pp", "vol",
        "approx", "a.m", "p.m", "z.b", "bzw", "usw", "ca", "nr", "mme", "mlle", "sr", "sra", "av",
    ]

    /// `text`'s sentences, each trimmed: a sentence ends at `.`, `!`, `?`, `…` (or `؟`, `。`),
    /// with any closing quotes or brackets, before white space, unless the word before the
    /// full stop is an abbreviation or an initial, or the word after it starts in lower case.
    public static func split(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            index += 1
            guard ".!?…؟。".contains(character) else { continue }
            while index < characters.count, "\"'”’»)]".contains(characters[index]) {
                current.append(characters[index])
                index += 1
            }
            guard index == characters.count || characters[index].isWhitespace else { continue }
            if character == ".", endsWithAbbreviation(current) || nextWordIsLowercase(characters, from: index) {
                continue
            }
            let sentence = current.trimmingWhitespace()
            if !sentence.isEmpty { sentences.append(sentence) }
            current = ""
        }
        let rest = current.trimmingWhitespace()
        if !rest.isEmpty { sentences.append(rest) }
        return sentences
    }

    /// Whether the next word after `index` (past white space) starts with a lower-case letter.
    private static func nextWordIsLowercase(_ characters: [Character], from index: Int) -> Bool {
        characters[index...].first { !$0.isWhitespace }?.isLowercase == true
    }

    /// Whether the word before the final full stop of `text` is an abbreviation or an initial.
    private static func endsWithAbbreviation(_ text: String) -> Bool {
        let word = text.dropLast().split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
        let bare = word.drop { "\"'“‘«([".contains($0) }
        if bare.count == 1, bare.first?.isUppercase == true { return true }
        return abbreviations.contains(bare.lowercased())
    }
}

extension String {
    /// Without white space at either end.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
