import LecternCore
import LecternRender

/// The thumbnail bar along the bottom while the chrome shows: the pages as small thumbnails
/// grouped as spreads are, right to left with pairs flipped under right-edge binding
/// (`ThumbnailStripLayout`), the current spread marked. A finger scrolls it (a flick keeps it
/// moving); a tap on a thumbnail goes to that page.
///
/// Only the thumbnails in view are laid out and asked for (`TilePlanner.Thumbnail`: rendered
/// at the lowest priority, pinned in the cache while on screen), so a 15,000-page document
/// costs what a 36-page one does. The bar follows the reader: it centres the current spread
/// when it appears and scrolls it back into view when the page changes.
final class ThumbnailBar: ScrollingPart {
    let screen: Screen
    /// The spread the bar last brought into view, while shown, and where it was in the strip.
    private var followed: (spread: Int, frame: Rect)?

    init(screen: Screen) {
        self.screen = screen
        super.init(axis: .horizontal)
    }

    /// The strip for the reader's document and spreads.
    static func layout(for reader: Reader) -> ThumbnailStripLayout {
        ThumbnailStripLayout(
            spreads: reader.view.spreads, pageCell: Scene.ThumbnailBar.pageCell, spacing: Scene.ThumbnailBar.spacing)
    }

    /// The accessibility button's box while it is on screen (nil: the policy hides it). It sits
    /// at one end of the bar, where the strip makes room for it.
    var accessibilityButton: () -> PixelBox? = { nil }

    /// Where the thumbnails scroll: the bar's strip, less the end the accessibility button is
    /// over (and a gap), so that no thumbnail is hidden under the button or out of a finger's
    /// reach.
    private var area: PixelBox {
        let strip = Scene.ThumbnailBar.stripArea(width: screen.width, height: screen.height, metrics: screen.metrics)
        guard let button = accessibilityButton(), !button.intersection(strip).isEmpty else { return strip }
        let gap = 8
        if button.x + button.width / 2 <= strip.x + strip.width / 2 {
            let x = button.maxX + gap
            return PixelBox(x: x, y: strip.y, width: max(0, strip.maxX - x), height: strip.height)
        }
        return PixelBox(x: strip.x, y: strip.y, width: max(0, button.x - gap - strip.x), height: strip.height)
    }

    /// Hidden: the next time it shows, it centres the current spread.
    func hide() {
        followed = nil
        cancelTouches()
    }

    /// Fits the scroll range to the strip and the screen, and follows the current spread: centred
    /// when the bar appears, brought back into view when the reader moved to another spread.
    func update(for reader: Reader) {
        let layout = Self.layout(for: reader)
        let width = Double(area.width)
        let slack = width - layout.contentWidth
        scroll.setBounds(slack >= 0 ? -slack / 2 ... -slack / 2 : 0...(-slack))
        let view = reader.view
        guard view.pages.count > 0, !isMoving else { return }
        let current = view.spreads.spreadIndex(forPage: view.dominantPage())
        let frame = layout.frame(ofSpread: current)
        guard current != followed?.spread || frame != followed?.frame else { return }
        // The same spread elsewhere in the strip: the strip itself changed (it flipped with the
        // binding): centre it again, as when the bar appears.
        let stripChanged = current == followed?.spread
        if followed == nil || stripChanged || frame.minX < scroll.offset || frame.maxX > scroll.offset + width {
            scroll.scroll(to: frame.midX - width / 2)
        }
        followed = (current, frame)
    }

    /// The thumbnails in view and the current spread's outline, in screen pixels.
    func placements(for reader: Reader) -> (thumbnails: [TilePlanner.Thumbnail], current: PixelBox?) {
        let layout = Self.layout(for: reader)
        let area = self.area
        let origin = Point(x: Double(area.x) - scroll.offset, y: Double(area.y))
        let pages = reader.view.pages
        let items = layout.items(from: scroll.offset, to: scroll.offset + Double(area.width)) {
            pages[$0].displaySize
        }
        let thumbnails = items.map { item in
            TilePlanner.Thumbnail(page: item.page, frame: item.frame.offsetBy(origin).stablePixels, clip: area)
        }
        let view = reader.view
        guard view.pages.count > 0 else { return (thumbnails, nil) }
        // The mark goes around the current spread's thumbnails.
        let spread = view.spreads.spreadIndex(forPage: view.dominantPage())
        let current = layout.cells.items(ofSpread: spread, origin: layout.frame(ofSpread: spread).origin) {
            pages[$0].displaySize
        }.map { $0.frame.offsetBy(origin).stablePixels }
        let box = current.dropFirst().reduce(current.first ?? PixelBox(x: 0, y: 0, width: 0, height: 0)) {
            $0.union($1)
        }
        return (thumbnails, box.intersection(area).isEmpty ? nil : box)
    }

    // MARK: Input

    override func tapped(at tap: Point, reader: Reader) {
        let area = self.area
        // Beside the strip (at its ends, by the accessibility button) there is no thumbnail.
        guard Double(area.x) <= tap.x, tap.x < Double(area.maxX) else { return }
        let x = tap.x - Double(area.x) + scroll.offset
        let layout = Self.layout(for: reader)
        guard let spread = layout.spread(atX: x) else { return }
        // The page under the finger, or the spread's first page in the gutter between a pair.
        let frame = layout.frame(ofSpread: spread)
        let page =
            layout.cells.items(ofSpread: spread, origin: frame.origin) { reader.view.pages[$0].displaySize }
            .first { $0.frame.minX <= x && x < $0.frame.maxX }?.page
            ?? reader.view.spreads.pageRange(forSpread: spread).lowerBound
        guard gate.allows(ChromeInteractionContext(control: "thumbnailBar", page: page), tap) else { return }
        reader.view.stopAnimations()
        try? reader.view.goToPage(page)
    }
}
