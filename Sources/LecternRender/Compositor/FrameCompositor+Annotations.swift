import CPixman
import LecternCore

extension FrameCompositor {
    /// What changed between two frames' annotation frame and bar: the frame in buffer pixels,
    /// the bar and option list in surface units (returned in buffer pixels).
    func annotationDamage(from old: Scene.Overlays, to new: Scene.Overlays, in scene: Scene) -> [PixelBox] {
        var boxes: [PixelBox] = []
        if old.annotationFrame != new.annotationFrame {
            boxes += [old.annotationFrame, new.annotationFrame].compactMap { $0?.visible }
        }
        if old.annotationBar != new.annotationBar {
            for bar in [old.annotationBar, new.annotationBar].compactMap({ $0 }) {
                boxes.append(
                    scene.scale.enclosingPixels(
                        Scene.AnnotationBar.box(width: scene.width, height: scene.height, metrics: scene.metrics)))
                let list = Scene.AnnotationBar.list(
                    count: bar.options.count, width: scene.width, metrics: scene.metrics)
                if bar.mode == .choosing, !list.isEmpty { boxes.append(scene.scale.enclosingPixels(list)) }
            }
        }
        return boxes
    }

    /// The selection frame: a two-pixel accent outline, with white-edged handles on the corners.
    func paint(_ frame: Scene.AnnotationFrame, repaint: Region, into target: OpaquePointer) {
        let area = repaint.intersecting(frame.visible)
        guard !area.isEmpty else { return }
        area.clip(target)
        let thickness = 2
        let box = frame.box
        for edge in [
            PixelBox(x: box.x - thickness, y: box.y - thickness, width: box.width + 2 * thickness, height: thickness),
            PixelBox(x: box.x - thickness, y: box.maxY, width: box.width + 2 * thickness, height: thickness),
            PixelBox(x: box.x - thickness, y: box.y, width: thickness, height: box.height),
            PixelBox(x: box.maxX, y: box.y, width: thickness, height: box.height),
        ] {
            fillPixels(target, edge, palette.accent, op: PIXMAN_OP_SRC)
        }
        for handle in frame.handles {
            fillPixels(target, handle, Color(rgb: 0xFFFFFF), op: PIXMAN_OP_SRC)
            fillPixels(target, handle.insetBy(dx: 3, dy: 3), palette.accent, op: PIXMAN_OP_SRC)
        }
        repaint.clip(target)
    }

    /// The annotation bar, and the option list while choosing.
    func paint(_ bar: Scene.AnnotationBar, in scene: Scene, repaint: Region, into target: OpaquePointer) {
        let (width, height) = (scene.width, scene.height)
        repaint.clip(target)
        fill(
            target, Scene.AnnotationBar.box(width: width, height: height, metrics: scene.metrics), palette.panel,
            op: PIXMAN_OP_SRC)
        let done = Scene.AnnotationBar.doneButton(width: width, height: height, metrics: scene.metrics)
        paintButton(bar.mode == .reading ? tr("Close") : tr("Done"), in: done, font: bodyFont, into: target)
        let field = Scene.AnnotationBar.field(width: width, height: height, metrics: scene.metrics)
        if bar.mode == .typing { fill(target, field, palette.field, op: PIXMAN_OP_SRC) }
        if bar.mode == .choosing {
            let list = Scene.AnnotationBar.list(count: bar.options.count, width: width, metrics: scene.metrics)
            fill(target, list, palette.panel, op: PIXMAN_OP_SRC)
            for (index, option) in bar.options.enumerated() {
                let box = Scene.AnnotationBar.option(index, width: width, metrics: scene.metrics)
                fill(target, box, index == bar.chosen ? palette.accent : palette.button, op: PIXMAN_OP_SRC)
                if let font = bodyFont { paintCentred(option, in: box, font: font, color: palette.text, into: target) }
            }
        }
        guard let font = bodyFont else { return }
        let title = Scene.AnnotationBar.titleArea(width: width, height: height, metrics: scene.metrics)
        let baseline = title.y + (title.height - font.lineHeight) / 2 + font.ascent
        font.draw(
            font.wrap(bar.title, maxWidth: title.width).first ?? "", x: title.x, baselineY: baseline,
            color: palette.secondaryText, into: target)
        // The end of what is typed stays in view; a multi-line value shows on one line.
        var shown = bar.text.replacingNewlines()
        while !shown.isEmpty, font.width(of: shown) > field.width - 28 {
            if bar.mode == .typing { shown.removeFirst() } else { shown.removeLast() }
        }
        let color: Color = bar.mode == .typing ? palette.fieldText : palette.text
        font.draw(shown, x: field.x + 12, baselineY: baseline, color: color, into: target)
        if bar.mode == .typing {
            let x = field.x + 13 + font.width(of: shown)
            fill(
                target, PixelBox(x: x, y: field.y + 10, width: 2, height: field.height - 20), palette.accent,
                op: PIXMAN_OP_SRC
            )
        }
    }
}

extension String {
    /// The text with each line break shown as " ⏎ ", for a one-line field.
    fileprivate func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ⏎ ")
    }
}
