import CUTF8Proc

/// The pieces of a line of text to shape, in the order they are drawn, left to right.
///
/// fcft shapes each run of one script with HarfBuzz (a Hebrew or Arabic word comes out right to
/// left, its letters joined) but places the runs left to right in the order of the text: it
/// knows no paragraph direction. So the words of a right-to-left title came out in reverse
/// order, and the "…" that ends a cut one at its right. `pieces` puts them in order with the
/// core of the Unicode bidi algorithm (UAX #9, without explicit embeddings): the line's
/// direction is its first strong letter's; numbers take their separators; neutrals (spaces,
/// punctuation) between two letters of one direction take it (numbers count as right to left
/// there), others take the line's; levels, then runs reversed from the highest level down.
/// A left-to-right run is one piece; a right-to-left run is cut into its words (fcft shapes
/// one word as one run, from the right) and its other characters, mirrored when they have a
/// mirror image (brackets), and placed last first.
enum VisualOrder {
    /// `scalars` (one line, in logical order) as the pieces to shape, left to right.
    static func pieces(_ scalars: [UInt32]) -> [[UInt32]] {
        var kinds = scalars.map(kind)
        guard kinds.contains(.rightToLeft) else { return [scalars] }
        // Marks take the kind of the character they mark (W1).
        for index in kinds.indices where kinds[index] == .mark {
            kinds[index] = index > 0 ? kinds[index - 1] : .neutral
        }
        resolveNumberSeparators(scalars, &kinds)
        let base = kinds.first { $0 == .leftToRight || $0 == .rightToLeft } ?? .leftToRight
        resolveNeutrals(&kinds, base: base)
        // Implicit levels (I1, I2).
        let levels = kinds.map { kind -> Int in
            switch (base, kind) {
            case (.rightToLeft, .rightToLeft): 1
            case (.rightToLeft, _): 2
            case (_, .rightToLeft): 1
            case (_, .number): 2
            default: 0
            }
        }
        // Runs of one level, in logical order.
        var runs: [(range: Range<Int>, level: Int)] = []
        for index in levels.indices {
            if let last = runs.last, last.level == levels[index] {
                runs[runs.count - 1].range = last.range.lowerBound..<index + 1
            } else {
                runs.append((index..<index + 1, levels[index]))
            }
        }
        // L2: from the highest level down to 1, reverse every stretch of runs at that level or higher.
        var order = Array(runs.indices)
        for level in stride(from: levels.max() ?? 0, through: 1, by: -1) {
            var start = 0
            while start < order.count {
                guard runs[order[start]].level >= level else {
                    start += 1
                    continue
                }
                var end = start
                while end < order.count, runs[order[end]].level >= level { end += 1 }
                order[start..<end].reverse()
                start = end
            }
        }
        return order.flatMap { run -> [[UInt32]] in
            let (range, level) = runs[run]
            guard level % 2 == 1 else { return [Array(scalars[range])] }
            // Right to left: words (letters and their marks) whole, other characters one by one.
            var pieces: [[UInt32]] = []
            var index = range.lowerBound
            while index < range.upperBound {
                var end = index + 1
                if isLetter(scalars[index]) {
                    while end < range.upperBound, isLetter(scalars[end]) || kind(scalars[end]) == .mark { end += 1 }
                    pieces.append(Array(scalars[index..<end]))
                } else {
                    pieces.append([mirrored(scalars[index])])
                }
                index = end
            }
            return pieces.reversed()
        }
    }

    private enum Kind { case leftToRight, rightToLeft, number, separator, terminator, mark, neutral }

    private static func kind(_ scalar: UInt32) -> Kind {
        switch bidiClass(scalar) {
        case UTF8PROC_BIDI_CLASS_L: .leftToRight
        case UTF8PROC_BIDI_CLASS_R, UTF8PROC_BIDI_CLASS_AL: .rightToLeft
        case UTF8PROC_BIDI_CLASS_EN, UTF8PROC_BIDI_CLASS_AN: .number
        case UTF8PROC_BIDI_CLASS_ES, UTF8PROC_BIDI_CLASS_CS: .separator
        case UTF8PROC_BIDI_CLASS_ET: .terminator
        case UTF8PROC_BIDI_CLASS_NSM, UTF8PROC_BIDI_CLASS_BN: .mark
        default: .neutral
        }
    }

    private static func isLetter(_ scalar: UInt32) -> Bool { kind(scalar) == .rightToLeft }

    /// A separator between two digits ("3.5", "1,000") and terminators next to one ("50%", "$5")
    /// are part of the number (W4, W5); other separators and terminators are neutrals (W6).
    private static func resolveNumberSeparators(_ scalars: [UInt32], _ kinds: inout [Kind]) {
        for index in kinds.indices where kinds[index] == .separator {
            let between =
                index > 0 && index + 1 < kinds.count && kinds[index - 1] == .number
                && kinds[index + 1] == .number
            kinds[index] = between ? .number : .neutral
        }
        for index in kinds.indices where kinds[index] == .terminator {
            var before = index, after = index
            while before > 0, kinds[before - 1] == .terminator { before -= 1 }
            while after + 1 < kinds.count, kinds[after + 1] == .terminator { after += 1 }
            let nextToNumber =
                (before > 0 && kinds[before - 1] == .number)
                || (after + 1 < kinds.count && kinds[after + 1] == .number)
            kinds[index] = nextToNumber ? .number : .neutral
        }
    }

    /// Neutrals between two strong characters of one direction take it, numbers counting as right
    /// to left; others take the line's (N1, N2). The line's ends count as the line's direction.
    private static func resolveNeutrals(_ kinds: inout [Kind], base: Kind) {
        func direction(_ kind: Kind) -> Kind { kind == .number ? .rightToLeft : kind }
        var start = 0
        while start < kinds.count {
            guard kinds[start] == .neutral else {
                start += 1
                continue
            }
            var end = start
            while end < kinds.count, kinds[end] == .neutral { end += 1 }
            let before = start > 0 ? direction(kinds[start - 1]) : base
            let after = end < kinds.count ? direction(kinds[end]) : base
            let resolved = before == after ? before : base
            for index in start..<end { kinds[index] = resolved }
            start = end
        }
    }

    /// The mirror image of a bracket or quote drawn right to left (HarfBuzz mirrors only in a
    /// right-to-left run, and a neutral alone is shaped left to right).
    private static func mirrored(_ scalar: UInt32) -> UInt32 {
        mirrors[scalar] ?? scalar
    }

    private static let mirrors: [UInt32: UInt32] = {
        let pairs: [(Character, Character)] = [
            ("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"), ("«", "»"), ("‹", "›"), ("⁅", "⁆"), ("⟨", "⟩"),
        ]
        var map: [UInt32: UInt32] = [:]
        for (open, close) in pairs {
            let a = open.unicodeScalars.first!.value, b = close.unicodeScalars.first!.value
            map[a] = b
            map[b] = a
        }
        return map
    }()

    private static func bidiClass(_ scalar: UInt32) -> utf8proc_bidi_class_t {
        guard let property = utf8proc_get_property(utf8proc_int32_t(bitPattern: scalar)) else {
            return UTF8PROC_BIDI_CLASS_ON
        }
        return utf8proc_bidi_class_t(rawValue: UInt32(property.pointee.bidi_class))
    }
}
