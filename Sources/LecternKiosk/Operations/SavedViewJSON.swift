import LecternCore

/// `state.json` read without `JSONDecoder` when it is what Lectern writes (`SavedView.encoded`):
/// the decoder's first use in a process costs 0.4 ms (its generic containers' metadata, found by
/// mangled name), a tenth of a repeat start's first frame, and the saved view is read before
/// that frame. Strict JSON (RFC 8259) of the values a saved view holds (objects, strings,
/// numbers, null): anything else it does not read (nil: an array or a boolean too, which no
/// field of `SavedView` is), and `SavedView.load` gives the file to `JSONDecoder`, as before. A
/// key given twice, a key `SavedView` has not, a number that does not fit its field exactly: nil
/// too, so a file this reads is one the decoder reads the same (`SavedViewJSONTests` checks that).
enum SavedViewJSON {
    /// The view `bytes` hold, if they are strict JSON of `SavedView`'s fields.
    static func decode(_ bytes: [UInt8]) -> SavedView? {
        var parser = Parser(bytes: bytes)
        guard case .object(let fields)? = parser.document() else { return nil }
        return savedView(fields)
    }

    private static func savedView(_ fields: [String: Value]) -> SavedView? {
        guard Set(fields.keys).isSubset(of: ["format", "document", "version", "view", "policyDocument"]),
            let format = fields["format"]?.integer.flatMap({ Int(exactly: $0) }),
            case .string(let document)? = fields["document"],
            case .string(let policyDocument)? = fields["policyDocument"],
            case .object(let version)? = fields["version"],
            Set(version.keys).isSubset(of: ["size", "modified", "inode"]),
            let size = version["size"]?.integer, let modified = version["modified"]?.integer,
            case .number(let inodeText)? = version["inode"], let inode = UInt64(inodeText),
            case .object(let view)? = fields["view"], Set(view.keys).isSubset(of: ["pageIndex", "viewport"]),
            let page = view["pageIndex"]?.integer.flatMap({ Int(exactly: $0) })
        else { return nil }
        var viewport: Rect?
        switch view["viewport"] {
        case nil, .null?: viewport = nil
        case .object(let rect)?:
            guard let origin = point(rect["origin"], "x", "y"), let size = point(rect["size"], "width", "height"),
                Set(rect.keys) == ["origin", "size"]
            else { return nil }
            viewport = Rect(x: origin.0, y: origin.1, width: size.0, height: size.1)
        default: return nil
        }
        var saved = SavedView(
            document: document, version: FileVersion(size: size, modified: modified, inode: inode),
            view: ViewState(pageIndex: page, viewport: viewport), policyDocument: policyDocument)
        saved.format = format
        return saved
    }

    /// The two finite numbers of an object with exactly the keys `first` and `second`.
    private static func point(_ value: Value?, _ first: String, _ second: String) -> (Double, Double)? {
        guard case .object(let fields)? = value, Set(fields.keys) == [first, second],
            let a = fields[first]?.real, let b = fields[second]?.real
        else { return nil }
        return (a, b)
    }

    enum Value: Equatable {
        case object([String: Value])
        case string(String)
        /// The number's text, as JSON wrote it.
        case number(String)
        case null

        /// An integer written without fraction or exponent that fits 64 bits.
        var integer: Int64? {
            guard case .number(let text) = self else { return nil }
            return Int64(text)
        }

        /// A finite number.
        var real: Double? {
            guard case .number(let text) = self, let value = Double(text), value.isFinite else { return nil }
            return value
        }
    }

    /// A recursive descent over the bytes; nil at the first byte that is not strict JSON.
    struct Parser {
        let bytes: [UInt8]
        var index = 0
        /// Objects open at once: deeper is not a saved view, and a stack must not end.
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// One value and nothing after it but white space.
        mutating func document() -> Value? {
            guard let value = value() else { return nil }
            skipSpace()
            return index == bytes.count ? value : nil
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func take(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else {
                return false
            }
            index += word.count
            return true
        }

        mutating func value() -> Value? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "n"): return take("null") ? .null : nil
            default: return number()
            }
        }

        private mutating func object() -> Value? {
            guard depth < 16, take(UInt8(ascii: "{")) else { return nil }
            depth += 1
            defer { depth -= 1 }
            var fields: [String: Value] = [:]
            skipSpace()
            if take(UInt8(ascii: "}")) { return .object(fields) }
            repeat {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")), let value = value(), fields.updateValue(value, forKey: key) == nil else {
                    return nil
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? .object(fields) : nil
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
        private mutating func number() -> Value? {
            let start = index
            _ = take(UInt8(ascii: "-"))
            func digits() -> Int {
                let first = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                return index - first
            }
            if take(UInt8(ascii: "0")) {
                // A leading zero stands alone.
            } else if digits() == 0 {
                return nil
            }
            if take(UInt8(ascii: ".")), digits() == 0 { return nil }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                if digits() == 0 { return nil }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        /// A string's characters; its escapes resolved, UTF-8 checked.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush() -> Bool {
                guard run < index else { return true }
                var decoder = UTF8()
                var iterator = bytes[run..<index].makeIterator()
                while true {
                    switch decoder.decode(&iterator) {
                    case .scalarValue(let scalar): scalars.append(scalar)
                    case .emptyInput: return true
                    case .error: return false
                    }
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard flush() else { return nil }
                    index += 1
                    return String(scalars)
                }
                // Control characters must be escaped.
                guard byte >= 0x20 else { return nil }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                guard flush(), index + 1 < bytes.count else { return nil }
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    scalars.append(scalar)
                default: return nil
                }
                run = index
            }
            return nil
        }

        /// The four hex digits after `\u` (and a second `\uXXXX`, the low half of a pair).
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low)
            else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = hexValue(bytes[index]) else { return nil }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        private func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case 0x30...0x39: UInt32(byte - 0x30)
            case 0x41...0x46: UInt32(byte - 0x41 + 10)
            case 0x61...0x66: UInt32(byte - 0x61 + 10)
            default: nil
            }
        }
    }
}
