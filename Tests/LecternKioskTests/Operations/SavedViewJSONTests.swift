import FoundationEssentials
import LecternCore
import Testing

@testable import LecternKiosk

/// `state.json` read without `JSONDecoder` (`SavedViewJSON`): what Lectern writes is read as the
/// decoder reads it, and anything it is not sure of goes to the decoder.
@Suite("Saved view JSON")
struct SavedViewJSONTests {
    /// xorshift64*: the same views on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    static func path(_ random: inout Generator) -> String {
        let pieces = [
            "/srv/kiosk", "/", "brochure", " ", "\"quoted\"", "back\\slash", "é", "日本語", "😀", "\t", "\u{01}",
            "\u{7F}", "\u{2028}", "a/b", ".pdf",
        ]
        return (0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
    }

    static func number(_ random: inout Generator) -> Double {
        let magnitudes: [Double] = [0, 1e-7, 0.5, 1, 72, 612.25, 1e6, 123_456.789_012_345]
        return magnitudes.randomElement(using: &random)! * (Bool.random(using: &random) ? -1 : 1)
            + Double.random(in: 0..<1, using: &random)
    }

    static func view(_ random: inout Generator) -> SavedView {
        let viewport =
            Bool.random(using: &random)
            ? Rect(
                x: number(&random), y: number(&random), width: abs(number(&random)) + 1,
                height: abs(number(&random)) + 1) : nil
        return SavedView(
            document: path(&random),
            version: FileVersion(
                size: Int64.random(in: 0...Int64.max, using: &random),
                modified: Int64.random(in: Int64.min...Int64.max, using: &random),
                inode: UInt64.random(in: 0...UInt64.max, using: &random)),
            view: ViewState(pageIndex: Int.random(in: 0...15_000, using: &random), viewport: viewport),
            policyDocument: path(&random))
    }

    @Test("what Lectern writes is read as the decoder reads it")
    func roundTrip() throws {
        var random = Generator(state: 0x5EED)
        for _ in 0..<2000 {
            let saved = Self.view(&random)
            let bytes = saved.encoded()
            let read = try #require(SavedViewJSON.decode(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            #expect(read == saved)
            #expect(read == (try JSONDecoder().decode(SavedView.self, from: Data(bytes))))
        }
    }

    static let valid = [
        // White space, another key order, escapes, a pair of surrogates, a viewport of null.
        #" { "format" : 1, "policyDocument":"\/a\u00e9\ud83d\ude00", "document":"b\n\"c\"", "view":{"viewport":null,"pageIndex":3}, "version":{"size":1,"inode":2,"modified":-3} } "#,
        #"{"document":"d","format":1,"policyDocument":"d","version":{"inode":0,"modified":0,"size":0},"view":{"pageIndex":0,"viewport":{"origin":{"x":-1.5e2,"y":0.25},"size":{"height":1E1,"width":2}}}}"#,
        #"{"document":"","format":2,"policyDocument":"","version":{"inode":18446744073709551615,"modified":-9223372036854775808,"size":9223372036854775807},"view":{"pageIndex":-0}}"#,
    ]

    @Test("strict JSON of the view's fields, however spaced and escaped, is read as the decoder reads it")
    func validVariants() throws {
        for text in Self.valid {
            let bytes = Array(text.utf8)
            let read = try #require(SavedViewJSON.decode(bytes), "\(text)")
            #expect(read == (try JSONDecoder().decode(SavedView.self, from: Data(bytes))), "\(text)")
        }
    }

    static let left = [
        "", "{}", "[]", "null",
        // A key twice, a key the view has not, a key missing.
        #"{"document":"a","document":"b","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0}}"#,
        #"{"document":"a","extra":1,"format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0}}"#,
        #"{"format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0}}"#,
        // Numbers that do not fit their fields exactly, or are not JSON's.
        #"{"document":"a","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":1.0}}"#,
        #"{"document":"a","format":1,"policyDocument":"a","version":{"inode":-1,"modified":1,"size":1},"view":{"pageIndex":0}}"#,
        #"{"document":"a","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":01},"view":{"pageIndex":0}}"#,
        #"{"document":"a","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":+1},"view":{"pageIndex":0}}"#,
        #"{"document":"a","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0,"viewport":{"origin":{"x":1e999,"y":0},"size":{"height":1,"width":1}}}}"#,
        // Strings JSON does not allow: a raw control character, an unknown escape, a lone surrogate.
        "{\"document\":\"a\u{01}\",\"format\":1,\"policyDocument\":\"a\",\"version\":{\"inode\":1,\"modified\":1,\"size\":1},\"view\":{\"pageIndex\":0}}",
        #"{"document":"\x","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0}}"#,
        #"{"document":"\udc00","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0}}"#,
        // Something after the value; a value cut short.
        #"{"document":"a","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0}} x"#,
        #"{"document":"a","format":1,"policyDocument":"a","version":{"inode":1,"modified":1,"size":1},"view":{"pageIndex":0"#,
    ]

    @Test("anything else is left to the decoder")
    func leftToTheDecoder() {
        for text in Self.left {
            #expect(SavedViewJSON.decode(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("nesting deeper than a saved view's is not followed")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(SavedViewJSON.decode(Array(deep.utf8)) == nil)
    }
}
