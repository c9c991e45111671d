import Foundation
import LecternCore
import LecternKiosk
import LecternPDF
import LecternRender
import LecternTestSupport
import Testing

/// Annotations and form fields through the test compositor, on annotations.pdf (one 612 × 792
/// page: Tests/Fixtures/make-annotation-fixtures): real touches select, move and fill them,
/// what is drawn is read off the pixels, and what is saved is read back with MuPDF.
@Suite("Annotations on screen")
struct AnnotationsOnScreenTests {
    static let fixture = LecternHarness.fixture("annotations.pdf")
    static let keyboard = OnScreenKeyboardLayout(width: 1280, height: 720)

    /// A copy of the fixture and a policy in a fresh directory; the reader on it, settled.
    final class Setup {
        let directory: URL
        let document: String
        let lectern: KioskHarness

        init(policy: String = "", arguments: [String] = [], configure: ((KioskApp) -> Void)? = nil) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "lectern-annotations-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            document = directory.appendingPathComponent("form.pdf").path
            try FileManager.default.copyItem(atPath: AnnotationsOnScreenTests.fixture, toPath: document)
            let policyPath = directory.appendingPathComponent("lectern.toml").path
            try "document = \"\(document)\"\n\(policy)".write(toFile: policyPath, atomically: true, encoding: .utf8)
            lectern = try KioskHarness(["--config", policyPath] + arguments, configure: configure)
            #expect(lectern.settle())
            // The page's annotations are read once it is on screen.
            #expect(lectern.wait { !lectern.status.annotations.fieldValues.isEmpty })
        }

        deinit {
            do { try lectern.stop() } catch { Issue.record("\(error)") }
            try? FileManager.default.removeItem(at: directory)
        }

        /// The screen point of the page's point (x, y) (PDF points, y up).
        func point(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
            guard let page = lectern.status.pagesOnScreen.first else { return (-1, -1) }
            let scale = Double(page.frame.width) / 612
            return (Double(page.frame.x) + x * scale, Double(page.frame.y) + (792 - y) * scale)
        }

        func tap(_ x: Double, _ y: Double) {
            let (sx, sy) = point(x, y)
            lectern.tap(x: sx, y: sy)
            lectern.advance(by: 0.35)
        }

        func drag(from: (Double, Double), to: (Double, Double)) {
            lectern.drag(from: point(from.0, from.1), to: point(to.0, to.1))
            lectern.settle()
        }

        func typeOnScreen(_ text: String) {
            for character in text {
                guard
                    let key = AnnotationsOnScreenTests.keyboard.keys.first(where: { $0.action == .character(character) }
                    )
                else {
                    Issue.record("no key \(character)")
                    return
                }
                lectern.tap(x: key.frame.midX, y: key.frame.midY)
            }
            lectern.settle()
        }

        func tapDone() {
            let done = Scene.AnnotationBar.doneButton(width: 1280, height: 720)
            lectern.tap(x: Double(done.x + done.width / 2), y: Double(done.y + done.height / 2))
            lectern.settle()
        }

        /// The pixel at the page's point (x, y).
        func pixel(_ x: Double, _ y: Double, dx: Int = 0, dy: Int = 0) -> UInt32? {
            let (sx, sy) = point(x, y)
            return lectern.lastCommit?.pixel(x: Int(sx) + dx, y: Int(sy) + dy)
        }

        /// The field values in the file at `path`, read with MuPDF.
        static func savedValues(_ path: String) throws -> [String: String] {
            let pdf = try PDFDocument(path: path)
            var values: [String: String] = [:]
            for annotation in try pdf.annotations(page: 0).annotations {
                if let field = annotation.field { values[field.name] = field.value }
            }
            return values
        }
    }

    static let accent: UInt32 = 0x4FA3FF

    @Test func aTapSelectsAndDrawsTheFrameATapElsewhereDeselects() throws {
        let setup = try Setup()
        let lectern = setup.lectern
        // The ink annotation (300 600 400 700): its left edge is at page x 300.
        #expect(setup.pixel(300, 650, dx: -1)?.masked != Self.accent)
        setup.tap(350, 630)
        #expect(lectern.status.annotations.selected?.subtype == "Ink")
        #expect(lectern.status.annotations.bar == "Bob: ")
        #expect(setup.pixel(300, 650, dx: -1)?.masked == Self.accent, "the frame is drawn on its left edge")
        setup.tap(500, 300)
        #expect(lectern.status.annotations.selected == nil)
        #expect(setup.pixel(300, 650, dx: -1)?.masked != Self.accent, "and is gone")
        #expect(lectern.status.viewState?.pageIndex == 0)
    }

    @Test func aTextFieldIsFilledOnTheOnScreenKeyboard() throws {
        let setup = try Setup(policy: "[annotations]\nsave = \"in-place\"\n")
        let lectern = setup.lectern
        setup.tap(150, 710)
        #expect(lectern.status.annotations.editing == .typing("Ada"))
        setup.typeOnScreen("m")
        #expect(lectern.status.annotations.editing == .typing("Adam"))
        #expect(lectern.status.annotations.fieldValues["name"] == "Ada", "nothing is written before Done")
        setup.tapDone()
        #expect(lectern.status.annotations.editing == nil)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["name"] == "Adam" })
        #expect(lectern.status.annotations.hasUnsavedChanges)
    }

    @Test func aTextFieldIsFilledOnAHardwareKeyboard() throws {
        let setup = try Setup()
        let lectern = setup.lectern
        #expect(lectern.enableKeyboard())
        setup.tap(150, 710)
        lectern.press(LecternHarness.Key.backspace)
        for key: UInt32 in [17, 18, 20] { lectern.press(key) }  // w e t
        #expect(lectern.status.annotations.editing == .typing("Adwet"))
        lectern.press(LecternHarness.Key.enter)
        #expect(lectern.status.annotations.editing == nil)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["name"] == "Adwet" })
    }

    @Test func aChoiceIsPickedFromItsList() throws {
        let setup = try Setup()
        let lectern = setup.lectern
        setup.tap(150, 570)
        #expect(lectern.status.annotations.editing == .choosing(["Red", "Green", "Blue"]))
        let blue = Scene.AnnotationBar.option(2, width: 1280)
        lectern.tap(x: Double(blue.x + 10), y: Double(blue.y + 10))
        #expect(lectern.wait { lectern.status.annotations.fieldValues["colour"] == "Blue" })
        setup.tap(350, 530)
        #expect(lectern.status.annotations.editing == .choosing(["Apple", "Banana", "Cherry"]))
        let apple = Scene.AnnotationBar.option(0, width: 1280)
        lectern.tap(x: Double(apple.x + 10), y: Double(apple.y + 10))
        #expect(lectern.wait { lectern.status.annotations.fieldValues["fruit"] == "Apple" })
        // The page marks the chosen option in the list box (user space 300 520 400 580; Apple is
        // its first line, at its top): light blue in the top third, none in the bottom third.
        lectern.tap(x: 1200, y: 700)
        #expect(lectern.settle())
        func marked(fromY top: Double, toY bottom: Double) -> Int {
            guard let commit = lectern.lastCommit else { return -1 }
            let (x0, y0) = setup.point(304, top)
            let (x1, y1) = setup.point(396, bottom)
            var count = 0
            for y in Int(y0)..<Int(y1) {
                for x in Int(x0)..<Int(x1) {
                    let pixel = commit.pixel(x: x, y: y)
                    let (r, g, b) = (pixel >> 16 & 0xFF, pixel >> 8 & 0xFF, pixel & 0xFF)
                    if b > 200 && r < 190 && g > r && b > g { count += 1 }
                }
            }
            return count
        }
        #expect(marked(fromY: 578, toY: 562) > 100, "Apple's line is marked")
        #expect(marked(fromY: 538, toY: 522) == 0, "Cherry's line is not")
    }

    @Test func checkboxAndRadioToggleAtOnce() throws {
        let setup = try Setup()
        let lectern = setup.lectern
        #expect(lectern.status.annotations.fieldValues["agree"] == "Yes")
        setup.tap(310, 710)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["agree"] == "Off" })
        #expect(lectern.status.annotations.editing == nil)
        setup.tap(360, 710)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["size"] == "S" })
    }

    /// With MuPDF in the render worker process, a toggle is made there too: the worker's
    /// tiles show the box unchecked (the reader's own copy alone would leave it drawn checked).
    @Test func withTheRenderWorkerAToggleShowsInItsTiles() throws {
        let setup = try Setup(arguments: ["--render-process", "on"])
        let lectern = setup.lectern
        #expect(lectern.status.renderWorker?.pid != nil)
        let green = { (pixel: UInt32?) in pixel.map { Int(($0 >> 8) & 0xFF) } ?? -1 }
        #expect((0..<80).contains(green(setup.pixel(310, 710))), "the checked box is drawn dark")
        setup.tap(310, 710)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["agree"] == "Off" })
        #expect(lectern.settle())
        #expect(green(setup.pixel(310, 710)) > 200, "the worker drew the box unchecked")
        #expect(lectern.status.renderWorker?.restarts == 0)
    }

    @Test func aFalseActivationConditionBlocksEachComponent() throws {
        nonisolated(unsafe) var called: [String] = []
        let setup = try Setup(policy: "[annotations]\nmove = [\"*\"]\n") { app in
            app.configureInteractions = { controller in
                for component in [
                    controller.selectAnnotation, controller.deselectAnnotation, controller.transformAnnotation,
                    controller.editAnnotation,
                ] {
                    let name = component.name
                    component.addActivationCondition { _, _, _ in false }
                    component.addActivationCallback { _, _, _ in called.append(name) }
                }
            }
        }
        let lectern = setup.lectern
        setup.tap(150, 710)
        #expect(lectern.status.annotations.editing == nil, "no field is edited")
        setup.tap(350, 630)
        #expect(lectern.status.annotations.selected == nil, "nothing is selected")
        #expect(called.isEmpty)
    }

    @Test func aLockedAnnotationIsNotMoved() throws {
        let setup = try Setup(policy: "[annotations]\nmove = [\"*\"]\n")
        let lectern = setup.lectern
        setup.tap(100, 525)
        #expect(lectern.status.annotations.selected?.subtype == "Square")
        let before = lectern.status.annotations.selected?.rect
        // Held down at the end of the drag: no frame follows the finger.
        lectern.drag(from: setup.point(100, 525), to: setup.point(300, 400), release: false)
        #expect(lectern.status.annotations.selected?.rect == before)
        lectern.compositor.touchUp(id: 0)
        lectern.settle()
        #expect(lectern.status.annotations.selected?.rect == before)
        #expect(!lectern.status.annotations.hasUnsavedChanges)
        #expect(lectern.status.annotations.edits == 0, "no move was even tried")
    }

    static let idle = "[idle]\nreset = 30\ncountdown = 0\n"

    /// The fixture's bytes: the document a test copied must still hold them.
    static func isUntouched(_ path: String) -> Bool {
        FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: fixture)
    }

    @Test func theVisitorsChangesAreDroppedAtTheIdleReset() throws {
        let setup = try Setup(policy: Self.idle)
        let lectern = setup.lectern
        setup.tap(310, 710)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["agree"] == "Off" })
        #expect(lectern.status.annotations.hasUnsavedChanges)
        lectern.advance(by: 31)
        #expect(lectern.wait { lectern.status.documentReloads == 1 }, "the file is opened again")
        #expect(
            lectern.wait { lectern.status.annotations.fieldValues["agree"] == "Yes" },
            "the next visitor's form is clean")
        #expect(!lectern.status.annotations.hasUnsavedChanges)
        #expect(lectern.status.annotations.saves == 0)
        #expect(Self.isUntouched(setup.document))
    }

    /// Moves the free-text box (50 600 250 650) 100 points right and saves a copy at the idle reset.
    @Test func aDragMovesAnAnnotationAndACopyIsSaved() throws {
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-saved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: saved, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: saved) }
        let setup = try Setup(
            policy: "[annotations]\nmove = [\"freetext\"]\nsave = \"copy\"\nsave-directory = \"\(saved.path)\"\n"
                + Self.idle
        )
        let lectern = setup.lectern
        setup.tap(150, 620)
        #expect(lectern.status.annotations.selected?.subtype == "FreeText")
        setup.drag(from: (150, 625), to: (250, 625))
        let moved = try #require(lectern.status.annotations.selected?.rect)
        #expect(abs(moved.minX - 150) < 2 && abs(moved.maxX - 350) < 2 && abs(moved.minY - 600) < 2)
        #expect(setup.pixel(150, 625, dx: -1)?.masked == Self.accent, "the frame follows it")
        #expect(setup.pixel(50, 625, dx: -1)?.masked != Self.accent)
        #expect(lectern.status.annotations.hasUnsavedChanges)
        #expect(lectern.status.annotations.edits == 1, "one move")
        lectern.advance(by: 31)
        #expect(lectern.wait { lectern.status.annotations.saves == 1 })
        let copy = try #require(lectern.status.annotations.lastSavePath)
        #expect(copy.hasPrefix(saved.path + "/form-") && copy.hasSuffix(".pdf"))
        let box = try #require(
            try PDFDocument(path: copy).annotations(page: 0).annotations.first { $0.subtype == "FreeText" })
        #expect(abs(box.rect.minX - 150) < 2 && abs(box.rect.maxX - 350) < 2, "the copy has it moved: \(box.rect)")
        #expect(Self.isUntouched(setup.document), "the source is byte-identical")
        #expect(lectern.wait { lectern.status.documentReloads == 1 }, "and the screen shows the source again")
    }

    /// The descriptors process `pid` holds open on the file at `path`.
    static func descriptors(of pid: Int32, on path: String) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)")) == path
        }
    }

    /// With the render worker the reader never opens the file: the worker reads the page's
    /// annotations, makes the edit, and a worker of its own saves the copy.
    @Test func withTheRenderWorkerOnlyWorkersOpenTheFileEvenToSave() throws {
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-saved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: saved, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: saved) }
        let setup = try Setup(
            policy: "[annotations]\nsave = \"copy\"\nsave-directory = \"\(saved.path)\"\n" + Self.idle,
            arguments: ["--render-process", "on"])
        let lectern = setup.lectern
        let worker = try #require(lectern.status.renderWorker?.pid)
        #expect(Self.descriptors(of: getpid(), on: setup.document).isEmpty, "the reader has not opened the file")
        #expect(Self.descriptors(of: worker, on: setup.document).count == 1, "its worker has")
        #expect(lectern.status.annotations.fieldValues["agree"] == "Yes", "the worker read the fields")
        setup.tap(310, 710)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["agree"] == "Off" })
        lectern.advance(by: 31)
        #expect(lectern.wait { lectern.status.annotations.saves == 1 })
        let copy = try #require(lectern.status.annotations.lastSavePath)
        #expect(try Setup.savedValues(copy)["agree"] == "Off", "the copy has the box unchecked")
        #expect(Self.isUntouched(setup.document), "the source is byte-identical")
        #expect(lectern.wait { lectern.status.documentReloads == 1 }, "the screen shows the source again")
        #expect(lectern.wait { lectern.status.annotations.fieldValues["agree"] == "Yes" })
        #expect(Self.descriptors(of: getpid(), on: setup.document).isEmpty, "the reader has still not opened it")
        #expect(lectern.status.renderWorker?.pid != worker, "the source is drawn by a new worker")
    }

    @Test func aHandleResizesAnAnnotation() throws {
        let setup = try Setup(policy: "[annotations]\nmove = [\"freetext\"]\nsave = \"in-place\"\n" + Self.idle)
        let lectern = setup.lectern
        setup.tap(150, 620)
        // The box's corner at (250, 600), the bottom right: 50 points right, 40 down.
        setup.drag(from: (250, 600), to: (300, 560))
        let resized = try #require(lectern.status.annotations.selected?.rect)
        #expect(abs(resized.minX - 50) < 2 && abs(resized.maxX - 300) < 2, "\(resized)")
        #expect(abs(resized.minY - 560) < 2 && abs(resized.maxY - 650) < 2, "\(resized)")
        #expect(setup.pixel(300, 620, dx: 1)?.masked == Self.accent, "the frame's right edge moved")
        lectern.advance(by: 31)
        #expect(lectern.wait { lectern.status.annotations.saves == 1 })
        let box = try #require(
            try PDFDocument(path: setup.document).annotations(page: 0).annotations.first { $0.subtype == "FreeText" })
        #expect(abs(box.rect.maxX - 300) < 2 && abs(box.rect.minY - 560) < 2, "saved in place: \(box.rect)")
    }

    @Test func aFailedSaveIsReportedAndLosesNothing() throws {
        // A directory under a regular file: no save can go there, even as root.
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lectern-blocker-\(UUID().uuidString)")
        try Data("x".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let setup = try Setup(
            policy: "[annotations]\nsave = \"copy\"\nsave-directory = \"\(blocker.path)/saved\"\n" + Self.idle)
        let lectern = setup.lectern
        setup.tap(310, 710)
        #expect(lectern.wait { lectern.status.annotations.fieldValues["agree"] == "Off" })
        lectern.advance(by: 31)
        #expect(lectern.wait { lectern.status.annotations.lastSaveError != nil })
        #expect(lectern.status.notice?.contains("could not be saved") == true)
        #expect(lectern.status.annotations.saves == 0)
        #expect(lectern.status.annotations.hasUnsavedChanges, "the visitor's changes are kept")
        #expect(lectern.status.annotations.fieldValues["agree"] == "Off")
        #expect(Self.isUntouched(setup.document))
        #expect(lectern.status.documentReloads == 0)
    }
}

extension UInt32 {
    /// The colour without its alpha.
    var masked: UInt32 { self & 0xFF_FFFF }
}
