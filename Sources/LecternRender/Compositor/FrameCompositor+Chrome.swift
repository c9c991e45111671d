import CPixman
import LecternCore

extension FrameCompositor {
    /// The title bar (back button, buttons, the title, where the reader is) and the scrubber.
    /// Left to right: the buttons at the left, the position at the right end. Mirrored for a
    /// right-to-left language (the boxes through `ChromeMetrics.placed`): the buttons from the
    /// right, the title after them, the position at the left end.
    func paint(_ chrome: Scene.Chrome, in scene: Scene, target: OpaquePointer) {
        let top = Scene.Chrome.titleBar(width: scene.width, height: scene.height, metrics: scene.metrics)
        let bottom = Scene.Chrome.scrubberBar(width: scene.width, height: scene.height, metrics: scene.metrics)
        fill(target, top, palette.chrome, op: PIXMAN_OP_SRC)
        fill(target, bottom, palette.chrome, op: PIXMAN_OP_SRC)
        // The scrubber: a track with the current position.
        let track = Scene.Chrome.scrubberTrack(width: scene.width, height: scene.height, metrics: scene.metrics)
        fill(target, track, palette.secondaryText.withAlpha(110), op: PIXMAN_OP_OVER)
        let progress = min(1, max(0, chrome.progress))
        let fraction = chrome.isRightToLeft ? 1 - progress : progress
        let knobX = track.x + Int(Double(track.width) * fraction)
        fill(target, PixelBox(x: knobX - 10, y: track.y - 12, width: 20, height: 30), palette.text, op: PIXMAN_OP_SRC)
        guard let bodyFont else { return }
        let metrics = scene.metrics
        // Where a text `width` wide starting `x` from the bar's start edge goes.
        func start(_ x: Int, width: Int) -> Int { metrics.placed(PixelBox(x: x, y: 0, width: width, height: 0)).x }
        let baseline = top.y + (top.height - bodyFont.lineHeight) / 2 + bodyFont.ascent
        let positionWidth = bodyFont.width(of: chrome.position)
        bodyFont.draw(
            chrome.position, x: start(top.maxX - 24 - positionWidth, width: positionWidth), baselineY: baseline,
            color: palette.text, into: target)
        var titleX = 24
        if let back = chrome.backLabel {
            let button = Scene.Chrome.backButton(width: scene.width, height: scene.height, metrics: metrics)
            fill(target, button.insetBy(dx: 8, dy: 8), palette.card, op: PIXMAN_OP_SRC)
            let x = button.x + max(0, (button.width - bodyFont.width(of: back)) / 2)
            bodyFont.draw(back, x: x, baselineY: baseline, color: palette.text, into: target)
            titleX = button.width + 16
        }
        let leading = chrome.backLabel == nil ? 0 : titleX - 16
        for (index, label) in chrome.buttons.enumerated() {
            let box = Scene.Chrome.buttonBox(index, after: leading, metrics: metrics)
            paintButton(label, in: box, font: bodyFont, into: target)
        }
        if !chrome.buttons.isEmpty {
            titleX = Scene.Chrome.buttonBox(chrome.buttons.count, after: leading, metrics: metrics.leftToRight).x + 8
        }
        let titleSpace = max(0, top.width - positionWidth - 48 - titleX)
        let title = bodyFont.wrap(chrome.title, maxWidth: titleSpace).first ?? ""
        // A narrow screen (a portrait one at scale 2 is 360 units wide) leaves no room: no
        // title then, rather than one written over the position.
        let titleWidth = bodyFont.width(of: title)
        guard titleWidth <= titleSpace else { return }
        bodyFont.draw(
            title, x: start(titleX, width: titleWidth), baselineY: baseline, color: palette.text, into: target)
    }
}
