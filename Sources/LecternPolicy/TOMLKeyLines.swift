/// The line each key of a TOML document is defined on, for messages about a key's value
/// (TOMLKit reports positions for syntax errors only). The document parsed already, so this
/// only follows table headers, `key = value` lines (dotted and quoted keys), and skips
/// comments, multi-line strings and values that span lines (arrays, inline tables).
struct TOMLKeyLines {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var table: [String] = []
        var closing: String?  // the delimiter that ends the multi-line string we are in
        var depth = 0  // open brackets and braces of a value spanning lines
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if let delimiter = closing {
                if line.firstRange(of: delimiter) != nil { closing = nil }
                continue
            }
            if depth > 0 {
                depth = max(0, depth + Self.scan(line).depth)
                continue
            }
            guard let first = line.first, first != "#", first != "\r" else { continue }
            if first == "[" {
                let name = line.drop { $0 == "[" }.prefix { $0 != "]" }
                table = Self.keyPath(name)
                record(table, line: index + 1)
                continue
            }
            let scanned = Self.scan(line)
            guard let equals = scanned.equals else { continue }
            record(table + Self.keyPath(line[..<equals]), line: index + 1)
            depth = max(0, scanned.depth)
            closing = scanned.openString
        }
    }

    /// The line `key` (dotted, unquoted) is on, or the nearest enclosing table's.
    func line(of key: String) -> Int? {
        var parts = key.split(separator: ".").map(String.init)
        while !parts.isEmpty {
            if let line = lines[parts.joined(separator: ".")] { return line }
            parts.removeLast()
        }
        return nil
    }

    private mutating func record(_ path: [String], line: Int) {
        let key = path.joined(separator: ".")
        if lines[key] == nil { lines[key] = line }
    }

    /// `a."b.c" . d` → ["a", "b.c", "d"].
    private static func keyPath(_ text: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current)
                current = ""
            } else if character != " " && character != "\t" {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// Where the first `=` outside quotes is, the brackets a line opens (negative: closes), and the
    /// multi-line string it leaves open.
    private static func scan(_ line: Substring) -> (equals: Substring.Index?, depth: Int, openString: String?) {
        var equals: Substring.Index?
        var depth = 0
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "#" { break }
            if character == "\"" || character == "'" {
                let triple = String(repeating: character, count: 3)
                if line[index...].hasPrefix(triple) {
                    let after = line.index(index, offsetBy: 3)
                    guard let end = line[after...].firstRange(of: triple) else { return (equals, depth, triple) }
                    index = end.upperBound
                    continue
                }
                var next = line.index(after: index)
                while next < line.endIndex, line[next] != character {
                    if character == "\"" && line[next] == "\\" { next = line.index(after: next) }
                    if next < line.endIndex { next = line.index(after: next) }
                }
                index = next < line.endIndex ? line.index(after: next) : next
                continue
            }
            if character == "=" && equals == nil { equals = index }
            if character == "[" || character == "{" { depth += 1 }
            if character == "]" || character == "}" { depth -= 1 }
            index = line.index(after: index)
        }
        return (equals, depth, nil)
    }
}
