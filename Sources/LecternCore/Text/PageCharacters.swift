/// One character of a page's text, for selecting it.
public struct PageCharacter: Hashable, Sendable {
    /// The Unicode scalar value.
    public var scalar: UInt32
    /// Its box in page space (PDF user space of the page, like `DocumentView`'s `.page(page)`).
    public var rect: Rect
    /// The line of the page it is on (an id: equal for the characters of one line).
    public var line: Int
    /// The text block it is in (an id: equal for the lines of one block).
    public var block: Int
    /// Whether it is a right-to-left letter (Hebrew, Arabic, …: bidi class R or AL).
    public var isRightToLeft: Bool

    /// Creates a character.
    public init(scalar: UInt32, rect: Rect, line: Int, block: Int, isRightToLeft: Bool = false) {
        self.scalar = scalar
        self.rect = rect
        self.line = line
        self.block = block
        self.isRightToLeft = isRightToLeft
    }

    /// Whether it separates words (white space).
    public var isSpace: Bool {
        scalar == 0x20 || scalar == 0x09 || scalar == 0x0A || scalar == 0x0D || scalar == 0xA0
            || (scalar >= 0x2000 && scalar <= 0x200B) || scalar == 0x3000
    }
}

/// The characters of one page in reading order: blocks and lines as MuPDF's structured text
/// orders them, and within a line the order a reader reads it in.
///
/// PDF producers draw right-to-left scripts in visual order (left to right on the page), so
/// MuPDF's text of a Hebrew or Arabic line comes out reversed. `init(drawn:)` puts each line
/// in reading order with the two-level core of the Unicode bidi algorithm: the line's base
/// direction is its majority of strong letters; neutrals (spaces, punctuation) between two
/// letters of one direction take it, others take the base; runs against the base are kept
/// in their own order. Numbers inside right-to-left text stay left to right.
public struct PageCharacters: Sendable, Equatable {
    /// The characters, in reading order.
    public let characters: [PageCharacter]

    /// An empty page.
    public static let empty = PageCharacters(readingOrder: [])

    /// Characters already in reading order.
    public init(readingOrder: [PageCharacter]) {
        characters = readingOrder
    }

    /// Characters in the order the page draws them (MuPDF's structured-text order), put in
    /// reading order line by line.
    public init(drawn: [PageCharacter]) {
        var result: [PageCharacter] = []
        result.reserveCapacity(drawn.count)
        var start = 0
        while start < drawn.count {
            var end = start + 1
            while end < drawn.count, drawn[end].line == drawn[start].line { end += 1 }
            let line = drawn[start..<end]
            if line.contains(where: \.isRightToLeft) {
                result += Self.readingOrder(ofLine: Array(line))
            } else {
                result += line
            }
            start = end
        }
        characters = result
    }

    /// One line with right-to-left letters, in reading order.
    private static func readingOrder(ofLine line: [PageCharacter]) -> [PageCharacter] {
        // Visual order: left to right on the page.
        let visual = line.enumerated().sorted { a, b in
            a.element.rect.midX != b.element.rect.midX ? a.element.rect.midX < b.element.rect.midX : a.offset < b.offset
        }.map(\.element)
        let rightToLeft = visual.filter(\.isRightToLeft).count
        let leftToRight = visual.filter { !$0.isRightToLeft && Self.isStrongLeftToRight($0.scalar) }.count
        let baseIsRightToLeft = rightToLeft >= leftToRight
        // Each character's direction: strong letters their own; neutrals from their neighbours.
        var direction: [Bool?] = visual.map { character in
            if character.isRightToLeft { return true }
            if Self.isStrongLeftToRight(character.scalar) || Self.isDigit(character.scalar) { return false }
            return nil
        }
        for index in direction.indices where direction[index] == nil {
            let before = direction[..<index].last { $0 != nil } ?? nil
            let after = direction[(index + 1)...].first { $0 != nil } ?? nil
            direction[index] = before == after && before != nil ? before : baseIsRightToLeft
        }
        // Runs of one direction, in visual order.
        var runs: [[PageCharacter]] = []
        var runIsRightToLeft: [Bool] = []
        for (index, character) in visual.enumerated() {
            let isRightToLeft = direction[index] ?? baseIsRightToLeft
            if runIsRightToLeft.last == isRightToLeft {
                runs[runs.count - 1].append(character)
            } else {
                runs.append([character])
                runIsRightToLeft.append(isRightToLeft)
            }
        }
        // A right-to-left run reads from its right end; the runs follow the base direction.
        let ordered = zip(runs, runIsRightToLeft).map { run, isRightToLeft in
            isRightToLeft ? Array(run.reversed()) : run
        }
        return baseIsRightToLeft ? ordered.reversed().flatMap { $0 } : ordered.flatMap { $0 }
    }

    private static func isStrongLeftToRight(_ scalar: UInt32) -> Bool {
        guard let value = Unicode.Scalar(scalar) else { return false }
        return value.properties.isAlphabetic && !isDigit(scalar)
    }

    private static func isDigit(_ scalar: UInt32) -> Bool {
        guard let value = Unicode.Scalar(scalar) else { return false }
        return value.properties.numericType == .decimal
    }

    /// The number of characters.
    public var count: Int { characters.count }

    /// Whether the page has no text.
    public var isEmpty: Bool { characters.isEmpty }

    /// The character whose box holds `point` (page space), or nil.
    public func index(at point: Point) -> Int? {
        characters.firstIndex { $0.rect.contains(point) }
    }

    /// The character nearest `point` (page space): distance to its box, ties to the first in
    /// reading order. Nil on an empty page.
    public func nearestIndex(to point: Point) -> Int? {
        var best: (index: Int, distance: Double)?
        for (index, character) in characters.enumerated() {
            let rect = character.rect
            let dx = max(rect.minX - point.x, 0, point.x - rect.maxX)
            let dy = max(rect.minY - point.y, 0, point.y - rect.maxY)
            let distance = dx * dx + dy * dy
            if best == nil || distance < best!.distance { best = (index, distance) }
            if distance == 0 { break }
        }
        return best?.index
    }

    /// The word around character `index`: the run of non-space characters on its line (the
    /// character alone when it is a space).
    public func wordRange(around index: Int) -> ClosedRange<Int> {
        guard characters.indices.contains(index) else { return index...index }
        let line = characters[index].line
        guard !characters[index].isSpace else { return index...index }
        var lower = index
        var upper = index
        while lower > 0, characters[lower - 1].line == line, !characters[lower - 1].isSpace { lower -= 1 }
        while upper + 1 < characters.count, characters[upper + 1].line == line, !characters[upper + 1].isSpace {
            upper += 1
        }
        return lower...upper
    }

    /// The text of `range` (clamped to the page): a line feed between lines.
    public func text(in range: ClosedRange<Int>) -> String {
        let lower = max(range.lowerBound, 0)
        let upper = min(range.upperBound, characters.count - 1)
        guard lower <= upper else { return "" }
        var text = String.UnicodeScalarView()
        var previousLine: Int?
        for character in characters[lower...upper] {
            if let previousLine, previousLine != character.line { text.append("\n") }
            previousLine = character.line
            text.append(Unicode.Scalar(character.scalar) ?? "\u{FFFD}")
        }
        return String(text)
    }

    /// The boxes to highlight for `range` (clamped): one per line, the union of its characters'.
    public func highlightRects(in range: ClosedRange<Int>) -> [Rect] {
        let lower = max(range.lowerBound, 0)
        let upper = min(range.upperBound, characters.count - 1)
        guard lower <= upper else { return [] }
        var rects: [Rect] = []
        var line: Int?
        for character in characters[lower...upper] {
            if line == character.line, let last = rects.last {
                rects[rects.count - 1] = last.union(character.rect)
            } else {
                rects.append(character.rect)
                line = character.line
            }
        }
        return rects
    }
}
