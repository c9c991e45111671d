import Foundation
import LecternCore
import LecternRender
import Testing

/// Issue 32: the operator's panel, off by default: the document's facts, its binding changed by
/// a tap and saved as `[annotations] save` says.
@Suite("The operator's panel", .serialized)
struct OperatorPanelTests {
    /// Where row `index` of the panel is on a 1280 × 720 screen.
    static func row(_ index: Int) -> (x: Double, y: Double) {
        let box = Scene.OutlinePanel.box(width: 1280, height: 720)
        let height = Scene.OutlinePanel.rowHeight(.standard)
        return (Double(box.x + 40), Double(box.y + index * height + height / 2))
    }

    @Test("off by default: its key and corner taps do nothing")
    func offByDefault() throws {
        let setup = try AnnotationsOnScreenTests.Setup()
        let lectern = setup.lectern
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.f12)
        for _ in 0..<5 { lectern.tap(x: 10, y: 10) }
        lectern.advance(by: 0.5)
        #expect(lectern.status.operatorPanel == nil)
    }

    @Test("its key opens it; a tap on Binding reads right to left, Save keeps it in the file, a tap outside closes it")
    func bindingChangedAndSaved() throws {
        let setup = try AnnotationsOnScreenTests.Setup(
            policy: "[annotations]\nsave = \"in-place\"\n[operator]\npanel-keys = [\"F12\"]\n")
        let lectern = setup.lectern
        #expect(lectern.enableKeyboard())
        lectern.press(LecternHarness.Key.f12)
        let rows = try #require(lectern.status.operatorPanel)
        #expect(rows.contains("File: form.pdf"), "\(rows)")
        #expect(rows.contains("Binding: left to right") && rows.contains("Save: in place") && rows.last == "Close")
        #expect(!lectern.status.readsRightToLeft)
        // A tap on the Binding row.
        let binding = try #require(rows.firstIndex(of: "Binding: left to right"))
        lectern.tap(x: Self.row(binding).x, y: Self.row(binding).y)
        #expect(lectern.wait { lectern.status.readsRightToLeft }, "the view reads right to left")
        #expect(lectern.status.operatorPanel?.contains("Binding: right to left") == true)
        // Save: in place, as the policy says.
        lectern.tap(x: Self.row(binding + 1).x, y: Self.row(binding + 1).y)
        #expect(lectern.status.notice == "Saved.")
        #expect(lectern.wait { lectern.status.annotations.saves == 1 })
        // A tap outside closes it, and does nothing else.
        let page = lectern.dominantPage
        lectern.tap(x: 1240, y: 400)
        lectern.advance(by: 0.5)
        #expect(lectern.status.operatorPanel == nil && lectern.dominantPage == page)
        // The file says right to left now.
        let again = try KioskHarness([setup.document])
        #expect(again.settle())
        #expect(again.status.readsRightToLeft, "the saved file's /Direction")
        try again.stop()
    }

    @Test("three quick taps in the top left corner open it; slower ones do not; the idle reset closes it")
    func cornerTaps() throws {
        let setup = try AnnotationsOnScreenTests.Setup(
            policy: "[operator]\npanel-taps = 3\n" + AnnotationsOnScreenTests.idle)
        let lectern = setup.lectern
        for _ in 0..<2 {
            lectern.tap(x: 10, y: 10)
            lectern.advance(by: 0.2)
        }
        lectern.advance(by: 1)
        lectern.tap(x: 10, y: 10)
        #expect(lectern.status.operatorPanel == nil, "the third came too late")
        for _ in 0..<2 {
            lectern.advance(by: 0.2)
            lectern.tap(x: 10, y: 10)
        }
        #expect(lectern.status.operatorPanel != nil, "three in a row")
        lectern.advance(by: 31)
        #expect(lectern.status.operatorPanel == nil, "the idle reset closed it")
    }
}
