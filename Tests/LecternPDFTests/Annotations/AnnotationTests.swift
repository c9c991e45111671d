import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Reading annotations and form fields (Tests/Fixtures/make-annotation-fixtures) with real MuPDF.
@Suite struct AnnotationTests {
    static var annotationsPDF: String { Fixture.path("annotations.pdf") }

    static func open(_ path: String) throws -> PDFDocument {
        try PDFDocument(path: path)
    }

    static func field(_ page: PageAnnotations, _ name: String) throws -> (PDFAnnotation, PDFAnnotation.Field) {
        let annotation = try #require(page.annotations.first { $0.field?.name == name })
        return (annotation, try #require(annotation.field))
    }

    @Test func markupAnnotationsReadBackWithTypeRectFlagsContentsAuthorColour() throws {
        let page = try Self.open(Self.annotationsPDF).annotations(page: 0)
        let markup = page.annotations.filter { $0.field == nil }
        try #require(markup.count == 6)
        #expect(markup.map(\.subtype) == ["FreeText", "Ink", "Square", "Text", "Text", "Square"])
        let freeText = markup[0]
        #expect(freeText.rect == Rect(x: 50, y: 600, width: 200, height: 50))
        #expect(freeText.contents == "Hello, visitor")
        #expect(freeText.author == "Alice")
        #expect(freeText.color == [1, 0, 0])
        #expect(freeText.flags == [.print])
        let ink = markup[1]
        #expect(ink.rect == Rect(x: 300, y: 600, width: 100, height: 100))
        #expect(ink.author == "Bob")
        #expect(ink.color == [0, 0, 1])
        #expect(ink.flags.isEmpty)
        let locked = markup[2]
        #expect(locked.flags == [.locked, .print])
        #expect(locked.contents == "Locked note")
        #expect(markup[3].flags == [.hidden])
        #expect(markup[3].contents == "Hidden note")
    }

    @Test func invalidUTF8AndAbsurdRectsReadWithoutCrash() throws {
        let page = try Self.open(Self.annotationsPDF).annotations(page: 0)
        let markup = page.annotations.filter { $0.field == nil }
        try #require(markup.count == 6)
        let bad = markup[4]
        // Whatever MuPDF decoded, it arrives as valid Swift text with the readable parts kept.
        #expect(bad.contents.contains("bad"))
        #expect(bad.contents.contains("utf8"))
        let absurd = markup[5].rect
        for value in [absurd.origin.x, absurd.origin.y, absurd.size.width, absurd.size.height] {
            #expect(value.isFinite)
        }
    }

    @Test func formFieldsReadBackWithTypeValueOptionsAndFlags() throws {
        let page = try Self.open(Self.annotationsPDF).annotations(page: 0)
        #expect(!page.isTruncated)
        #expect(page.annotations.count == 6 + 10)

        let (name, nameField) = try Self.field(page, "name")
        #expect(name.subtype == "Widget")
        #expect(name.rect == Rect(x: 50, y: 700, width: 200, height: 20))
        #expect(nameField.type == .text)
        #expect(nameField.value == "Ada")
        #expect(nameField.maxLength == 20)
        #expect(!nameField.isReadOnly)

        let (_, notes) = try Self.field(page, "notes")
        #expect(notes.type == .multilineText)
        #expect(notes.value == "line one\nline two")
        #expect(notes.maxLength == nil)

        let (_, agree) = try Self.field(page, "agree")
        #expect(agree.type == .checkbox)
        #expect(agree.value == "Yes")

        let radios = page.annotations.filter { $0.field?.name == "size" }
        #expect(radios.count == 2)
        #expect(radios.allSatisfy { $0.field?.type == .radio && $0.field?.value == "L" })

        let (_, colour) = try Self.field(page, "colour")
        #expect(colour.type == .comboChoice)
        #expect(colour.options == ["Red", "Green", "Blue"])
        #expect(colour.value == "Green")

        let (_, fruit) = try Self.field(page, "fruit")
        #expect(fruit.type == .listChoice)
        #expect(fruit.options == ["Apple", "Banana", "Cherry"])
        #expect(fruit.value == "Cherry")

        let (_, id) = try Self.field(page, "id")
        #expect(id.type == .text)
        #expect(id.isReadOnly)
        #expect(id.value == "A-17")

        #expect(try Self.field(page, "reset").1.type == .pushButton)
        let (_, sign) = try Self.field(page, "sign")
        #expect(sign.type == .signature)
        #expect(sign.isReadOnly)
    }

    @Test func thousandsOfAnnotationsAreCappedNotFatal() throws {
        let document = try Self.open(Fixture.path("annotations-5000.pdf"))
        let page = try document.annotations(page: 0)
        #expect(page.annotations.count == PDFDocument.maxAnnotationsPerPage)
        #expect(page.isTruncated)
        #expect(page.annotations[0].subtype == "Square")
        #expect(page.annotations[0].rect == Rect(x: 10, y: 10, width: 5, height: 5))
    }

    @Test func aDocumentWithoutAnnotationsHasNone() throws {
        let page = try Self.open(Fixture.text3Pages).annotations(page: 0)
        #expect(page.annotations.isEmpty)
        #expect(!page.isTruncated)
    }

    @Test func aPageOutOfRangeThrows() throws {
        let document = try Self.open(Self.annotationsPDF)
        #expect(throws: PDFError.self) { try document.annotations(page: 1) }
    }
}
