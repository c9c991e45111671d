import CPixman
import LecternCore

extension FrameCompositor {
    /// What changed between two frames' text selections, in buffer pixels: only the lines
    /// whose highlight changed (a handle dragged over a dense page repaints a line or two per
    /// frame, not the whole selection), the handles and the button.
    func selectionDamage(
        from old: Scene.TextSelection?, to new: Scene.TextSelection?, in scene: Scene
    )
        -> [PixelBox]
    {
        let highlights = Set(old?.highlights ?? []).symmetricDifference(Set(new?.highlights ?? []))
        let handles = Set(old?.handles ?? []).symmetricDifference(Set(new?.handles ?? []))
        var boxes = highlights.map(\.visible) + handles.map(\.box)
        if old?.qrButton != new?.qrButton {
            boxes += [old?.qrButton, new?.qrButton].compactMap { $0.map(scene.scale.enclosingPixels) }
        }
        return boxes
    }

    /// The selection's highlight, laid over the pages under it (`Palette.highlightOperator`).
    func paintSelectionHighlight(_ selection: Scene.TextSelection?, repaint: Region, into target: OpaquePointer) {
        guard let selection else { return }
        for highlight in selection.highlights {
            let area = repaint.intersecting(highlight.visible)
            guard !area.isEmpty else { continue }
            area.clip(target)
            fillPixels(target, highlight.visible, palette.textSelection, op: palette.highlightOperator)
        }
        repaint.clip(target)
    }

    /// The handles and the QR-code button, over the pages and the chrome.
    func paintSelectionControls(_ selection: Scene.TextSelection?, into target: OpaquePointer) {
        guard let selection else { return }
        for handle in selection.handles {
            fillPixels(target, handle.stem(scale: scale), palette.selectionHandle, op: PIXMAN_OP_SRC)
            fillPixels(target, handle.knob, palette.selectionKnob, op: PIXMAN_OP_OVER)
        }
        if let button = selection.qrButton {
            paintButton(Scene.TextSelection.qrButtonLabel, in: button, font: bodyFont, into: target)
        }
    }
}
