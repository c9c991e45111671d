import Foundation
import LecternTestSupport
import Testing

/// The document view's layouts as they reach the screen: checked by the colours of
/// colors-8pages.pdf in the committed pixels.
@Suite("Layouts on screen", .serialized)
struct LayoutOnScreenTests {
    let document = LecternHarness.fixture("colors-8pages.pdf")

    @Test("in a double spread the first page of the pair is on the left under left-edge binding")
    func leftEdgeBinding() throws {
        let lectern = try KioskHarness([document, "--spreads", "double", "--binding", "left"])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640 - 120, y: 360) == 1, "page 1 on the left")
        #expect(lectern.page(atX: 640 + 120, y: 360) == 2, "page 2 on the right")
        try lectern.stop()
    }

    @Test("in a double spread the first page of the pair is on the right under right-edge binding")
    func rightEdgeBinding() throws {
        let lectern = try KioskHarness([document, "--spreads", "double", "--binding", "right", "--page", "3"])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640 + 120, y: 360) == 3, "page 3 on the right")
        #expect(lectern.page(atX: 640 - 120, y: 360) == 4, "page 4 on the left")
        try lectern.stop()
    }

    @Test("cover spreads put the first page alone, then pairs")
    func coverSpreads() throws {
        let lectern = try KioskHarness([document, "--spreads", "cover", "--page", "2"])
        #expect(lectern.settle())
        #expect(lectern.page(atX: 640 - 120, y: 360) == 2)
        #expect(lectern.page(atX: 640 + 120, y: 360) == 3)
        try lectern.stop()
    }

    @Test("continuous vertical scrolling shows the start page with the next one below it")
    func continuousVertical() throws {
        let lectern = try KioskHarness(
            [document, "--scroll", "continuous", "--direction", "vertical", "--page", "4"], width: 600, height: 1200)
        #expect(lectern.settle())
        #expect(lectern.pages(alongColumn: 100) == [4, 5], "page 4 at the top, page 5 below")
        #expect(lectern.dominantPage == 4)
        try lectern.stop()
    }

    @Test("continuous horizontal scrolling under right-edge binding runs right to left")
    func continuousHorizontalRightToLeft() throws {
        let lectern = try KioskHarness(
            [document, "--scroll", "continuous", "--direction", "horizontal", "--binding", "right", "--page", "4"],
            width: 1280, height: 500)
        #expect(lectern.settle())
        let row = lectern.pages(alongRow: 400)
        #expect(row.count >= 3 && row == row.sorted(by: >), "pages run right to left: \(row)")
        #expect(row.contains(4) && row.contains(5))
        #expect(lectern.dominantPage == 4)
        try lectern.stop()
    }

    @Test("a resize keeps the dominant page")
    func resizeKeepsDominantPage() throws {
        let lectern = try KioskHarness(
            [document, "--scroll", "continuous", "--direction", "vertical", "--page", "6"], width: 1280, height: 720)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 6)
        lectern.compositor.configure(width: 720, height: 1280)
        #expect(lectern.wait { lectern.lastCommit?.width == 720 })
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 6, "view state after the resize: \(lectern.viewState ?? "none")")
        #expect(lectern.page(atX: 360, y: 640) == 6)
        try lectern.stop()
    }
}
