/// Text that replaces what a page draws when it is read aloud: a tagged PDF's /ActualText
/// ("kilometres" for the glyphs "km", the words of a formula drawn as symbols).
public struct ActualText: Equatable, Sendable {
    /// What is read instead.
    public var text: String
    /// The boxes of the glyphs it replaces, in page space.
    public var glyphs: [Rect]

    public init(text: String, glyphs: [Rect]) {
        self.text = text
        self.glyphs = glyphs
    }
}

extension PageCharacters {
    /// The characters as they are read aloud: a character whose box holds the centre of one of a
    /// replacement's glyphs gives way to the replacement's text, which stands at the place of the
    /// first of them (the white space between them goes too). A character that an earlier
    /// replacement took stays with it (an element's /ActualText before its descendants').
    public func replacing(_ replacements: [ActualText]) -> PageCharacters {
        guard !replacements.isEmpty else { return self }
        var owner = [Int?](repeating: nil, count: characters.count)
        for (index, replacement) in replacements.enumerated() {
            let centres = replacement.glyphs.map(\.center)
            for (position, character) in characters.enumerated()
            where owner[position] == nil && !character.isSpace
                && centres.contains(where: { character.rect.contains($0) })
            {
                owner[position] = index
            }
        }
        // White space between two characters of one replacement is part of it.
        var previous: (position: Int, owner: Int?)?
        for position in characters.indices where !characters[position].isSpace {
            if let previous, let shared = owner[position], previous.owner == shared {
                for space in previous.position + 1..<position { owner[space] = shared }
            }
            previous = (position, owner[position])
        }
        var result: [PageCharacter] = []
        result.reserveCapacity(characters.count)
        var placed = Set<Int>()
        for (position, character) in characters.enumerated() {
            guard let index = owner[position] else {
                result.append(character)
                continue
            }
            guard placed.insert(index).inserted else { continue }
            // The text takes the first character's place, its box shared out among its scalars.
            let scalars = Array(replacements[index].text.unicodeScalars)
            let width = character.rect.width / Double(max(scalars.count, 1))
            result += scalars.enumerated().map { offset, scalar in
                var rect = character.rect
                rect.origin.x += width * Double(offset)
                rect.size.width = width
                return PageCharacter(
                    scalar: scalar.value, rect: rect, line: character.line, block: character.block,
                    isRightToLeft: character.isRightToLeft)
            }
        }
        return PageCharacters(readingOrder: result)
    }
}
