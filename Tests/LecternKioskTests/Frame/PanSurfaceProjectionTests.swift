import LecternCore
import LecternRender
import LecternTestSupport
import Testing

@testable import LecternKiosk

/// The pages' surface decides whether a pan step only moves the viewport by comparing what two
/// scenes show in their windows (`PanSurface.projectsSame`), without making the projections.
@Suite("Pages on a subsurface: the projections compared")
struct PanSurfaceProjectionTests {
    static let colours = (0..<4).map { Color(red: UInt8(60 * $0), green: 100, blue: 200) }

    /// Pages one above the other, each of a few layers (tiles, some fractional), some clipped.
    static func pages(_ random: inout SplitMix64) -> [Scene.PageItem] {
        var pages: [Scene.PageItem] = []
        var top = Int.random(in: -600...0, using: &random)
        for page in 0..<Int.random(in: 0...4, using: &random) {
            let frame = PixelBox(
                x: Int.random(in: 0...40, using: &random), y: top, width: 600,
                height: Int.random(in: 300...800, using: &random))
            let clip =
                Bool.random(using: &random)
                ? frame : frame.intersection(PixelBox(x: 0, y: top + 50, width: 500, height: 2000))
            var layers: [Scene.Layer] = []
            for row in 0..<Int.random(in: 0...6, using: &random) {
                let fraction = Bool.random(using: &random) ? 0.5 : 0
                layers.append(
                    Scene.Layer(
                        .fill(colours[Int.random(in: 0..<colours.count, using: &random)]),
                        rect: Rect(
                            x: Double(frame.x) + fraction, y: Double(frame.y + row * 128), width: 300, height: 128)))
            }
            pages.append(Scene.PageItem(page: page, frame: frame, clip: clip, layers: layers))
            top += frame.height + Int.random(in: 0...20, using: &random)
        }
        return pages
    }

    /// `pages` moved by `dx`, `dy`, and sometimes changed (a layer, a page, a clip).
    static func moved(_ pages: [Scene.PageItem], dx: Int, dy: Int, _ random: inout SplitMix64) -> [Scene.PageItem] {
        var moved = pages.map {
            Scene.PageItem(
                page: $0.page, frame: $0.frame.offsetBy(dx: dx, dy: dy), clip: $0.clip.offsetBy(dx: dx, dy: dy),
                layers: $0.layers.map { $0.offsetBy(dx: dx, dy: dy) })
        }
        guard !moved.isEmpty else { return moved }
        let index = Int.random(in: 0..<moved.count, using: &random)
        switch Int.random(in: 0..<8, using: &random) {
        case 0: moved[index].layers = moved[index].layers.map { Scene.Layer(.fill(colours[0]), rect: $0.rect) }
        case 1: moved.remove(at: index)
        case 2: moved[index].clip.height -= 1
        case 3: moved[index].page += 1
        case 4: if !moved[index].layers.isEmpty { moved[index].layers[0].rect.origin.y += 1 }
        default: break
        }
        return moved
    }

    @Test("it says what comparing the projections says, for 20,000 pairs of scenes and windows")
    func sameAsProjections() {
        var random = SplitMix64(seed: 33)
        var equal = 0
        for _ in 0..<20_000 {
            let pages = Self.pages(&random)
            let (dx, dy) = (Int.random(in: -30...30, using: &random), Int.random(in: -300...300, using: &random))
            let other = Self.moved(pages, dx: dx, dy: dy, &random)
            let window = PixelBox(
                x: Int.random(in: 0...60, using: &random), y: Int.random(in: 0...300, using: &random), width: 640,
                height: 480)
            // Mostly the same window moved alike; sometimes another.
            let otherWindow =
                Bool.random(using: &random)
                ? window.offsetBy(dx: dx, dy: dy) : window.offsetBy(dx: 0, dy: Int.random(in: -20...20, using: &random))
            let expected =
                PanSurface.projected(pages, window: window) == PanSurface.projected(other, window: otherWindow)
            if expected { equal += 1 }
            #expect(PanSurface.projectsSame(pages, in: window, as: other, in: otherWindow) == expected)
        }
        // Both answers came up often.
        #expect(equal > 4_000 && equal < 16_000, "\(equal) equal")
    }
}
