import LecternCore
import Testing

/// What keypad focus says of a form field: its value only when it may be heard privately.
@Suite("Focus phrases for form fields")
struct FocusPhrasesTests {
    static func field(_ type: AnnotationInfo.FieldType, value: String, readOnly: Bool = false) -> AnnotationInfo {
        AnnotationInfo(
            objectNumber: 1, subtype: "Widget", rect: Rect(x: 0, y: 0, width: 10, height: 10), fieldType: type,
            fieldName: "email", value: value, isFieldReadOnly: readOnly)
    }

    @Test("a text field's value is said only when allowed; empty is said either way")
    func textValue() {
        let filled = Self.field(.text, value: "ada@example.org")
        #expect(FocusPhrases.field(filled, saysValue: true) == "email, text field, filled in: ada@example.org")
        #expect(FocusPhrases.field(filled, saysValue: false) == "email, text field, filled in (headphones say what)")
        #expect(FocusPhrases.field(Self.field(.text, value: ""), saysValue: false) == "email, text field, empty")
    }

    @Test("a box's state is not private: checked or not is always said; read-only is said")
    func checkboxState() {
        #expect(
            FocusPhrases.field(Self.field(.checkbox, value: "Yes"), saysValue: false)
                == "email, checkbox field, checked")
        #expect(
            FocusPhrases.field(Self.field(.checkbox, value: "Off", readOnly: true), saysValue: false)
                == "email, checkbox field, not checked, read only")
    }
}
