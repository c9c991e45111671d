import Testing

@testable import LecternRender

/// The pieces of a line in the order they are drawn, left to right (the core of UAX #9).
@Suite("Visual order")
struct VisualOrderTests {
    /// The pieces of `text`, each written out between brackets.
    func pieces(_ text: String) -> String {
        VisualOrder.pieces(text.unicodeScalars.map(\.value)).map { piece in
            "[" + String(String.UnicodeScalarView(piece.compactMap(Unicode.Scalar.init))) + "]"
        }.joined()
    }

    @Test("a left-to-right line is one piece, as it is")
    func leftToRight() {
        #expect(pieces("Minutes of the annual meeting (2024).pdf") == "[Minutes of the annual meeting (2024).pdf]")
    }

    @Test("right-to-left words from the right, with the neutrals between them; the … that ends a line at its left")
    func rightToLeftWords() {
        #expect(pieces("דוח שנתי של") == "[של][ ][שנתי][ ][דוח]")
        #expect(pieces("التقرير السنوي…") == "[…][السنوي][ ][التقرير]")
    }

    @Test("numbers and Latin words inside right-to-left text read left to right, and stay where they belong")
    func numbersAndLatin() {
        #expect(pieces("דוח.pdf") == "[pdf][.][דוח]")
        #expect(pieces("שנה 2024") == "[2024][ ][שנה]")
        #expect(pieces("50% הנחה") == "[הנחה][ ][50%]")
        #expect(pieces("דוח_2024_final…") == "[…][final][_][2024][_][דוח]")
        #expect(pieces("Report דוח שנתי 2024") == "[Report ][2024][ ][שנתי][ ][דוח]")
    }

    @Test("brackets around right-to-left text are mirrored")
    func brackets() {
        #expect(pieces("(שלום)") == "[(][שלום][)]")
        #expect(pieces("שלום (עולם)") == "[(][עולם][)][ ][שלום]")
    }
}
