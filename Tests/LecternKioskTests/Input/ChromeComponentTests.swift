import LecternCore
import LecternKiosk
import LecternRender
import LecternTestSupport
import Testing

/// Issue 32: the app's own controls are interaction components too: an integrator's condition
/// or the policy's `[components]` keeps a title bar button, a thumbnail, the scrubber or
/// pinch-to-grid from acting, and callbacks see them act.
@Suite("The chrome's controls as interaction components")
struct ChromeComponentTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    @Test("conditions refuse the Pages button, page 6's thumbnail and the scrubber; callbacks hear the rest")
    func conditionsRefuseControls() throws {
        var heard: [String] = []
        let lectern = try KioskHarness([Self.colors]) {
            $0.configureInteractions = { controller in
                controller.chromeButton.addActivationCondition { context, _, _ in context.control != "pages" }
                controller.thumbnail.addActivationCondition { context, _, _ in context.page != 5 }
                controller.scrubber.addActivationCondition { _, _, _ in false }
                for component in [controller.chromeButton, controller.thumbnail] {
                    component.addActivationCallback { context, _, _ in
                        heard.append("\(context.control) \(context.page.map(String.init) ?? "")")
                    }
                }
            }
        }
        #expect(lectern.settle())
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.navigation.isThumbnailBarShown)
        // Pages: refused, no grid.
        let pages = Scene.Chrome.buttonBox(0)
        lectern.tap(x: Double(pages.x + 20), y: Double(pages.y + 20))
        #expect(lectern.settle())
        #expect(!lectern.status.navigation.isGridOpen, "the Pages button was refused")
        // Page 6's thumbnail: refused; page 4's goes there.
        let groups = ThumbnailBarTests.groups(lectern)
        let six = try #require(groups.first { $0.pages == [6] })
        lectern.tap(x: Double(six.from + 10), y: Double(ThumbnailBarTests.row + 30))
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 1, "page 6's thumbnail was refused")
        let four = try #require(groups.first { $0.pages == [4] })
        lectern.tap(x: Double(four.from + 10), y: Double(ThumbnailBarTests.row + 30))
        #expect(lectern.waitForPage(4))
        #expect(heard == ["thumbnailBar 3"], "\(heard)")
        // The scrubber: refused, the page stays.
        let end = ChromeTests.track(1)
        lectern.tap(x: end.x, y: end.y)
        #expect(lectern.settle())
        #expect(lectern.dominantPage == 4, "the scrubber was refused")
        try lectern.stop()
    }

    @Test("[components] pinchToGrid = false: a pinch no longer opens all pages")
    func pinchToGridOff() throws {
        let policy = try PolicyTests.PolicyDirectory(
            "document = \"\(Self.colors)\"\n[components]\npinchToGrid = false\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        lectern.pinchTogether()
        #expect(lectern.settle())
        #expect(!lectern.status.navigation.isGridOpen)
        try lectern.stop()
    }
}
