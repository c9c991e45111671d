import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Editing annotations and form fields, and saving the edits incrementally, with real MuPDF on
/// copies of Tests/Fixtures/annotations.pdf.
@Suite struct AnnotationEditTests {
    /// A copy of annotations.pdf in a fresh directory (removed by the caller), and its bytes.
    static func copyOfFixture() throws -> (directory: URL, path: String, bytes: Data) {
        let directory = try makeTemporaryDirectory()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: AnnotationTests.annotationsPDF))
        let path = directory.appendingPathComponent("form.pdf").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return (directory, path, bytes)
    }

    static func annotation(_ document: PDFDocument, _ match: (PDFAnnotation) -> Bool) throws -> PDFAnnotation {
        try #require(try document.annotations(page: 0).annotations.first(where: match))
    }

    static func field(_ document: PDFDocument, _ name: String) throws -> PDFAnnotation {
        try annotation(document) { $0.field?.name == name }
    }

    static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// The "name" field's rect (user space 50 700 250 720) in device pixels at scale 1 on the
    /// 612 x 792 page (y down).
    static let nameFieldPixels = PixelBox(x: 50, y: 72, width: 200, height: 20)

    @Test func settingATextFieldChangesTheNextRenderInTheFieldsRect() throws {
        let document = try PDFDocument(path: AnnotationTests.annotationsPDF)
        let name = try Self.field(document, "name")
        let before = try Bitmap.renderPage(document, page: 0, scale: 1)  // records and caches the list
        #expect(before.darkPixels(in: Self.nameFieldPixels) > 0)  // "Ada" is drawn
        let value = try document.setFieldValue("WWWWWWWWWWWWWWWWWWWW", objectNumber: name.objectNumber, page: 0)
        #expect(value == "WWWWWWWWWWWWWWWWWWWW")
        let after = try Bitmap.renderPage(document, page: 0, scale: 1)
        let field = Self.nameFieldPixels
        #expect(after.darkPixels(in: field) > before.darkPixels(in: field) * 3)
        // Only the field changed: the page above and below it is as it was.
        let outside = PixelBox(x: 0, y: 100, width: 612, height: 692)
        #expect(after.crop(outside) == before.crop(outside))
    }

    /// The rows of `box` with text in them, grouped into lines (top to bottom).
    static func textLines(_ bitmap: Bitmap, in box: PixelBox) -> [ClosedRange<Int>] {
        var lines: [ClosedRange<Int>] = []
        for y in box.y..<box.maxY where bitmap.darkPixels(in: PixelBox(x: box.x, y: y, width: box.width, height: 1)) > 0
        {
            if let last = lines.last, last.upperBound == y - 1 {
                lines[lines.count - 1] = last.lowerBound...y
            } else {
                lines.append(y...y)
            }
        }
        return lines
    }

    /// Pixels of `rect` in the list box's highlight (light blue: blue well above red).
    static func highlighted(_ bitmap: Bitmap, in rect: PixelBox) -> Int {
        var count = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let (b, g, r, _) = bitmap.pixel(x, y)
                if b > 200 && r < 190 && g > r && b > g { count += 1 }
            }
        }
        return count
    }

    @Test func choosingInAListBoxHighlightsTheChosenLine() throws {
        let document = try PDFDocument(path: AnnotationTests.annotationsPDF)
        let fruit = try Self.field(document, "fruit")
        // The list box (user space 300 520 400 580) at scale 2, y down on the 792-pt page.
        let box = PixelBox(x: 600, y: 424, width: 200, height: 120)
        let before = try Bitmap.renderPage(document, page: 0, scale: 2)
        let lines = Self.textLines(before, in: box)
        #expect(lines.count == 3, "Apple, Banana, Cherry: \(lines)")
        #expect(try document.setFieldValue("Banana", objectNumber: fruit.objectNumber, page: 0) == "Banana")
        let after = try Bitmap.renderPage(document, page: 0, scale: 2)
        guard lines.count == 3 else { return }
        let rows = lines.map { PixelBox(x: box.x + 4, y: $0.lowerBound, width: box.width - 8, height: $0.count) }
        let marks = rows.map { Self.highlighted(after, in: $0) }
        #expect(marks[1] > rows[1].width * rows[1].height / 3, "Banana's line is highlighted: \(marks)")
        #expect(marks[0] == 0 && marks[2] == 0, "the other lines are not: \(marks)")
        #expect(Self.textLines(after, in: box) == lines, "the options stay where they were")
        // Choosing again moves the mark.
        #expect(try document.setFieldValue("Apple", objectNumber: fruit.objectNumber, page: 0) == "Apple")
        let again = try Bitmap.renderPage(document, page: 0, scale: 2)
        let moved = rows.map { Self.highlighted(again, in: $0) }
        #expect(moved[0] > 0 && moved[1] == 0 && moved[2] == 0, "now Apple's: \(moved)")
    }

    @Test func editsSaveIncrementallyToACopyAndReadBack() throws {
        let (directory, source, sourceBytes) = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = try PDFDocument(path: source)
        #expect(!document.hasUnsavedChanges)
        let freeText = try Self.annotation(document) { $0.subtype == "FreeText" }
        let moved = Rect(x: 60, y: 400, width: 300, height: 80)
        try document.setAnnotationRect(moved, objectNumber: freeText.objectNumber, page: 0)
        try document.setAnnotationContents("Welcome, Grace", objectNumber: freeText.objectNumber, page: 0)
        try document.setFieldValue("Grace", objectNumber: Self.field(document, "name").objectNumber, page: 0)
        try document.setFieldValue("Blue", objectNumber: Self.field(document, "colour").objectNumber, page: 0)
        #expect(try document.toggleField(objectNumber: Self.field(document, "agree").objectNumber, page: 0) == "Off")
        let small = try Self.annotation(document) { $0.field?.type == .radio && $0.rect.minX == 350 }
        #expect(try document.toggleField(objectNumber: small.objectNumber, page: 0) == "S")
        try document.setReadingDirection(rightToLeft: true)
        #expect(document.isRightToLeft)
        #expect(document.hasUnsavedChanges)

        let copy = directory.appendingPathComponent("saved.pdf").path
        try document.saveIncrementally(to: copy)
        #expect(!document.hasUnsavedChanges)
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == sourceBytes)
        let saved = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(saved.count > sourceBytes.count)
        #expect(saved.prefix(sourceBytes.count) == sourceBytes)  // incremental: the source, then the update
        #expect(try Self.files(in: directory) == ["form.pdf", "saved.pdf"])  // no temporary file left

        let reopened = try PDFDocument(path: copy)
        let text = try Self.annotation(reopened) { $0.subtype == "FreeText" }
        #expect(text.objectNumber == freeText.objectNumber)
        #expect(text.rect == moved)
        #expect(text.contents == "Welcome, Grace")
        #expect(try Self.field(reopened, "name").field?.value == "Grace")
        #expect(try Self.field(reopened, "colour").field?.value == "Blue")
        #expect(try Self.field(reopened, "agree").field?.value == "Off")
        #expect(try Self.field(reopened, "size").field?.value == "S")
        #expect(reopened.isRightToLeft)
        #expect(!reopened.wasRepaired)
        #expect(!reopened.hasUnsavedChanges)

        // A second save holds the first edits too, and the reading direction goes back.
        try document.setFieldValue("Grace Hopper", objectNumber: Self.field(document, "name").objectNumber, page: 0)
        try document.setReadingDirection(rightToLeft: false)
        let second = directory.appendingPathComponent("second.pdf").path
        try document.saveIncrementally(to: second)
        let again = try PDFDocument(path: second)
        #expect(try Self.field(again, "name").field?.value == "Grace Hopper")
        #expect(try Self.field(again, "colour").field?.value == "Blue")
        #expect(!again.isRightToLeft)
        #expect(!again.wasRepaired)  // its update chains to the source's xref, not to saved.pdf's
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == sourceBytes)
    }

    @Test func savingInPlaceReplacesTheSourceWithItsUpdate() throws {
        let (directory, source, sourceBytes) = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = try PDFDocument(path: source)
        try document.setFieldValue("Linus", objectNumber: Self.field(document, "name").objectNumber, page: 0)
        try document.saveIncrementally(to: source)
        let saved = try Data(contentsOf: URL(fileURLWithPath: source))
        #expect(saved.prefix(sourceBytes.count) == sourceBytes)
        #expect(try Self.field(PDFDocument(path: source), "name").field?.value == "Linus")
        // The open document still reads (MuPDF keeps the replaced file open) and saves again.
        #expect(try Self.field(document, "name").field?.value == "Linus")
        try document.saveIncrementally(to: source)
        #expect(try Self.field(PDFDocument(path: source), "name").field?.value == "Linus")
        #expect(try Self.files(in: directory) == ["form.pdf"])
    }

    @Test func lockedReadOnlyAndAbsurdEditsAreRefusedAndChangeNothing() throws {
        let document = try PDFDocument(path: AnnotationTests.annotationsPDF)
        let locked = try Self.annotation(document) { $0.flags.contains(.locked) }
        let freeText = try Self.annotation(document) { $0.subtype == "FreeText" }
        let name = try Self.field(document, "name").objectNumber
        let fruit = try Self.field(document, "fruit").objectNumber
        let id = try Self.field(document, "id").objectNumber
        let sign = try Self.field(document, "sign").objectNumber
        func expectKind(
            _ kind: PDFError.Kind, _ body: () throws(PDFError) -> Void,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            do throws(PDFError) {
                try body()
                Issue.record("no error", sourceLocation: sourceLocation)
            } catch {
                #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
                #expect(error.message.contains(AnnotationTests.annotationsPDF), sourceLocation: sourceLocation)
            }
        }
        let rect = Rect(x: 10, y: 10, width: 50, height: 50)
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setAnnotationRect(rect, objectNumber: locked.objectNumber, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setAnnotationRect(rect, objectNumber: id, page: 0)
        }
        for absurd in [
            Rect(x: .nan, y: 0, width: 10, height: 10), Rect(x: 0, y: 0, width: .infinity, height: 10),
            Rect(x: 100, y: 100, width: -50, height: 10), Rect(x: 1e30, y: 0, width: 1, height: 1),
        ] {
            expectKind(.editRefused) { () throws(PDFError) in
                try document.setAnnotationRect(absurd, objectNumber: freeText.objectNumber, page: 0)
            }
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setFieldValue("B-2", objectNumber: id, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setFieldValue("me", objectNumber: sign, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setFieldValue("x", objectNumber: freeText.objectNumber, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setFieldValue(String(repeating: "x", count: 21), objectNumber: name, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setFieldValue(String(repeating: "x", count: 1 << 20), objectNumber: name, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setFieldValue("a\u{0}b", objectNumber: name, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setFieldValue("Durian", objectNumber: fruit, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in try document.toggleField(objectNumber: name, page: 0) }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setAnnotationContents("x", objectNumber: name, page: 0)
        }
        expectKind(.editRefused) { () throws(PDFError) in
            try document.setAnnotationContents(
                String(repeating: "y", count: 1 << 20), objectNumber: freeText.objectNumber, page: 0)
        }
        for object in [999_999, -5, 0, Int.max, Int.min] {
            expectKind(.annotationNotFound) { () throws(PDFError) in
                try document.setFieldValue("x", objectNumber: object, page: 0)
            }
            expectKind(.annotationNotFound) { () throws(PDFError) in
                try document.setAnnotationRect(rect, objectNumber: object, page: 0)
            }
        }
        // Object 2 is the page tree node, not an annotation of the page.
        expectKind(.annotationNotFound) { () throws(PDFError) in try document.toggleField(objectNumber: 2, page: 0) }
        expectKind(.pageOutOfRange) { () throws(PDFError) in
            try document.setFieldValue("x", objectNumber: name, page: 1)
        }
        #expect(!document.hasUnsavedChanges)
        let page = try document.annotations(page: 0)
        #expect(page == (try PDFDocument(path: AnnotationTests.annotationsPDF).annotations(page: 0)))
        // A locked annotation's contents may still change (only /F LockedContents forbids it).
        try document.setAnnotationContents("Still locked", objectNumber: locked.objectNumber, page: 0)
        #expect(try Self.annotation(document) { $0.objectNumber == locked.objectNumber }.contents == "Still locked")
    }

    @Test func aFailedSaveLeavesNothingBehindAndTheLastGoodFileAsItWas() throws {
        let (directory, source, _) = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = try PDFDocument(path: source)
        let name = try Self.field(document, "name").objectNumber
        try document.setFieldValue("First", objectNumber: name, page: 0)
        let good = directory.appendingPathComponent("good.pdf").path
        try document.saveIncrementally(to: good)
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try document.setFieldValue("Second", objectNumber: name, page: 0)

        // A path under a file (ENOTDIR, whoever runs the test).
        #expect(throws: PDFError.self) { try document.saveIncrementally(to: source + "/saved.pdf") }
        // A path that is a directory: MuPDF writes the temporary file, the rename fails, it goes.
        let occupied = directory.appendingPathComponent("occupied").path
        try FileManager.default.createDirectory(atPath: occupied, withIntermediateDirectories: false)
        do {
            try document.saveIncrementally(to: occupied)
            Issue.record("saving over a directory succeeded")
        } catch {
            #expect(error.kind == .writeFailed)
            #expect(error.message.contains("renaming"), "\(error.message)")
        }
        #expect(try Self.files(in: directory) == ["form.pdf", "good.pdf", "occupied"])
        #expect(document.hasUnsavedChanges)

        // A read-only directory. Tests run as root, for whom mode 0555 stops nothing: the immutable
        // attribute (chattr +i, ext4) stops root too.
        try Self.chattr("+i", directory.path)
        defer { try? Self.chattr("-i", directory.path) }
        #expect(!FileManager.default.createFile(atPath: directory.appendingPathComponent("probe").path, contents: nil))
        do {
            try document.saveIncrementally(to: good)
            Issue.record("saving into an immutable directory succeeded")
        } catch {
            #expect(error.kind == .writeFailed)
            #expect(error.message.contains(good))
            #expect(error.message.contains("Operation not permitted"), "\(error.message)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: good)) == goodBytes)
        #expect(try Self.files(in: directory) == ["form.pdf", "good.pdf", "occupied"])
        #expect(try Self.field(PDFDocument(path: good), "name").field?.value == "First")
        #expect(document.hasUnsavedChanges)
    }

    static func chattr(_ flag: String, _ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "chattr \(flag) \(path) failed")
    }

    @Test func editsSurviveDroppingCachedObjects() throws {
        let (directory, source, _) = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = try PDFDocument(path: source)
        let freeText = try Self.annotation(document) { $0.subtype == "FreeText" }
        try document.setAnnotationContents("Kept", objectNumber: freeText.objectNumber, page: 0)
        try document.setFieldValue("Kept", objectNumber: Self.field(document, "name").objectNumber, page: 0)
        // What renders do every 16 pages recorded: drop the objects only MuPDF's cache holds.
        document.releasePageObjects()
        #expect(try Self.annotation(document) { $0.objectNumber == freeText.objectNumber }.contents == "Kept")
        #expect(try Self.field(document, "name").field?.value == "Kept")
        let copy = directory.appendingPathComponent("saved.pdf").path
        try document.saveIncrementally(to: copy)
        #expect(try Self.field(PDFDocument(path: copy), "name").field?.value == "Kept")
    }

    @Test func editsWhileOtherThreadsRenderEndWithTheLastValueShown() throws {
        let document = try PDFDocument(path: AnnotationTests.annotationsPDF)
        let name = try Self.field(document, "name").objectNumber
        let stop = Locked(false)
        let failures = Locked<[PDFError]>([])
        let renders = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                while !stop.withLock({ $0 }) {
                    do throws(PDFError) {
                        _ = try Bitmap.render(
                            document, page: 0, scale: 1, region: PixelBox(x: 0, y: 0, width: 612, height: 200))
                        renders.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append(error) }
                    }
                }
            }
        }
        for i in 0..<60 {
            try document.setFieldValue("Visitor \(i)", objectNumber: name, page: 0)
            if i % 10 == 0 { document.releasePageObjects() }
        }
        stop.withLock { $0 = true }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(renders.withLock { $0 } > 0)
        #expect(try Self.field(document, "name").field?.value == "Visitor 59")
        // The next render shows the last value, as a document that only had that one edit does.
        let reference = try PDFDocument(path: AnnotationTests.annotationsPDF)
        try reference.setFieldValue("Visitor 59", objectNumber: name, page: 0)
        let region = PixelBox(x: 0, y: 0, width: 612, height: 200)
        let shown = try Bitmap.render(document, page: 0, scale: 1, region: region)
        #expect(shown.differingPixels(from: try Bitmap.render(reference, page: 0, scale: 1, region: region)) == 0)
    }
}
