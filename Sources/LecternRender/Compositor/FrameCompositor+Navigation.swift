import CPixman
import LecternCore

extension FrameCompositor {
    /// What changed between two frames' overlays, in buffer pixels.
    func overlayDamage(from old: Scene.Overlays, to new: Scene.Overlays, in scene: Scene) -> [PixelBox] {
        let (width, height) = (scene.width, scene.height)
        var boxes: [PixelBox] = []
        if old.highlights != new.highlights {
            boxes += Set(old.highlights).symmetricDifference(Set(new.highlights)).map(\.visible)
        }
        boxes += annotationDamage(from: old, to: new, in: scene)
        if old.focusRing != new.focusRing { boxes += [old.focusRing, new.focusRing].compactMap { $0?.sides }.joined() }
        // The rest is laid out in surface units.
        var units: [PixelBox] = []
        if old.thumbnailBar != new.thumbnailBar {
            units.append(Scene.ThumbnailBar.box(width: width, height: height, metrics: scene.metrics))
        }
        if old.grid != new.grid { units.append(PixelBox(x: 0, y: 0, width: width, height: height)) }
        if old.outline != new.outline {
            units.append(Scene.OutlinePanel.box(width: width, height: height, metrics: scene.metrics))
        }
        if old.search != new.search {
            units.append(Scene.SearchBar.box(width: width, height: height, metrics: scene.metrics))
        }
        if old.keyboard != new.keyboard {
            for keyboard in [old.keyboard, new.keyboard].compactMap({ $0 }) {
                units.append(PixelBox(enclosing: keyboard.layout.frame))
            }
        }
        return boxes + units.map(scene.scale.enclosingPixels)
    }

    /// Search hits, laid over the pages under them (`Palette.highlightOperator`).
    func paintHighlights(_ highlights: [Scene.Highlight], repaint: Region, into target: OpaquePointer) {
        for highlight in highlights {
            let area = repaint.intersecting(highlight.visible)
            guard !area.isEmpty else { continue }
            area.clip(target)
            fillPixels(
                target, highlight.visible, highlight.isCurrent ? palette.currentSearchHit : palette.searchHit,
                op: palette.highlightOperator)
        }
    }

    /// The overlays over the pages and the chrome, bottom to top.
    func paintOverlays(_ overlays: Scene.Overlays, in scene: Scene, repaint: Region, into target: OpaquePointer) {
        if let frame = overlays.annotationFrame { paint(frame, repaint: repaint, into: target) }
        if let bar = overlays.thumbnailBar { paint(bar, in: scene, repaint: repaint, into: target) }
        if let grid = overlays.grid { paint(grid, in: scene, repaint: repaint, into: target) }
        if let outline = overlays.outline { paint(outline, in: scene, repaint: repaint, into: target) }
        if let search = overlays.search { paint(search, in: scene, repaint: repaint, into: target) }
        if let bar = overlays.annotationBar { paint(bar, in: scene, repaint: repaint, into: target) }
        if let keyboard = overlays.keyboard { paint(keyboard, repaint: repaint, into: target) }
        repaint.clip(target)
        for (box, color) in overlays.focusRing?.strips ?? [] { fillPixels(target, box, color, op: PIXMAN_OP_SRC) }
    }

    /// A button: a rounded-looking box with its label in the middle.
    func paintButton(_ label: String, in box: PixelBox, font: TextRenderer?, into target: OpaquePointer) {
        fill(target, box, palette.button, op: PIXMAN_OP_SRC)
        guard let font else { return }
        paintCentred(label, in: box, font: font, color: palette.text, into: target)
    }

    func paintCentred(
        _ text: String, in box: PixelBox, font: TextRenderer, color: Color, into target: OpaquePointer
    ) {
        let x = box.x + (box.width - font.width(of: text)) / 2
        let baseline = box.y + (box.height - font.lineHeight) / 2 + font.ascent
        font.draw(text, x: x, baselineY: baseline, color: color, into: target)
    }

    /// A frame `thickness` pixels wide around `box`.
    func outline(_ box: PixelBox, thickness: Int, color: Color, into target: OpaquePointer) {
        let outer = box.insetBy(dx: -thickness, dy: -thickness)
        fill(target, PixelBox(x: outer.x, y: outer.y, width: outer.width, height: thickness), color, op: PIXMAN_OP_SRC)
        fill(
            target, PixelBox(x: outer.x, y: box.maxY, width: outer.width, height: thickness), color,
            op: PIXMAN_OP_SRC)
        fill(target, PixelBox(x: outer.x, y: box.y, width: thickness, height: box.height), color, op: PIXMAN_OP_SRC)
        fill(target, PixelBox(x: box.maxX, y: box.y, width: thickness, height: box.height), color, op: PIXMAN_OP_SRC)
    }

    // MARK: Thumbnails

    private func paint(_ bar: Scene.ThumbnailBar, in scene: Scene, repaint: Region, into target: OpaquePointer) {
        let box = Scene.ThumbnailBar.box(width: scene.width, height: scene.height, metrics: scene.metrics)
        repaint.clip(target)
        fill(target, box, palette.chrome, op: PIXMAN_OP_SRC)
        for item in bar.items { paintPage(item, repaint: repaint, into: target) }
        if let current = bar.current {
            repaint.intersecting(scale.enclosingPixels(box)).clip(target)
            outline(current, thickness: 3, color: palette.accent, into: target)
        }
        repaint.clip(target)
    }

    private func paint(_ grid: Scene.ThumbnailSheet, in scene: Scene, repaint: Region, into target: OpaquePointer) {
        let area = Scene.ThumbnailSheet.area(width: scene.width, height: scene.height, metrics: scene.metrics)
        repaint.clip(target)
        fill(
            target, PixelBox(x: 0, y: 0, width: scene.width, height: scene.height), palette.chrome, op: PIXMAN_OP_SRC)
        for item in grid.items { paintPage(item, repaint: repaint, into: target) }
        let inArea = repaint.intersecting(scale.enclosingPixels(area))
        inArea.clip(target)
        if let current = grid.current { outline(current, thickness: 4, color: palette.accent, into: target) }
        if let font = smallFont {
            for label in grid.labels {
                let x = label.centerX - font.width(of: label.text) / 2
                font.draw(
                    label.text, x: x, baselineY: label.top + font.ascent, color: palette.secondaryText, into: target)
            }
        }
        repaint.clip(target)
        let header = Scene.ThumbnailSheet.header(width: scene.width, height: scene.height, metrics: scene.metrics)
        fill(target, header, palette.panel, op: PIXMAN_OP_SRC)
        let close = Scene.ThumbnailSheet.closeButton(width: scene.width, height: scene.height, metrics: scene.metrics)
        paintButton(tr("Close"), in: close, font: bodyFont, into: target)
        if let font = bodyFont {
            // The title at the header's start: its right end when the chrome is mirrored.
            let isMirrored = scene.metrics.mirroredWidth != nil
            let room = isMirrored ? scene.width - close.maxX - 48 : close.x - 48
            let title = font.wrap(grid.title, maxWidth: max(0, room)).first ?? ""
            font.draw(
                title, x: isMirrored ? scene.width - 24 - font.width(of: title) : 24,
                baselineY: header.y + (header.height - font.lineHeight) / 2 + font.ascent,
                color: palette.text,
                into: target)
        }
    }

    // MARK: Outline

    private func paint(_ panel: Scene.OutlinePanel, in scene: Scene, repaint: Region, into target: OpaquePointer) {
        let box = Scene.OutlinePanel.box(width: scene.width, height: scene.height, metrics: scene.metrics)
        let inPanel = repaint.intersecting(scale.enclosingPixels(box))
        guard !inPanel.isEmpty else { return }
        inPanel.clip(target)
        fill(target, box, palette.panel, op: PIXMAN_OP_SRC)
        let rowHeight = Scene.OutlinePanel.rowHeight(scene.metrics)
        for row in panel.rows {
            let rowBox = PixelBox(x: box.x, y: row.y, width: box.width, height: rowHeight)
            if row.isCurrent { fill(target, rowBox, palette.button, op: PIXMAN_OP_SRC) }
            fill(
                target, PixelBox(x: box.x + 16, y: rowBox.maxY - 1, width: box.width - 32, height: 1),
                palette.secondaryText.withAlpha(60), op: PIXMAN_OP_OVER)
            guard let font = bodyFont else { continue }
            // Right to left the row reads from the right: the triangle and the title from the
            // panel's right edge, the page at the left.
            let mirrored = scene.metrics.mirroredWidth != nil
            let baseline = row.y + (rowHeight - font.lineHeight) / 2 + font.ascent
            let titleEdge = Scene.OutlinePanel.disclosureEnd(in: box, depth: row.depth, metrics: scene.metrics)
            let triangle: String? =
                switch row.disclosure {
                case .none: nil
                case .open: "▾"
                case .closed: mirrored ? "◂" : "▸"
                }
            if let triangle {
                let start = titleEdge + (mirrored ? 1 : -1) * Scene.OutlinePanel.disclosureWidth
                let x = mirrored ? start - 12 - font.width(of: triangle) : start + 12
                font.draw(triangle, x: x, baselineY: baseline, color: palette.secondaryText, into: target)
            }
            let pageWidth = font.width(of: row.page)
            font.draw(
                row.page, x: mirrored ? box.x + 20 : box.maxX - 20 - pageWidth, baselineY: baseline,
                color: palette.secondaryText, into: target)
            let room = mirrored ? titleEdge - box.x - 40 - pageWidth : box.maxX - 40 - pageWidth - titleEdge
            let title = font.wrap(row.title, maxWidth: max(0, room)).first ?? ""
            font.draw(
                title, x: mirrored ? titleEdge - font.width(of: title) : titleEdge, baselineY: baseline,
                color: palette.text, into: target)
        }
        repaint.clip(target)
    }

    // MARK: Search

    private func paint(_ bar: Scene.SearchBar, in scene: Scene, repaint: Region, into target: OpaquePointer) {
        let (width, height) = (scene.width, scene.height)
        repaint.clip(target)
        fill(
            target, Scene.SearchBar.box(width: width, height: height, metrics: scene.metrics), palette.panel,
            op: PIXMAN_OP_SRC)
        paintButton(
            "×", in: Scene.SearchBar.closeButton(width: width, height: height, metrics: scene.metrics), font: bodyFont,
            into: target)
        // Right to left, the next result is to the left: the arrows point the way they lead.
        let mirrored = scene.metrics.mirroredWidth != nil
        paintButton(
            mirrored ? "›" : "‹",
            in: Scene.SearchBar.previousButton(width: width, height: height, metrics: scene.metrics),
            font: bodyFont, into: target)
        paintButton(
            mirrored ? "‹" : "›", in: Scene.SearchBar.nextButton(width: width, height: height, metrics: scene.metrics),
            font: bodyFont, into: target)
        let field = Scene.SearchBar.field(width: width, height: height, metrics: scene.metrics)
        fill(target, field, palette.field, op: PIXMAN_OP_SRC)
        guard let font = bodyFont else { return }
        let baseline = field.y + (field.height - font.lineHeight) / 2 + font.ascent
        // Right to left, text starts at the field's right end.
        func start(_ textWidth: Int) -> Int { mirrored ? field.maxX - 12 - textWidth : field.x + 12 }
        if bar.query.isEmpty {
            let placeholder = tr("Search this document")
            font.draw(
                placeholder, x: start(font.width(of: placeholder)), baselineY: baseline, color: palette.button,
                into: target)
        }
        // The end of a long query stays in view: it is what is being typed.
        var shown = bar.query
        while !shown.isEmpty, font.width(of: shown) > field.width - 28 { shown.removeFirst() }
        let textWidth = font.width(of: shown)
        font.draw(shown, x: start(textWidth), baselineY: baseline, color: palette.fieldText, into: target)
        if bar.isEditing {
            let cursor = mirrored ? start(textWidth) - 3 : field.x + 13 + textWidth
            fill(
                target, PixelBox(x: cursor, y: field.y + 10, width: 2, height: field.height - 20), palette.accent,
                op: PIXMAN_OP_SRC)
        }
        let status = Scene.SearchBar.statusArea(width: width, height: height, metrics: scene.metrics)
        let fitted = Self.fitted(bar.status, width: status.width, font: font)
        font.draw(
            fitted, x: mirrored ? status.maxX - font.width(of: fitted) : status.x,
            baselineY: status.y + (status.height - font.lineHeight) / 2 + font.ascent, color: palette.text, into: target
        )
    }

    /// The search status as it fits `width`: whole, else without the progress (" · 95%"),
    /// else one line ellipsized as labels are (it never runs into the buttons).
    private static func fitted(_ status: String, width: Int, font: TextRenderer) -> String {
        guard font.width(of: status) > width else { return status }
        if let dot = status.firstIndex(of: "·") {
            return fitted(String(status[..<dot]).trimmingSuffix(" "), width: width, font: font)
        }
        return font.wrap(status, maxWidth: width, maxLines: 1).first ?? ""
    }

    private func paint(_ keyboard: Scene.Keyboard, repaint: Region, into target: OpaquePointer) {
        let frame = PixelBox(enclosing: keyboard.layout.frame)
        let inKeyboard = repaint.intersecting(scale.enclosingPixels(frame))
        guard !inKeyboard.isEmpty else { return }
        inKeyboard.clip(target)
        fill(target, frame, palette.panel, op: PIXMAN_OP_SRC)
        for (index, key) in keyboard.layout.keys.enumerated() {
            let box = PixelBox(enclosing: key.frame)
            fill(target, box, index == keyboard.pressed ? palette.accent : palette.button, op: PIXMAN_OP_SRC)
            if let font = bodyFont { paintCentred(key.label, in: box, font: font, color: palette.text, into: target) }
        }
        repaint.clip(target)
    }
}

extension String {
    /// The string without `character` repeated at its end.
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var trimmed = self
        while trimmed.last == character { trimmed.removeLast() }
        return trimmed
    }
}
