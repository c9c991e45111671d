import CPixman
import LecternCore

extension FrameCompositor {
    /// What a text selection covers, in buffer pixels (for damage).
    func selectionBoxes(_ selection: Scene.TextSelection?, in scene: Scene) -> [PixelBox] {
        guard let selection else { return [] }
        return selection.highlights.map(\.visible) + selection.handles
            + (selection.qrButton.map { [scene.scale.enclosingPixels($0)] } ?? [])
    }

    /// The selection's highlight, multiplied onto the pages under it.
    func paintSelectionHighlight(_ selection: Scene.TextSelection?, repaint: Region, into target: OpaquePointer) {
        guard let selection else { return }
        for highlight in selection.highlights {
            let area = repaint.intersecting(highlight.visible)
            guard !area.isEmpty else { continue }
            area.clip(target)
            fillPixels(target, highlight.visible, .textSelection, op: PIXMAN_OP_MULTIPLY)
        }
        repaint.clip(target)
    }

    /// The handles and the QR-code button, over the pages and the chrome.
    func paintSelectionControls(_ selection: Scene.TextSelection?, into target: OpaquePointer) {
        guard let selection else { return }
        for handle in selection.handles {
            fillPixels(target, handle, .selectionHandle, op: PIXMAN_OP_SRC)
        }
        if let button = selection.qrButton {
            paintButton(Scene.TextSelection.qrButtonLabel, in: button, font: bodyFont, into: target)
        }
    }
}
