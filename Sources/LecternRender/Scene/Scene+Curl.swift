import CPixman
import LecternCore

extension Scene {
    /// A page turn drawn as paper folding back (`PageCurl`): the spread that lifts (`top`) and
    /// the one beneath it (`under`), both where they rest, and how far the turn has gone.
    ///
    /// The lifting sheet is bound along its spine (its left edge, or its right one when it
    /// `liftsFromLeft`) and folds along a vertical line that moves from its free edge to the
    /// spine as `progress` goes from 0 to 1. The part past the fold lies folded back over the
    /// page: its back, the page mirrored and lightened, shaded towards the fold. Past the fold
    /// the next spread shows, darkened where the lifted paper casts its shadow.
    ///
    /// In double and cover spreads one leaf turns instead (`leaf`, drawn as `LeafFold` says):
    /// the rest of both spreads lies still around it.
    public struct Curl: Equatable, Sendable {
        /// The lifting spread's pages, where they rest.
        public var top: [PageItem]
        /// The uncovered spread's pages, where they rest.
        public var under: [PageItem]
        /// The uncovered spread's drop shadow.
        public var underShadow: Shadow?
        /// 0: the sheet lies flat; 1: it has turned away.
        public var progress: Double
        /// The sheet lifts from its left edge and the fold moves right (right-edge binding).
        public var liftsFromLeft: Bool
        /// In double and cover spreads, the leaf that turns: a page of `top` on its front, one
        /// of `under` on its back.
        public var leaf: PageCurl.Leaf?

        public init(
            top: [PageItem], under: [PageItem], underShadow: Shadow?, progress: Double, liftsFromLeft: Bool,
            leaf: PageCurl.Leaf? = nil
        ) {
            self.top = top
            self.under = under
            self.underShadow = underShadow
            self.progress = progress
            self.liftsFromLeft = liftsFromLeft
            self.leaf = leaf
        }

        /// The lifting sheet: its pages together.
        public var sheet: PixelBox {
            guard let first = top.first?.frame else { return PixelBox(x: 0, y: 0, width: 0, height: 0) }
            return top.dropFirst().reduce(first) { $0.union($1.frame) }
        }

        /// The fold's x in buffer pixels.
        public var foldX: Int {
            let sheet = sheet, p = min(1, max(0, progress))
            let travelled = Int((Double(sheet.width) * p).rounded())
            return liftsFromLeft ? sheet.x + travelled : sheet.maxX - travelled
        }

        /// Where the folded-back part lies (the back of the page shows there): the mirror of
        /// the part past the fold, cut at the spine.
        public var back: PixelBox {
            let sheet = sheet, fold = foldX
            let lo = liftsFromLeft ? fold : max(sheet.x, 2 * fold - sheet.maxX)
            let hi = liftsFromLeft ? min(sheet.maxX, 2 * fold - sheet.x) : fold
            return PixelBox(x: lo, y: sheet.y, width: max(0, hi - lo), height: sheet.height)
        }

        /// The part of the sheet still lying flat, front up.
        public var flat: PixelBox {
            let sheet = sheet, back = back
            return liftsFromLeft
                ? PixelBox(x: back.maxX, y: sheet.y, width: sheet.maxX - back.maxX, height: sheet.height)
                : PixelBox(x: sheet.x, y: sheet.y, width: back.x - sheet.x, height: sheet.height)
        }

        /// The shadow the lifted paper casts on the next spread, beside the fold.
        var castShadow: PixelBox {
            let sheet = sheet, fold = foldX
            let lifted = liftsFromLeft ? fold - sheet.x : sheet.maxX - fold
            let width = min(72, 8 + lifted / 3)
            return PixelBox(x: liftsFromLeft ? fold - width : fold, y: sheet.y, width: width, height: sheet.height)
        }
    }
}

extension Scene.Curl {
    /// Where the parts of a turning leaf (`Curl.leaf`) lie in one frame of the turn, in buffer
    /// pixels.
    ///
    /// The leaf lies on one side of the spine, one page up (`held`: the front turning forward,
    /// the back turning back), and lifts from that page's outer edge. Its free edge moves across
    /// the book to where the other page's outer edge rests, and the part of the leaf it folds over
    /// (`flap`) shows the other page from its outer edge, as much of it as the turn has gone:
    /// at the end of the turn the other page lies where it rests. The held page shows beyond
    /// the free edge as long as the free edge is on it; the rest of both spreads lies still
    /// wherever the leaf does not cover it.
    struct LeafFold: Equatable {
        /// The page lying up as the leaf lifts, where it rests.
        var held: Scene.PageItem
        /// The page on the leaf's other side, where it will rest.
        var other: Scene.PageItem
        /// The held page lifts from its left edge: the free edge moves right.
        var liftsFromLeft: Bool
        /// The x of the free edge.
        var freeEdge: Int
        /// Where the folded-over part lies, `other` showing there moved right by `shift`.
        var flap: PixelBox
        var shift: Int
        /// The part of the held page that still lies flat and shows.
        var flat: PixelBox
        /// The other pages of both spreads, where they rest.
        var rest: [Scene.PageItem]

        /// The x of the fold: the flap's edge away from the free edge.
        var fold: Int { liftsFromLeft ? flap.x : flap.maxX }

        /// `other` as it shows on the flap.
        var shiftedOther: Scene.PageItem {
            var page = other
            page.frame = page.frame.offsetBy(dx: shift, dy: 0)
            page.layers = page.layers.map {
                Scene.Layer($0.source, rect: $0.rect.offsetBy(Point(x: Double(shift), y: 0)))
            }
            return page
        }
    }

    /// The leaf's parts this frame; nil for a sheet that folds away (single-page spreads).
    var leafFold: LeafFold? {
        guard let leaf, let front = top.first(where: { $0.page == leaf.front }),
            let back = under.first(where: { $0.page == leaf.back })
        else { return nil }
        let held = leaf.turnsBack ? back : front, other = leaf.turnsBack ? front : back
        // How far the held page has turned away from where it lies.
        let p = min(1, max(0, progress)), turned = leaf.turnsBack ? 1 - p : p
        // Turning forward the front lifts from its outer edge; turning back, the back from its own.
        let fromLeft = liftsFromLeft != leaf.turnsBack
        let h = held.frame, o = other.frame
        let start = fromLeft ? h.x : h.maxX, end = fromLeft ? o.maxX : o.x
        let edge = start + Int((Double(end - start) * turned).rounded())
        let width = Int((Double(o.width) * turned).rounded())
        let flatStart = fromLeft ? max(h.x, edge) : h.x, flatEnd = fromLeft ? h.maxX : min(h.maxX, edge)
        return LeafFold(
            held: held, other: other, liftsFromLeft: fromLeft, freeEdge: edge,
            flap: PixelBox(x: fromLeft ? edge - width : edge, y: o.y, width: width, height: o.height),
            shift: fromLeft ? edge - o.maxX : edge - o.x,
            flat: PixelBox(x: flatStart, y: h.y, width: max(0, flatEnd - flatStart), height: h.height),
            rest: (top + under).filter { $0.page != leaf.front && $0.page != leaf.back })
    }
}

/// The back of a lifting sheet: the sheet mirrored and lightened, kept while the turn lasts
/// (and drawn again when a tile of the sheet arrives), so each frame only copies the part that
/// shows. Its columns are drawn as the fold first uncovers them: a turn's first frame draws a
/// sliver, not the whole sheet.
final class CurlBack {
    let top: [Scene.PageItem]
    let sheet: PixelBox
    let image: RasterImage
    /// The colour of the paper (the contrast's: white unless it is a dark one).
    let paper: Color
    /// The mirrored columns drawn so far.
    private var drawn = 0..<0

    /// How much of the page's colour shows through on its back (the rest is paper).
    static let showThrough = 0.35

    init?(top: [Scene.PageItem], sheet: PixelBox, paper: Color) {
        guard !sheet.isEmpty else { return nil }
        self.top = top
        self.sheet = sheet
        self.paper = paper
        image = RasterImage(width: sheet.width, height: sheet.height)
    }

    /// Draws the mirrored columns of `needed` (column c shows the sheet's column width − 1 − c)
    /// that are not drawn yet.
    func draw(columns needed: Range<Int>) {
        let needed = needed.clamped(to: 0..<sheet.width)
        guard !needed.isEmpty,
            let surface = PixmanSurface(
                pixels: image.pixels, width: image.width, height: image.height, stride: image.stride)
        else { return }
        var strips: [Range<Int>] = []
        if drawn.isEmpty {
            strips = [needed]
            drawn = needed
        } else {
            if needed.lowerBound < drawn.lowerBound { strips.append(needed.lowerBound..<drawn.lowerBound) }
            if needed.upperBound > drawn.upperBound { strips.append(drawn.upperBound..<needed.upperBound) }
            drawn = min(drawn.lowerBound, needed.lowerBound)..<max(drawn.upperBound, needed.upperBound)
        }
        withExtendedLifetime(surface) {
            for strip in strips {
                let box = PixelBox(x: strip.lowerBound, y: 0, width: strip.count, height: sheet.height)
                var ground = paper.pixman
                var pixmanBox = pixman_box32_t(x1: Int32(box.x), y1: 0, x2: Int32(box.maxX), y2: Int32(box.maxY))
                pixman_image_fill_boxes(PIXMAN_OP_SRC, surface.image, &ground, 1, &pixmanBox)
                for page in top {
                    for layer in page.layers { draw(layer, within: page.visible, strip: box, into: surface.image) }
                }
                // Copied, then lightened: two of pixman's fast paths, where a blend through a
                // mask on the way would take its general one.
                var lightening = paper.withAlpha(UInt8(((1 - Self.showThrough) * 255).rounded())).pixman
                pixman_image_fill_boxes(PIXMAN_OP_OVER, surface.image, &lightening, 1, &pixmanBox)
            }
        }
    }

    /// Copies `layer` mirrored, inside `strip`.
    private func draw(_ layer: Scene.Layer, within visible: PixelBox, strip: PixelBox, into target: OpaquePointer) {
        let box = PixelBox(enclosing: layer.rect).intersection(visible)
        // The box in the mirrored image's pixels.
        let mirrored = PixelBox(x: sheet.maxX - box.maxX, y: box.y - sheet.y, width: box.width, height: box.height)
            .intersection(strip)
        guard !box.isEmpty, !mirrored.isEmpty else { return }
        switch layer.source {
        case .fill(let color):
            var pixmanColor = color.pixman
            var pixmanBox = pixman_box32_t(
                x1: Int32(mirrored.x), y1: Int32(mirrored.y), x2: Int32(mirrored.maxX), y2: Int32(mirrored.maxY))
            pixman_image_fill_boxes(PIXMAN_OP_SRC, target, &pixmanColor, 1, &pixmanBox)
        case .image(let source):
            guard
                let surface = PixmanSurface(
                    pixels: source.pixels, width: source.width, height: source.height, stride: source.stride)
            else { return }
            // Mirrored pixel c, row r → buffer x = sheet.maxX − c, y = sheet.y + r → the image's pixel.
            let sx = Double(source.width) / layer.rect.width, sy = Double(source.height) / layer.rect.height
            var transform = pixman_transform()
            pixman_transform_init_identity(&transform)
            transform.matrix.0.0 = fixed(-sx)
            transform.matrix.0.2 = fixed((Double(sheet.maxX) - layer.rect.minX) * sx)
            transform.matrix.1.1 = fixed(sy)
            transform.matrix.1.2 = fixed((Double(sheet.y) - layer.rect.minY) * sy)
            pixman_image_set_transform(surface.image, &transform)
            let exact = layer.rect.width == Double(source.width) && layer.rect.height == Double(source.height)
            pixman_image_set_filter(surface.image, exact ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR, nil, 0)
            pixman_image_set_repeat(surface.image, PIXMAN_REPEAT_PAD)
            pixman_image_composite32(
                PIXMAN_OP_SRC, surface.image, nil, target, Int32(mirrored.x), Int32(mirrored.y), 0, 0,
                Int32(mirrored.x), Int32(mirrored.y), Int32(mirrored.width), Int32(mirrored.height))
        }
    }
}

extension FrameCompositor {
    /// Draws the whole frame's pages as a page curl: the next spread where the sheet has
    /// lifted off it, the flat part of the sheet, its back, and the shading.
    func paint(_ curl: Scene.Curl, in scene: Scene, target: OpaquePointer) {
        if let leaf = curl.leafFold {
            curlBack = nil
            paint(leaf, in: scene, target: target)
            return
        }
        // Pages and the sheet are in buffer pixels.
        let frame = PixelBox(x: 0, y: 0, width: scene.pixelWidth, height: scene.pixelHeight)
        let flat = curl.flat.intersection(frame), back = curl.back.intersection(frame)
        // The next spread, wherever the sheet does not cover it.
        let uncovered = Region([frame]).subtracting(Region([flat, back]))
        // The background only around the next spread's pages (they are opaque).
        uncovered.subtracting(Region(curl.under.map(\.visible))).clip(target)
        fillPixels(target, frame, palette.background, op: PIXMAN_OP_SRC)
        uncovered.clip(target)
        if let shadow = curl.underShadow {
            fillPixels(
                target, shadow.frame.offsetBy(dx: 3, dy: 4).intersection(shadow.clip), palette.pageShadow,
                op: PIXMAN_OP_OVER)
        }
        for page in curl.under { paintPage(page, repaint: uncovered, into: target) }
        uncovered.clip(target)
        shade(target, curl.castShadow, darkAt: curl.liftsFromLeft ? .maxX : .minX, alpha: 0.5)
        // The sheet's flat part.
        let flatRegion = Region([flat])
        for page in curl.top { paintPage(page, repaint: flatRegion, into: target) }
        // Its back: a copy from the mirrored sheet.
        pixman_image_set_clip_region32(target, nil)
        guard !back.isEmpty else { return }
        let sheet = curl.sheet
        if curlBack.map({ $0.sheet != sheet || $0.top != curl.top || $0.paper != palette.paper }) ?? true {
            curlBack = CurlBack(top: curl.top, sheet: sheet, paper: palette.paper)
        }
        // Buffer x shows the sheet's x mirrored about the fold: mirrored column x − (2·fold − maxX).
        let offset = 2 * curl.foldX - sheet.maxX
        curlBack?.draw(columns: (back.x - offset)..<(back.maxX - offset))
        if let image = curlBack?.image,
            let source = PixmanSurface(
                pixels: image.pixels, width: image.width, height: image.height, stride: image.stride)
        {
            pixman_image_composite32(
                PIXMAN_OP_SRC, source.image, nil, target, Int32(back.x - offset), Int32(back.y - sheet.y), 0, 0,
                Int32(back.x), Int32(back.y), Int32(back.width), Int32(back.height))
        }
        // The paper curves away into the fold, and its free edge casts a shadow on the page.
        let fold = curl.foldX
        let band = min(back.width, max(4, back.width / 4))
        let shading = PixelBox(x: curl.liftsFromLeft ? fold : fold - band, y: back.y, width: band, height: back.height)
        shade(target, shading, darkAt: curl.liftsFromLeft ? .minX : .maxX, alpha: 0.3)
        let edge = 16
        let free = PixelBox(
            x: curl.liftsFromLeft ? back.maxX : back.x - edge, y: back.y, width: edge, height: back.height)
        shade(target, free.intersection(flat), darkAt: curl.liftsFromLeft ? .minX : .maxX, alpha: 0.25)
    }

    /// Draws a leaf turning in a book: the pages at rest around it, where it lies flat, the part
    /// folded over, and the shading.
    func paint(_ leaf: Scene.Curl.LeafFold, in scene: Scene, target: OpaquePointer) {
        let frame = PixelBox(x: 0, y: 0, width: scene.pixelWidth, height: scene.pixelHeight)
        let flat = leaf.flat.intersection(leaf.held.visible), flap = leaf.flap.intersection(frame)
        let uncovered = Region([frame]).subtracting(Region([flat, flap]))
        // The background, and the shadows of the paper, around the pages at rest.
        let around = uncovered.subtracting(Region(leaf.rest.map(\.visible)))
        around.clip(target)
        fillPixels(target, frame, palette.background, op: PIXMAN_OP_SRC)
        let paper = leaf.rest.map { $0.frame.intersection($0.clip) } + [flat, flap]
        around.intersecting(Region(paper.map { $0.offsetBy(dx: 3, dy: 4) })).clip(target)
        fillPixels(target, frame, palette.pageShadow, op: PIXMAN_OP_OVER)
        for page in leaf.rest { paintPage(page, repaint: uncovered, into: target) }
        // The shadow the lifted paper casts beside the fold, on the pages beneath.
        uncovered.intersecting(Region(leaf.rest.map(\.visible))).clip(target)
        let fold = leaf.fold, cast = min(72, 8 + flap.width / 3)
        shade(
            target, PixelBox(x: leaf.liftsFromLeft ? fold - cast : fold, y: flap.y, width: cast, height: flap.height),
            darkAt: leaf.liftsFromLeft ? .maxX : .minX, alpha: 0.5)
        paintPage(leaf.held, repaint: Region([flat]), into: target)
        paintPage(leaf.shiftedOther, repaint: Region([flap]), into: target)
        pixman_image_set_clip_region32(target, nil)
        guard !flap.isEmpty else { return }
        // The paper curves away into the fold, and its free edge casts a shadow on what it lies on.
        let band = min(flap.width, max(4, flap.width / 4))
        shade(
            target, PixelBox(x: leaf.liftsFromLeft ? fold : fold - band, y: flap.y, width: band, height: flap.height),
            darkAt: leaf.liftsFromLeft ? .minX : .maxX, alpha: 0.3)
        let edge = 16
        Region(paper).subtracting(Region([flap])).clip(target)
        shade(
            target,
            PixelBox(
                x: leaf.liftsFromLeft ? leaf.freeEdge : leaf.freeEdge - edge, y: flap.y, width: edge,
                height: flap.height),
            darkAt: leaf.liftsFromLeft ? .minX : .maxX, alpha: 0.25)
        pixman_image_set_clip_region32(target, nil)
    }

    /// Which side of a shaded box is darkest.
    enum ShadeEdge { case minX, maxX }

    /// Darkens `box` with black from `alpha` at its `darkAt` side fading to nothing at the other.
    func shade(_ target: OpaquePointer, _ box: PixelBox, darkAt edge: ShadeEdge, alpha: Double) {
        guard !box.isEmpty else { return }
        let dark = edge == .minX ? box.x : box.maxX, light = edge == .minX ? box.maxX : box.x
        var p1 = pixman_point_fixed_t(x: fixed(Double(dark)), y: 0)
        var p2 = pixman_point_fixed_t(x: fixed(Double(light)), y: 0)
        var stops = [
            pixman_gradient_stop_t(
                x: 0, color: pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(alpha * 65535))),
            pixman_gradient_stop_t(x: fixed(1), color: pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0)),
        ]
        guard let gradient = pixman_image_create_linear_gradient(&p1, &p2, &stops, Int32(stops.count)) else { return }
        defer { pixman_image_unref(gradient) }
        pixman_image_composite32(
            PIXMAN_OP_OVER, gradient, nil, target, Int32(box.x), Int32(box.y), 0, 0, Int32(box.x), Int32(box.y),
            Int32(box.width), Int32(box.height))
    }
}
