import Foundation
import LecternCore
import LecternKiosk
import LecternPDF
import LecternTestSupport
import Synchronization
import Testing

/// Text selection through the test compositor with real touches: a long press selects the
/// word under the finger, its handles drag it by character across lines and pages, a tap away
/// clears it; selection.pdf (Tests/Fixtures/make-selection-fixtures) has Latin text on pages
/// 1–2 and a Hebrew line on page 3.
@Suite("Text selection through the test compositor")
struct TextSelectionTests {
    static let selection = LecternHarness.fixture("selection.pdf")

    /// The characters of `page` as the reader reads them (MuPDF, reading order).
    static func characters(_ page: Int) throws -> PageCharacters {
        try PDFDocument(path: selection).pageCharacters(page: page)
    }

    /// The screen point of `point` (page space of `page`), from where the last frame drew the page.
    static func screen(_ lectern: KioskHarness, page: Int, _ point: Point) throws -> (Double, Double) {
        let frame = try #require(lectern.status.pagesOnScreen.first { $0.page == page }?.frame)
        return (
            Double(frame.x) + point.x * Double(frame.width) / 420,
            Double(frame.y) + (595 - point.y) * Double(frame.height) / 595
        )
    }

    /// The centre of the word `word` on `page`, on screen.
    static func word(_ word: String, page: Int, in lectern: KioskHarness) throws -> (Double, Double) {
        let text = try characters(page)
        let all = text.text(in: 0...(text.count - 1)).replacingOccurrences(of: "\n", with: "")
        let start = try #require(all.range(of: word)).lowerBound
        let index = all.unicodeScalars.distance(from: all.unicodeScalars.startIndex, to: start)
        return try screen(lectern, page: page, text.characters[index + 1].rect.center)
    }

    /// A finger held still for 0.6 s (a long press), then lifted.
    static func longPress(_ lectern: KioskHarness, at point: (Double, Double)) {
        lectern.compositor.touchDown(id: 0, x: point.0, y: point.1)
        lectern.advanceWithoutSettling(by: 0.6)
        lectern.compositor.touchUp(id: 0)
        lectern.turn()
        lectern.settle()
    }

    /// Pixels of the selection colour (white paper multiplied by it) in the last frame.
    static func selectionPixels(_ lectern: KioskHarness) -> Int {
        guard let commit = lectern.lastCommit else { return 0 }
        var count = 0
        for y in stride(from: 0, to: commit.height, by: 2) {
            for x in stride(from: 0, to: commit.width, by: 2) where commit.pixel(x: x, y: y) & 0xFF_FFFF == 0x9C_C8FF {
                count += 1
            }
        }
        return count
    }

    /// Where the end handle's knob is for the current selection's last character.
    static func endHandle(_ lectern: KioskHarness, page: Int, index: Int) throws -> (Double, Double) {
        let rect = try characters(page).characters[index].rect
        let anchor = try screen(lectern, page: page, Point(x: rect.maxX, y: rect.minY))
        return (anchor.0, anchor.1 + 14)
    }

    @Test(
        "a long press selects the word under the finger, highlighted; a tap elsewhere clears it (MuPDF in process, and in the render worker)",
        arguments: [false, true])
    func longPressSelectsWord(inWorker: Bool) throws {
        let lectern = try KioskHarness([Self.selection] + ["--render-process", inWorker ? "on" : "off"])
        #expect(lectern.settle())
        #expect(Self.selectionPixels(lectern) == 0)
        Self.longPress(lectern, at: try Self.word("reads", page: 0, in: lectern))
        #expect(lectern.status.textSelection?.text == "reads")
        #expect(lectern.status.textSelection?.pages == 0...0)
        #expect(lectern.status.textSelection?.showsQRCodeButton == true)
        #expect(Self.selectionPixels(lectern) > 50, "the word is highlighted")
        // A tap on the page away from the selection clears it (and does not toggle the chrome).
        let chromeBefore = lectern.status.isUserInterfaceVisible
        let (x, y) = try Self.screen(lectern, page: 0, Point(x: 210, y: 200))
        lectern.tap(x: x, y: y)
        lectern.advance(by: 0.5)
        #expect(lectern.status.textSelection == nil)
        #expect(Self.selectionPixels(lectern) == 0, "the highlight is gone")
        #expect(lectern.status.isUserInterfaceVisible == chromeBefore)
        try lectern.stop()
    }

    @Test("dragging the end handle extends the selection by character across lines")
    func handleDragAcrossLines() throws {
        let lectern = try KioskHarness([Self.selection])
        #expect(lectern.settle())
        Self.longPress(lectern, at: try Self.word("reads", page: 0, in: lectern))
        #expect(lectern.status.textSelection?.text == "reads")
        let text = try Self.characters(0)
        let last = try #require(text.text(in: 0...(text.count - 1)).unicodeScalars.firstIndex(of: "s"))
        let lastIndex = text.text(in: 0...(text.count - 1)).unicodeScalars.distance(
            from: text.text(in: 0...(text.count - 1)).unicodeScalars.startIndex, to: last)
        let handle = try Self.endHandle(lectern, page: 0, index: lastIndex)
        // Onto the "i" of "kiosk" on the next line.
        let target = try Self.word("kiosk", page: 0, in: lectern)
        lectern.drag(from: handle, to: target)
        lectern.settle()
        #expect(lectern.status.textSelection?.text == "reads aloud\nquiet ki")
        #expect(lectern.status.viewState?.pageIndex == 0, "the handle drag did not scroll the document")
        try lectern.stop()
    }

    @Test("a handle is a finger-sized target (44 px): a finger near its outer corner still drags it")
    func handleTargetIsFingerSized() throws {
        let lectern = try KioskHarness([Self.selection])
        #expect(lectern.settle())
        Self.longPress(lectern, at: try Self.word("reads", page: 0, in: lectern))
        #expect(lectern.status.textSelection?.text == "reads")
        let rect = try Self.characters(0).characters[12].rect
        let anchor = try Self.screen(lectern, page: 0, Point(x: rect.maxX, y: rect.minY))
        // 28 px right of the stem and 34 px below the line: 44 px from the anchor, inside the
        // knob's 44-px target, off the knob itself.
        lectern.drag(from: (anchor.0 + 28, anchor.1 + 34), to: try Self.word("kiosk", page: 0, in: lectern))
        lectern.settle()
        #expect(lectern.status.textSelection?.text == "reads aloud\nquiet ki")
        try lectern.stop()
    }

    @Test("in continuous layout a handle drags the selection onto the next page")
    func handleDragAcrossPages() throws {
        let lectern = try KioskHarness([Self.selection, "--scroll", "continuous"])
        #expect(lectern.settle())
        let offset = lectern.status.contentOffset
        Self.longPress(lectern, at: try Self.word("here", page: 0, in: lectern))
        #expect(lectern.status.textSelection?.text == "here")
        let text = try Self.characters(0)
        let handle = try Self.endHandle(lectern, page: 0, index: text.count - 1)
        let target = try Self.word("page", page: 1, in: lectern)
        lectern.drag(from: handle, to: target)
        lectern.settle()
        #expect(lectern.status.textSelection?.pages == 0...1)
        #expect(lectern.status.textSelection?.text == "here\nsecond pa")
        #expect(lectern.status.contentOffset == offset, "the document did not move")
        try lectern.stop()
    }

    @Test("right-to-left text selects in reading order")
    func rightToLeftSelection() throws {
        let lectern = try KioskHarness([Self.selection, "--page", "3"])
        #expect(lectern.settle())
        let text = try Self.characters(2)
        // The first word in reading order ("שלום") is the rightmost on the page.
        let first = text.characters[1].rect.center
        Self.longPress(lectern, at: try Self.screen(lectern, page: 2, first))
        #expect(lectern.status.textSelection?.text == "\u{5E9}\u{5DC}\u{5D5}\u{5DD}")
        // Its end handle is at its left edge; dragged to the left end of the line, the
        // selection grows in reading order to the line's end.
        let end = text.characters[3].rect
        let handle = try Self.screen(lectern, page: 2, Point(x: end.minX, y: end.minY))
        let lineEnd = try Self.screen(lectern, page: 2, text.characters[text.count - 1].rect.center)
        lectern.drag(from: (handle.0, handle.1 + 14), to: (lineEnd.0 - 2, lineEnd.1))
        lectern.settle()
        #expect(lectern.status.textSelection?.text == "\u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{5E2}\u{5D5}\u{5DC}\u{5DD}")
        try lectern.stop()
    }

    @Test("an idle reset clears the selection")
    func idleResetClears() throws {
        let lectern = try KioskHarness([Self.selection, "--idle-reset", "5"])
        #expect(lectern.settle())
        Self.longPress(lectern, at: try Self.word("reads", page: 0, in: lectern))
        #expect(lectern.status.textSelection?.text == "reads")
        lectern.advance(by: 6)
        #expect(lectern.status.textSelection == nil)
        #expect(Self.selectionPixels(lectern) == 0, "the highlight is gone")
        try lectern.stop()
    }

    @Test("a false activation condition blocks selectText, and its callbacks do not run")
    func conditionBlocksSelectText() throws {
        let log = Mutex<[String]>([])
        let lectern = try KioskHarness([Self.selection]) { app in
            app.configureInteractions = { controller in
                controller.selectText.addActivationCondition { context, _, _ in
                    log.withLock { $0.append("condition: \(context.word)") }
                    return false
                }
                controller.selectText.addActivationCallback { _, _, _ in log.withLock { $0.append("callback") } }
            }
        }
        #expect(lectern.settle())
        Self.longPress(lectern, at: try Self.word("reads", page: 0, in: lectern))
        #expect(lectern.status.textSelection == nil)
        #expect(Self.selectionPixels(lectern) == 0)
        #expect(log.withLock { $0 } == ["condition: reads"])
        try lectern.stop()
    }

    @Test("the policy turns selectText off")
    func policyDisablesSelectText() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = directory.appendingPathComponent("policy.toml")
        try "[components]\nselectText = false\n".write(to: policy, atomically: true, encoding: .utf8)
        let lectern = try KioskHarness([Self.selection, "--config", policy.path])
        #expect(lectern.settle())
        Self.longPress(lectern, at: try Self.word("reads", page: 0, in: lectern))
        #expect(lectern.status.textSelection == nil)
        try lectern.stop()
    }
}

/// The selection offered to other clients through `wl_data_device`, read back through a real pipe.
@Suite("Text selection on wl_data_device")
struct TextSelectionClipboardTests {
    /// Reads `fd` to its end, turning the app (which writes it) in between; closes it.
    static func readAll(_ fd: Int32, _ lectern: KioskHarness) -> String? {
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 {
                return String(decoding: bytes, as: UTF8.self)
            } else {
                lectern.turn(wait: .milliseconds(1))
            }
        }
        return nil
    }

    @Test("the selected text is offered as the Wayland selection, and a paste reads it from the pipe")
    func selectionOffered() throws {
        let lectern = try KioskHarness([TextSelectionTests.selection], dataDevice: true)
        #expect(lectern.settle())
        #expect(lectern.compositor.selectionMimeTypes == nil)
        TextSelectionTests.longPress(lectern, at: try TextSelectionTests.word("reads", page: 0, in: lectern))
        #expect(lectern.status.textSelection?.text == "reads")
        let types = lectern.compositor.selectionMimeTypes
        #expect(types == ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain"])
        let serial = lectern.compositor.selectionSerial
        #expect(serial != nil && serial != 0, "set with the serial of the touch")
        // No #require: a test that throws leaves the app running (and crashes at its teardown).
        let pipe = lectern.compositor.requestSelection(mimeType: "text/plain;charset=utf-8")
        #expect(pipe != nil, "there is a selection to paste")
        if let pipe { #expect(Self.readAll(pipe, lectern) == "reads") }
        // A handle drag offers the text it settles on when the finger lifts.
        let text = try TextSelectionTests.characters(0)
        let handle = try TextSelectionTests.endHandle(lectern, page: 0, index: 12)
        lectern.drag(from: handle, to: try TextSelectionTests.word("kiosk", page: 0, in: lectern))
        lectern.settle()
        #expect(text.text(in: 8...12) == "reads", "index 12 is the end of \"reads\"")
        let dragged = lectern.compositor.requestSelection(mimeType: "text/plain")
        #expect(dragged != nil)
        if let dragged { #expect(Self.readAll(dragged, lectern) == "reads aloud\nquiet ki") }
        try lectern.stop()
    }

    @Test("a tap away withdraws the selection")
    func deselectWithdraws() throws {
        let lectern = try KioskHarness([TextSelectionTests.selection], dataDevice: true)
        #expect(lectern.settle())
        TextSelectionTests.longPress(lectern, at: try TextSelectionTests.word("aloud", page: 0, in: lectern))
        #expect(lectern.compositor.selectionMimeTypes != nil)
        let pipe = lectern.compositor.requestSelection(mimeType: "UTF8_STRING")
        #expect(pipe != nil, "there is a selection to paste")
        if let pipe { #expect(Self.readAll(pipe, lectern) == "aloud") }
        let (x, y) = try TextSelectionTests.screen(lectern, page: 0, Point(x: 210, y: 200))
        lectern.tap(x: x, y: y)
        lectern.advance(by: 0.5)
        #expect(lectern.status.textSelection == nil)
        #expect(lectern.compositor.selectionMimeTypes == nil, "the source was withdrawn")
        try lectern.stop()
    }
}

/// The selected text shown as a QR code that a real decoder (zbarimg) reads back.
@Suite("Text selection as a QR code", .serialized)
struct TextSelectionQRCodeTests {
    @Test("the QR-code button shows the selection as a QR code that decodes to it; a tap closes it")
    func qrCodeDecodesToSelection() throws {
        let lectern = try KioskHarness([TextSelectionTests.selection])
        #expect(lectern.settle())
        TextSelectionTests.longPress(lectern, at: try TextSelectionTests.word("aloud", page: 0, in: lectern))
        #expect(try QRCodeTests().decoded(lectern, "selection-qr-before") == "")
        let button = lectern.status.textSelection?.qrCodeButton
        #expect(button != nil, "the button shows")
        if let button { lectern.tap(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2)) }
        #expect(lectern.settle())
        #expect(try QRCodeTests().decoded(lectern, "selection-qr") == "aloud", "zbarimg reads the selection back")
        #expect(lectern.status.textSelection?.text == "aloud", "the button tap did not deselect")
        let (x, y) = try TextSelectionTests.screen(lectern, page: 0, Point(x: 210, y: 200))
        lectern.tap(x: x, y: y)
        #expect(lectern.settle())
        #expect(try QRCodeTests().decoded(lectern, "selection-qr-closed") == "", "a tap closes it")
        try lectern.stop()
    }

    @Test(
        "a pointer click on the QR-code button shows the QR code too (touch panels that are pointers); a click closes it"
    )
    func qrCodeByClick() throws {
        let lectern = try KioskHarness([TextSelectionTests.selection])
        #expect(lectern.settle())
        TextSelectionTests.longPress(lectern, at: try TextSelectionTests.word("aloud", page: 0, in: lectern))
        let button = try #require(lectern.status.textSelection?.qrCodeButton)
        #expect(lectern.compositor.pointerEnter(x: 10, y: 10))
        lectern.turn()
        lectern.click(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2))
        #expect(lectern.settle())
        #expect(lectern.status.textSelection?.text == "aloud", "the click did not deselect")
        #expect(try QRCodeTests().decoded(lectern, "selection-qr-click") == "aloud", "zbarimg reads the selection back")
        let (x, y) = try TextSelectionTests.screen(lectern, page: 0, Point(x: 210, y: 200))
        lectern.click(x: x, y: y)
        #expect(lectern.settle())
        #expect(try QRCodeTests().decoded(lectern, "selection-qr-click-closed") == "", "a click closes it")
        try lectern.stop()
    }
}
