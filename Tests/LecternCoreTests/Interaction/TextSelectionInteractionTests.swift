import Testing

@testable import LecternCore

/// selectText and deselectText: a long press selects the word, a tap away clears it, the
/// handles drag it; integrators' `tryTo…` actions and `isEnabled`.
@Suite("Text selection interactions")
struct TextSelectionInteractionTests {
    /// Page 0 (shown 300 × 300 at x 50, 3 px per point) holds "ab cd" on one line: 10 points a
    /// character from page x 10, y 50–60.
    func host() -> (TestHost, InteractionController) {
        let host = TestHost.paged()
        host.isUserInterfaceVisible = false
        let line = "ab cd".unicodeScalars.enumerated().map { index, scalar in
            PageCharacter(
                scalar: scalar.value, rect: Rect(x: 10 + Double(index) * 10, y: 50, width: 10, height: 10), line: 0,
                block: 0)
        }
        host.characters[0] = PageCharacters(drawn: line)
        return (host, InteractionController(host: host))
    }

    @Test func longPressSelectsTheWordAndATapAwayClearsIt() {
        let (host, controller) = host()
        // Page (45, 55), in "cd", is view (50 + 135, 300 − 165) = (185, 135).
        controller.down(0, 185, 135, at: 1)
        controller.tick(now: 1.6)
        controller.up(0, at: 1.7)
        #expect(controller.selectedText == "cd")
        #expect(host.reportedSelections.count == 1)
        controller.tap(200, 250, at: 3)
        controller.tick(now: 4)
        #expect(controller.textSelection == nil)
        #expect(!host.isUserInterfaceVisible, "the tap cleared the selection and did not toggle the chrome")
    }

    @Test func theEndHandleDragsByCharacter() {
        let (host, controller) = host()
        #expect(controller.tryToSelectText(at: Point(x: 15, y: 55), in: .page(0)))
        #expect(controller.selectedText == "ab")
        #expect(host.reportedSelections.count == 1)
        // The end handle's anchor is the bottom right of "b": page (30, 50), view (140, 150).
        let anchor = host.documentView.convert(Point(x: 30, y: 50), from: .page(0), to: .view)
        controller.down(0, anchor.x, anchor.y + 14, at: 1)
        // To page x 53 (view 210), inside "d".
        for step in 1...7 { controller.move(0, anchor.x + Double(step) * 10, anchor.y, at: 1 + Double(step) / 60) }
        controller.up(0, at: 2)
        #expect(controller.selectedText == "ab cd")
        #expect(host.reportedSelections.count == 2, "the selection settled twice: the word, then the lift")
        #expect(host.documentView.contentOffset == .zero, "the document did not move")
    }

    @Test func integratorsActionsAndIsEnabled() {
        let (host, controller) = host()
        defer { withExtendedLifetime(host) {} }  // the controller holds its host weakly
        #expect(!controller.tryToSelectText(at: Point(x: 90, y: 90), in: .page(0)), "no text there")
        #expect(!controller.tryToDeselectText(at: Point(x: 90, y: 90), in: .page(0)), "nothing selected")
        #expect(controller.tryToSelectText(at: Point(x: 15, y: 55), in: .page(0)))
        #expect(!controller.tryToDeselectText(at: Point(x: 15, y: 55), in: .page(0)), "on the selection")
        #expect(controller.tryToDeselectText(at: Point(x: 90, y: 90), in: .page(0)))
        #expect(controller.textSelection == nil)
        controller.selectText.isEnabled = false
        controller.down(0, 185, 135, at: 1)
        controller.tick(now: 1.6)
        controller.up(0, at: 1.7)
        #expect(controller.textSelection == nil, "a disabled selectText does not act")
    }

    /// Drags the end handle of the selection "ab" to the middle of "d".
    func dragEndHandle(_ host: TestHost, _ controller: InteractionController) {
        let anchor = host.documentView.convert(Point(x: 30, y: 50), from: .page(0), to: .view)
        controller.down(0, anchor.x, anchor.y + 14, at: 1)
        for step in 1...7 { controller.move(0, anchor.x + Double(step) * 10, anchor.y, at: 1 + Double(step) / 60) }
        controller.up(0, at: 2)
    }

    @Test(
        "a handle drag is selectText's: a false condition or isEnabled off keeps the selection, callbacks see the handle"
    )
    func handleDragsAreSelectTexts() {
        for refusal in ["condition", "disabled"] {
            let (host, controller) = host()
            #expect(controller.tryToSelectText(at: Point(x: 15, y: 55), in: .page(0)))
            if refusal == "condition" {
                controller.selectText.addActivationCondition { context, _, _ in context.handle == nil }
            } else {
                controller.selectText.isEnabled = false
            }
            dragEndHandle(host, controller)
            #expect(controller.selectedText == "ab", "\(refusal): the handle did not move")
        }
        let (host, controller) = host()
        #expect(controller.tryToSelectText(at: Point(x: 15, y: 55), in: .page(0)))
        var grabbed: [TextSelectionHandle?] = []
        controller.selectText.addActivationCallback { context, _, _ in grabbed.append(context.handle) }
        dragEndHandle(host, controller)
        #expect(controller.selectedText == "ab cd")
        #expect(grabbed == [.end], "the callback ran once, for the end handle")
    }
}
