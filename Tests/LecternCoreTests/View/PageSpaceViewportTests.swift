import Testing

@testable import LecternCore

/// The captured viewport is in PDF user space (origin bottom-left of the media box, y up),
/// honours /Rotate and the crop box's offset; the expected values are worked out by hand.
@Suite("Viewport in PDF page coordinates")
struct PageSpaceViewportTests {
    /// Crop box x 50…450, y 100…700 inside a 700 × 900 media box.
    static func page(rotation: Int) -> PageGeometry {
        try! PageGeometry(
            mediaBox: Rect(x: 0, y: 0, width: 700, height: 900),
            cropBox: Rect(x: 50, y: 100, width: 400, height: 600), rotation: rotation)
    }

    /// One page, continuous vertical, 800 × 600, no gaps or insets: the displayed page is
    /// fit to 800 px wide.
    static func view(rotation: Int) -> DocumentView {
        DocumentView(
            pages: PageTable([page(rotation: rotation)]), configuration: ViewConfiguration(spacing: 0),
            viewportSize: Size(width: 800, height: 600))
    }

    /// Zoom 2 about the top-left corner shows the top-left 800 × 600 px of the page at zoom 2:
    /// 200 × 150 display points upright (4 px/pt), 300 × 225 turned (600 pt wide → 8/3 px/pt).
    /// In the page's own terms the displayed top-left corner is
    /// - 0°: the crop box's top-left (50, 700);
    /// - 90° (turned clockwise): its bottom-left (50, 100), with display x running up PDF y;
    /// - 180°: its bottom-right (450, 100);
    /// - 270°: its top-right (450, 700), with display x running down PDF y.
    @Test(arguments: [
        (0, Rect(x: 50, y: 550, width: 200, height: 150)),
        (90, Rect(x: 50, y: 100, width: 225, height: 300)),
        (180, Rect(x: 250, y: 100, width: 200, height: 150)),
        (270, Rect(x: 225, y: 400, width: 225, height: 300)),
    ])
    func zoomedInTopLeftCorner(rotation: Int, expected: Rect) throws {
        var v = Self.view(rotation: rotation)
        v.zoom(to: 2, about: .zero)
        #expect(v.contentOffset == .zero && v.zoomScale == 2)
        let state = v.viewState()
        #expect(state.pageIndex == 0)
        let viewport = try #require(state.viewport)
        #expect(cornerDistance(viewport, expected) < 1e-9, "\(viewport)")

        // The crop box's displayed top-left corner is at the view's top-left corner.
        let corner: Point =
            switch rotation {
            case 90: Point(x: 50, y: 100)
            case 180: Point(x: 450, y: 100)
            case 270: Point(x: 450, y: 700)
            default: Point(x: 50, y: 700)
            }
        #expect(v.convert(corner, from: .page(0), to: .view).distance(to: .zero) < 1e-9)

        // Restoring the hand-computed viewport gives the same view.
        var other = Self.view(rotation: rotation)
        try other.restore(ViewState(pageIndex: 0, viewport: expected))
        #expect(abs(other.zoomScale - 2) < 1e-9 && other.contentOffset.distance(to: .zero) < 1e-9)
    }

    /// Zoom 4 about the view's centre, at the middle of the page: the viewport is centred on
    /// the crop box's centre (250, 400) whatever the rotation, 100 display points wide.
    @Test(arguments: [0, 90, 180, 270])
    func zoomedInAtTheCentreOfThePage(rotation: Int) throws {
        var v = Self.view(rotation: rotation)
        let centre = v.convert(Point(x: 250, y: 400), from: .page(0), to: .view)
        v.zoom(to: 4, about: centre)
        v.scroll(by: centre - v.viewBounds.center)
        let viewport = try #require(v.viewState().viewport)
        #expect(viewport.center.distance(to: Point(x: 250, y: 400)) < 1e-9)
        let displayWidth = rotation % 180 == 0 ? 400.0 : 600.0
        let expectedWidth = displayWidth / 4, expectedHeight = expectedWidth * 600 / 800
        // Turned a quarter, the displayed width runs along PDF y.
        let (w, h) = rotation % 180 == 0 ? (viewport.width, viewport.height) : (viewport.height, viewport.width)
        #expect(abs(w - expectedWidth) < 1e-9 && abs(h - expectedHeight) < 1e-9)
    }

    /// Not zoomed in there is no viewport; zoomed out to below 1 there is none either.
    @Test func noViewportUnlessZoomedIn() throws {
        var v = DocumentView(
            pages: PageTable([Self.page(rotation: 90)]),
            configuration: ViewConfiguration(spacing: 0, minimumZoomScale: 0.5),
            viewportSize: Size(width: 800, height: 600))
        #expect(v.viewState() == ViewState(pageIndex: 0))
        v.zoom(to: 0.5, about: Point(x: 400, y: 300))
        #expect(v.zoomScale == 0.5 && v.viewState() == ViewState(pageIndex: 0))
        v.zoom(to: 1.01, about: Point(x: 400, y: 300))
        #expect(v.viewState().viewport != nil)
    }

    /// The mirror's viewport grows about the centre in the displayed frame: for the 300 × 225
    /// display-point viewport above, a 2:1 mirror shows 450 × 225 display points, X −75…375.
    @Test(arguments: [
        (90, Rect(x: 50, y: 100, width: 225, height: 300), Rect(x: 50, y: 25, width: 225, height: 450)),
        (270, Rect(x: 225, y: 400, width: 225, height: 300), Rect(x: 225, y: 325, width: 225, height: 450)),
        (0, Rect(x: 50, y: 550, width: 200, height: 150), Rect(x: 0, y: 550, width: 300, height: 150)),
    ])
    func mirrorStateGrowsTheDisplayedWidth(rotation: Int, viewport: Rect, expected: Rect) throws {
        let state = ViewState(pageIndex: 0, viewport: viewport)
        let mirrored = state.aspectFitMirrorState(page: Self.page(rotation: rotation), mirrorAspectRatio: 2)
        #expect(cornerDistance(try #require(mirrored.viewport), expected) < 1e-9)
        #expect(state.aspectFitMirrorState(page: Self.page(rotation: rotation), mirrorAspectRatio: 1) == state)

        // Restored on a 1600 × 800 mirror (about the page's centre, so that no bound clamps),
        // it shows all the presenter shows: the same centre and height, twice as wide.
        let geometry = Self.page(rotation: rotation)
        let displayed = geometry.pageToDisplay.apply(to: viewport)
        let centred = geometry.displayToPage.apply(
            to: Rect(
                x: geometry.displaySize.width / 2 - displayed.width / 2,
                y: geometry.displaySize.height / 2 - displayed.height / 2, width: displayed.width,
                height: displayed.height))
        #expect(centred.center.distance(to: Point(x: 250, y: 400)) < 1e-9)
        var mirror = DocumentView(
            pages: PageTable([geometry]), configuration: ViewConfiguration(spacing: 0),
            viewportSize: Size(width: 1600, height: 800))
        let presenter = ViewState(pageIndex: 0, viewport: centred)
        try mirror.restore(mirror.aspectFitMirrorState(presenter, mirrorViewportSize: mirror.viewportSize))
        let shown = geometry.pageToDisplay.apply(to: try #require(mirror.viewState().viewport))
        #expect(shown.center.distance(to: geometry.pageToDisplay.apply(to: centred).center) < 1e-9)
        #expect(abs(shown.height - displayed.height) < 1e-9 && abs(shown.width - 2 * displayed.height) < 1e-9)
    }
}
