@testable import LecternCore

/// A host with a real document view, text blocks by page and a chrome flag.
final class TestHost: InteractionHost {
    var documentView: DocumentView
    var blocks: [Int: [Rect]] = [:]
    var isUserInterfaceVisible = true
    /// Links by page, in page space.
    var links: [Int: [(rect: Rect, target: LinkTarget)]] = [:]
    var followed: [LinkTarget] = []
    /// The chrome follows a finger itself (a scrubber drag).
    var isChromeTrackingInput = false

    init(_ view: DocumentView) {
        documentView = view
    }

    func textBlocks(onPage page: Int) -> [Rect] { blocks[page] ?? [] }

    /// Characters by page, for text selection.
    var characters: [Int: PageCharacters] = [:]
    /// The settled selections the controller reported, in order.
    var reportedSelections: [TextSelection?] = []

    func pageCharacters(onPage page: Int) -> PageCharacters? { characters[page] }

    func textSelectionDidChange(_ selection: TextSelection?, isSettled: Bool) {
        if isSettled { reportedSelections.append(selection) }
    }

    func link(at point: Point, onPage page: Int) -> LinkTarget? {
        links[page]?.first { $0.rect.contains(point) }?.target
    }

    func follow(_ link: LinkTarget) {
        followed.append(link)
        if case .page(let page) = link { try? documentView.goToPage(page) }
    }

    /// Four 100 × 100 pages, one per 400 × 300 cell (each shown 300 × 300 at x 50).
    static func paged(binding: PageBinding = .leftEdge) -> TestHost {
        TestHost(
            DocumentView(
                pages: PageTable((0..<4).map { _ in page(100, 100) }),
                configuration: ViewConfiguration(
                    pageBinding: binding, scrollMode: .perSpread, scrollDirection: .horizontal, spacing: 20),
                viewportSize: Size(width: 400, height: 300)))
    }

    /// Ten 100 × 200 pages shown 400 × 800 each (4 px per point) in a 400 × 300 viewport.
    static func continuous() -> TestHost {
        TestHost(
            DocumentView(
                pages: PageTable((0..<10).map { _ in page(100, 200) }),
                configuration: ViewConfiguration(spacing: 0), viewportSize: Size(width: 400, height: 300)))
    }

    /// Ten 100 × 100 pages side by side, each 300 × 300 in a 400 × 300 viewport.
    static func continuousHorizontal(binding: PageBinding = .leftEdge) -> TestHost {
        TestHost(
            DocumentView(
                pages: PageTable((0..<10).map { _ in page(100, 100) }),
                configuration: ViewConfiguration(
                    pageBinding: binding, scrollMode: .continuous, scrollDirection: .horizontal, spacing: 0),
                viewportSize: Size(width: 400, height: 300)))
    }

    /// Runs the view's animations to their end.
    func settle(from time: Double) {
        var t = time
        while documentView.isAnimating && t < time + 30 {
            t += 1.0 / 60
            documentView.advanceAnimations(to: t)
        }
    }
}

extension InteractionController {
    @discardableResult
    func down(_ id: Int, _ x: Double, _ y: Double, at time: Double) -> Bool {
        handle(InputEvent(.touchDown(id: id, location: Point(x: x, y: y)), time: time))
    }

    @discardableResult
    func move(_ id: Int, _ x: Double, _ y: Double, at time: Double) -> Bool {
        handle(InputEvent(.touchMotion(id: id, location: Point(x: x, y: y)), time: time))
    }

    @discardableResult
    func up(_ id: Int, at time: Double) -> Bool {
        handle(InputEvent(.touchUp(id: id), time: time))
    }

    /// A quick one-finger tap; returns whether the lift changed the screen.
    @discardableResult
    func tap(_ x: Double, _ y: Double, at time: Double) -> Bool {
        down(0, x, y, at: time)
        return up(0, at: time + 0.05)
    }

    @discardableResult
    func key(_ key: Key, at time: Double) -> Bool {
        handle(InputEvent(.key(key, isRepeat: false), time: time))
    }
}
