import LecternCore
import LecternRender
import LecternWayland
import Logging

/// The reader's pages on a subsurface below the window, drawn with a margin around the window,
/// so that a pan or a fling that stays within the margin only moves the subsurface's viewport
/// (`ContentSurface`): nothing is drawn, copied or attached. The window's own buffer holds the
/// chrome (title bar and scrubber) over transparent pixels, redrawn only when the chrome changes.
///
/// The pages are drawn again (only what changed, as always) when the view leaves the margin, a
/// tile arrives, the zoom changes or anything else about the pages does: the frame shows what it
/// would show drawn whole (`showsSame`). Used where the compositor offers `wl_subcompositor` and
/// `wp_viewporter`, at scale 1, for frames of pages and chrome alone (`isEligible`); any other
/// frame (a page curl or slide transition, overlays, a banner, the accessibility panel, large
/// print, the shelf, a lowered reading area) is drawn as one buffer as before.
final class PanSurface {
    private let content: ContentSurface
    private let contentPool: ShmBufferPool
    private let chromePool: ShmBufferPool
    private let contentCompositor: FrameCompositor
    private let chromeCompositor: FrameCompositor
    /// The pages in the content buffer on screen, and where the window's top left corner is in it.
    private var drawn: Scene?
    private var origin = (x: 0, y: 0)
    /// Whether the last frame was drawn this way (else the window's buffer is a whole frame).
    private(set) var isActive = false
    /// Whether the window shows one transparent pixel, not a buffer of chrome (`commitClear`).
    private(set) var isClear = false
    /// The window's size in pixels while the frame is shown this way.
    private(set) var screenSize: (width: Int, height: Int)?
    /// The buffers on screen (weak: their pools free them).
    private(set) weak var contentBuffer: ShmBuffer?
    private(set) weak var chromeBuffer: ShmBuffer?
    /// Frames that only moved the viewport (nothing attached), and content buffers attached.
    private(set) var moves = 0
    private(set) var contentDraws = 0

    init?(window: XdgToplevel, display: Display, logger: Logger) {
        guard display.offersContentSurfaces, let content = window.makeContentSurface() else { return nil }
        self.content = content
        contentPool = display.makeBufferPool()
        chromePool = display.makeBufferPool(hasAlpha: true)
        contentCompositor = FrameCompositor(logger: logger)
        chromeCompositor = FrameCompositor(logger: logger)
    }

    /// The pixels drawn around a `width`×`height` window on each side.
    static func margin(width: Int, height: Int) -> (x: Int, y: Int) { (width / 4, height / 4) }

    /// Whether `scene` (a window's frame) is only pages and chrome at scale 1. The accessibility
    /// button (not its panel) is chrome too: its disc's antialiased edge is one `OVER` of the
    /// button's colour, the same arithmetic whether pixman does it into the frame or a compositor
    /// blends the chrome's premultiplied pixels over the pages.
    static func isEligible(_ scene: Scene) -> Bool {
        scene.scale == .one && scene.transition == nil && scene.curl == nil && scene.largePrint == nil
            && scene.overlays == Scene.Overlays() && scene.textSelection == nil && scene.accessibility?.rows == nil
            && scene.message == nil && scene.banner == nil && scene.qrCode == nil && scene.labels.isEmpty
            && !scene.pages.isEmpty
    }

    /// `scene` (planned with a margin) cut to its window: each page's clip within the window,
    /// pages and layers outside it dropped. Drawn, the same pixels as the scene of a plan
    /// without a margin.
    static func windowScene(_ scene: Scene) -> Scene {
        var cut = scene
        cut.pages = projected(scene.pages, window: PixelBox(x: 0, y: 0, width: scene.width, height: scene.height))
        cut.shadows = scene.shadows.compactMap { shadow in
            let clip = shadow.clip.intersection(PixelBox(x: 0, y: 0, width: scene.width, height: scene.height))
            return clip.isEmpty ? nil : Scene.Shadow(frame: shadow.frame, clip: clip)
        }
        return cut
    }

    /// The pages of a frame as they show in `window`, in the window's coordinates: each page's
    /// clip cut to the window, the layers that show in it; pages that do not show dropped.
    static func projected(_ pages: [Scene.PageItem], window: PixelBox) -> [Scene.PageItem] {
        pages.compactMap { page in
            let (clip, visible) = cut(page, to: window)
            guard !visible.isEmpty else { return nil }
            let layers = page.layers.filter { shows($0, in: visible) }
            return Scene.PageItem(
                page: page.page, frame: page.frame.offsetBy(dx: -window.x, dy: -window.y),
                clip: clip.offsetBy(dx: -window.x, dy: -window.y),
                layers: layers.map { $0.offsetBy(dx: -window.x, dy: -window.y) })
        }
    }

    /// The shadows as they show in `window` (the boxes drawn), in its coordinates.
    static func projectedShadows(_ shadows: [Scene.Shadow], window: PixelBox) -> [PixelBox] {
        shadows.compactMap { shadow in
            let box = shadow.frame.offsetBy(dx: 3, dy: 4).intersection(shadow.clip).intersection(window)
            return box.isEmpty ? nil : box.offsetBy(dx: -window.x, dy: -window.y)
        }
    }

    /// A page's clip cut to `window`, and the part of the page that shows there (empty: the
    /// page does not show, and a projection drops it).
    private static func cut(_ page: Scene.PageItem, to window: PixelBox) -> (clip: PixelBox, visible: PixelBox) {
        let clip = page.clip.intersection(window)
        return (clip, page.frame.intersection(clip))
    }

    /// Whether `layer` shows in a page's `visible` box (else a projection drops it).
    private static func shows(_ layer: Scene.Layer, in visible: PixelBox) -> Bool {
        !PixelBox(enclosing: layer.rect).intersection(visible).isEmpty
    }

    /// Whether `window` of `drawn` shows what `window` of `next` does: the same pages, layers,
    /// shadows and colours, each at the same place relative to the window.
    static func showsSame(_ drawn: Scene, at origin: PixelBox, as next: Scene, at window: PixelBox) -> Bool {
        drawn.palette == next.palette && projectsSame(drawn.pages, in: origin, as: next.pages, in: window)
            && projectedShadows(drawn.shadows, window: origin) == projectedShadows(next.shadows, window: window)
    }

    /// Whether `projected(pages, window: window)` equals `projected(other, window: otherWindow)`,
    /// found without making either: a pan step compares every layer of the pages around the
    /// window (hundreds of tiles), and the projections' arrays were most of its cost.
    static func projectsSame(
        _ pages: [Scene.PageItem], in window: PixelBox, as other: [Scene.PageItem], in otherWindow: PixelBox
    ) -> Bool {
        var (index, otherIndex) = (pages.startIndex, other.startIndex)
        while true {
            index = firstShown(pages, from: index, in: window)
            otherIndex = firstShown(other, from: otherIndex, in: otherWindow)
            guard index < pages.endIndex, otherIndex < other.endIndex else {
                return index == pages.endIndex && otherIndex == other.endIndex
            }
            guard projectsSame(pages[index], in: window, as: other[otherIndex], in: otherWindow) else { return false }
            index += 1
            otherIndex += 1
        }
    }

    /// The first page from `start` that shows in `window` (as `projected` keeps it), or the end.
    static func firstShown(_ pages: [Scene.PageItem], from start: Int, in window: PixelBox) -> Int {
        pages[start...].firstIndex { !cut($0, to: window).visible.isEmpty } ?? pages.endIndex
    }

    /// Whether one page projected in `window` equals another projected in `otherWindow`.
    private static func projectsSame(
        _ page: Scene.PageItem, in window: PixelBox, as other: Scene.PageItem, in otherWindow: PixelBox
    ) -> Bool {
        let (clip, visible) = cut(page, to: window)
        let (otherClip, otherVisible) = cut(other, to: otherWindow)
        guard page.page == other.page,
            page.frame.offsetBy(dx: -window.x, dy: -window.y)
                == other.frame.offsetBy(dx: -otherWindow.x, dy: -otherWindow.y),
            clip.offsetBy(dx: -window.x, dy: -window.y) == otherClip.offsetBy(dx: -otherWindow.x, dy: -otherWindow.y)
        else { return false }
        let shift = Point(x: Double(-window.x), y: Double(-window.y))
        let otherShift = Point(x: Double(-otherWindow.x), y: Double(-otherWindow.y))
        var (index, otherIndex) = (page.layers.startIndex, other.layers.startIndex)
        while true {
            while index < page.layers.endIndex, !shows(page.layers[index], in: visible) { index += 1 }
            while otherIndex < other.layers.endIndex, !shows(other.layers[otherIndex], in: otherVisible) {
                otherIndex += 1
            }
            guard index < page.layers.endIndex, otherIndex < other.layers.endIndex else {
                return index == page.layers.endIndex && otherIndex == other.layers.endIndex
            }
            let (layer, otherLayer) = (page.layers[index], other.layers[otherIndex])
            guard layer.source == otherLayer.source,
                layer.rect.offsetBy(shift) == otherLayer.rect.offsetBy(otherShift)
            else { return false }
            index += 1
            otherIndex += 1
        }
    }

    /// The content frame: `scene`'s pages and shadows moved by `margin`, in a scene that large
    /// around the window.
    static func contentScene(_ scene: Scene, margin: (x: Int, y: Int)) -> Scene {
        var content = Scene(width: scene.width + 2 * margin.x, height: scene.height + 2 * margin.y)
        content.palette = scene.palette
        content.metrics = scene.metrics
        content.pages = scene.pages.map { page in
            Scene.PageItem(
                page: page.page, frame: page.frame.offsetBy(dx: margin.x, dy: margin.y),
                clip: page.clip.offsetBy(dx: margin.x, dy: margin.y),
                layers: page.layers.map { $0.offsetBy(dx: margin.x, dy: margin.y) })
        }
        content.shadows = scene.shadows.map {
            Scene.Shadow(
                frame: $0.frame.offsetBy(dx: margin.x, dy: margin.y), clip: $0.clip.offsetBy(dx: margin.x, dy: margin.y)
            )
        }
        return content
    }

    /// Where in `drawn` the window would show what it shows at `window` in `next`, without a
    /// new drawing (nil: nowhere; the pages must be drawn again).
    static func origin(in drawn: Scene, showing next: Scene, at window: PixelBox) -> PixelBox? {
        let shown = firstShown(next.pages, from: next.pages.startIndex, in: window)
        guard drawn.width == next.width, drawn.height == next.height, shown < next.pages.endIndex,
            case let first = next.pages[shown], let before = drawn.pages.first(where: { $0.page == first.page })
        else { return nil }
        // The page's frame in the window now, and where the same frame is in the drawing.
        let candidate = PixelBox(
            x: before.frame.x - (first.frame.x - window.x), y: before.frame.y - (first.frame.y - window.y),
            width: window.width, height: window.height)
        guard candidate.x >= 0, candidate.y >= 0, candidate.maxX <= drawn.width, candidate.maxY <= drawn.height,
            showsSame(drawn, at: candidate, as: next, at: window)
        else { return nil }
        return candidate
    }

    /// What became of a frame: whether anything was committed, and whether every buffer was busy.
    struct Outcome {
        var committed = false
        var allBusy = false
    }

    /// Shows `scene` (a frame planned with `margin`, its pages beyond the window): moves the
    /// viewport when the content buffer holds the pages, else draws them; draws the chrome if it
    /// changed; commits the content surface and `window` (`presented`: as `XdgToplevel.commit`).
    func commit(
        _ scene: Scene, margin: (x: Int, y: Int), window: XdgToplevel, presented: ((Presented?) -> Void)?,
        logger: Logger
    ) -> Outcome {
        if !isActive {
            contentCompositor.forgetLastScene()
            chromeCompositor.forgetLastScene()
            drawn = nil
        }
        let next = Self.contentScene(scene, margin: margin)
        let home = PixelBox(x: margin.x, y: margin.y, width: scene.width, height: scene.height)
        var place = drawn.flatMap { Self.origin(in: $0, showing: next, at: home) }
        var newContent: ShmBuffer?
        var contentDamage: [PixelBox] = []
        if place == nil {
            switch Self.draw(next, with: contentCompositor, from: contentPool, naming: "page", logger: logger) {
            case .failed(let outcome): return outcome
            case .drawn(let buffer, let damage): (newContent, contentDamage) = (buffer, damage)
            }
            drawn = next
            place = home
        }
        var chrome = scene
        chrome.pages = []
        chrome.shadows = []
        chrome.palette.background = chrome.palette.background.withAlpha(0)
        var newChrome: ShmBuffer?
        var chromeDamage: [PixelBox] = []
        // No chrome at all: one transparent pixel stretched over the window, where offered.
        let clear = chrome.chrome == nil && chrome.accessibility == nil && window.canCommitClear
        if clear {
            chromeCompositor.forgetLastScene()
        } else if !isActive || isClear || chromeCompositor.damage(for: chrome) != nil {
            switch Self.draw(chrome, with: chromeCompositor, from: chromePool, naming: "chrome", logger: logger) {
            case .failed(let outcome): return outcome
            case .drawn(let buffer, let damage): (newChrome, chromeDamage) = (buffer, damage)
            }
        }
        let clears = clear && (!isClear || !isActive)
        guard let place, newContent != nil || newChrome != nil || clears || (place.x, place.y) != origin || !isActive
        else { return Outcome() }
        content.show(
            newContent, damage: contentDamage.map { ($0.x, $0.y, $0.width, $0.height) }, x: place.x, y: place.y,
            width: scene.width, height: scene.height)
        if clears {
            window.commitClear(presented: presented)
            chromeBuffer = nil
        } else {
            window.commit(
                newChrome, scale: scene.scale, damage: chromeDamage.map { ($0.x, $0.y, $0.width, $0.height) },
                presented: presented)
        }
        isClear = clear
        if let newContent {
            contentPool.committed(newContent)
            contentBuffer = newContent
            contentDraws += 1
        } else {
            moves += 1
        }
        if let newChrome {
            chromePool.committed(newChrome)
            chromeBuffer = newChrome
        }
        origin = (place.x, place.y)
        screenSize = (scene.width, scene.height)
        isActive = true
        return Outcome(committed: true)
    }

    /// A layer drawn into a buffer of its pool, with the damage drawn, or the outcome of a frame
    /// that could not have one (the pool full: all busy; an allocation failed: logged).
    private enum Layer {
        case drawn(ShmBuffer, [PixelBox])
        case failed(Outcome)
    }

    private static func draw(
        _ scene: Scene, with compositor: FrameCompositor, from pool: ShmBufferPool, naming name: String,
        logger: Logger
    ) -> Layer {
        let buffer: ShmBuffer?
        do {
            buffer = try pool.acquire(width: scene.width, height: scene.height)
        } catch {
            logger.error("cannot allocate a \(name) buffer: \(error)")
            return .failed(Outcome())
        }
        guard let buffer else { return .failed(Outcome(allBusy: true)) }
        return .drawn(buffer, compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: buffer.age))
    }

    /// The next frame is drawn whole in the window's buffer: the pages' surface is emptied (it
    /// takes effect with that frame's commit).
    func deactivate() {
        guard isActive else { return }
        isActive = false
        isClear = false
        screenSize = nil
        drawn = nil
        content.hide()
    }

    /// A copy of what the screen shows (the pages under the chrome) into `pixels`, `stride` bytes
    /// a row, the window's size; false when nothing is shown this way.
    func copyScreen(into pixels: UnsafeMutableRawPointer, stride: Int) -> Bool {
        guard isActive, let screenSize, let contentBuffer, isClear || chromeBuffer != nil else { return false }
        for y in 0..<screenSize.height {
            let contentRow = (contentBuffer.pixels + (y + origin.y) * contentBuffer.stride + origin.x * 4)
                .assumingMemoryBound(to: UInt32.self)
            let out = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            guard let chromeBuffer else {
                for x in 0..<screenSize.width { out[x] = contentRow[x] | 0xFF00_0000 }
                continue
            }
            let chromeRow = (chromeBuffer.pixels + y * chromeBuffer.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<screenSize.width { out[x] = Self.over(chromeRow[x], contentRow[x] | 0xFF00_0000) }
        }
        return true
    }

    /// `top` over `bottom`, premultiplied ARGB32.
    static func over(_ top: UInt32, _ bottom: UInt32) -> UInt32 {
        let alpha = top >> 24
        if alpha == 255 { return top }
        if alpha == 0 { return bottom }
        var result: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            let channel = (top >> shift & 0xFF) + ((bottom >> shift & 0xFF) * (255 - alpha) + 127) / 255
            result |= min(channel, 255) << shift
        }
        return result
    }

    /// Destroys the pages' surface (before the window).
    func destroy() { content.destroy() }
}
