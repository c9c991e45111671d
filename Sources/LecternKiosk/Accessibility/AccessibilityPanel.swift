import LecternCore
import LecternRender
import Logging

/// The accessibility button, always on screen at the bottom left (in reach of a seated
/// visitor), with the international symbol of accessibility, and the panel it opens: read
/// aloud (or stop), the contrast (each tap the next one), large print (on and off) and, while it
/// is on, its text size, more time, close. What a visitor
/// chooses here is theirs until the idle reset (`VisitorAccessibility`).
///
/// A touch or click on the button or a row does that and nothing else (it is not a gesture on
/// the page); a touch elsewhere while the panel is open closes it.
final class AccessibilityPanel {
    let policy: PolicyInForce
    let narrator: Narrator
    let accessibility: VisitorAccessibility
    let chrome: Chrome
    let screen: Screen
    let pointer: Pointer
    let frame: FrameRequest
    private let logger: Logger
    /// The panel is open.
    private(set) var isOpen = false
    /// The touch (or -1: the pointer) pressing the button or a row: its events end here.
    private var pressing: Int?
    /// Called after a choice that changes how long the idle reset waits (more time, speech, a
    /// contrast): the wait is counted again.
    var onChange: (() -> Void)?
    /// The top of the on-screen keyboard when one is up (surface units): the button goes above it.
    var keyboardTop: () -> Double? = { nil }

    /// The contrasts a tap goes through, in order.
    static let contrasts: [Contrast.Mode] = [.normal, .invert, .high, .yellowOnBlack]

    init(
        policy: PolicyInForce, narrator: Narrator, accessibility: VisitorAccessibility, chrome: Chrome, screen: Screen,
        pointer: Pointer, frame: FrameRequest, logger: Logger
    ) {
        self.policy = policy
        self.narrator = narrator
        self.accessibility = accessibility
        self.chrome = chrome
        self.screen = screen
        self.pointer = pointer
        self.frame = frame
        self.logger = logger
    }

    /// What a row of the panel does.
    enum Row {
        case readAloud, stopReading, contrast, largePrint, textLarger, textSmaller, lower, moreTime, close
    }

    /// The rows of the open panel, top to bottom: what `accessibility.panel` names, in its order
    /// (Read aloud only where the policy has speech; Text size + and − while large print is on),
    /// then Close.
    var rows: [Row] {
        policy.accessibilityPanelItems.flatMap { item -> [Row] in
            switch item {
            case "read-aloud": policy.speechEnabled ? [narrator.isActive ? .stopReading : .readAloud] : []
            case "contrast": [.contrast]
            case "large-print": [.largePrint]
            case "text-size": accessibility.largePrint.isOn ? [.textLarger, .textSmaller] : []
            case "lower": [.lower]
            case "more-time": [.moreTime]
            default: []
            }
        } + [.close]
    }

    /// What `row` says.
    func label(_ row: Row) -> String {
        switch row {
        case .readAloud: tr("Read aloud")
        case .stopReading: tr("Stop reading")
        case .contrast: tr("Contrast: %s", Self.name(accessibility.contrast.contrast.mode))
        case .largePrint: accessibility.largePrint.isOn ? tr("Large print: on") : tr("Large print")
        case .textLarger: tr("Text size +")
        case .textSmaller: tr("Text size −")
        case .lower: accessibility.isLowered ? tr("Raise the page") : tr("Lower the page")
        case .moreTime: accessibility.hasMoreTime ? tr("More time: on") : tr("More time")
        case .close: tr("Close")
        }
    }

    static func name(_ mode: Contrast.Mode) -> String {
        switch mode {
        case .normal: tr("normal")
        case .invert: tr("inverted")
        case .high: tr("high")
        case .yellowOnBlack: tr("yellow on black")
        }
    }

    /// What the frame shows (nil when the policy hides the button).
    var scene: Scene.Accessibility? {
        guard var scene = button else { return nil }
        if isOpen { scene.rows = rows.map(label) }
        return scene
    }

    /// The button alone, without the rows' labels (nil when the policy hides it). Always above
    /// where the page scrubber shows, so that it stays where it is when the chrome comes and
    /// goes (a finger, or the keypad's ring, finds it in one place); above the on-screen
    /// keyboard while it is up (not over its keys).
    private var button: Scene.Accessibility? {
        guard policy.accessibilityButton else { return nil }
        let metrics = screen.metrics
        let keyboard = keyboardTop().map { screen.height - Int($0.rounded(.down)) } ?? 0
        return Scene.Accessibility(
            bottomInset: max(metrics.reachBottom + metrics.barHeight, keyboard), metrics: metrics)
    }

    /// The button on screen (surface units; nil when the policy hides it). The thumbnail bar
    /// asks each frame: no row is labelled for it.
    var buttonBox: PixelBox? { button?.buttonBox(height: screen.height) }

    /// Whether `point` (surface units) is on the button or a row of the open panel.
    func covers(_ point: Point) -> Bool {
        guard let scene else { return false }
        let height = screen.height
        return ([scene.buttonBox(height: height)] + scene.rowBoxes(height: height)).contains { $0.contains(point) }
    }

    /// Closes the panel (the idle reset).
    func close() {
        guard isOpen else { return }
        isOpen = false
        frame.request()
    }

    /// Handles `event` if it presses the button or a row, or closes the open panel; returns
    /// whether it took the event.
    func handle(_ event: InputEvent) -> Bool {
        // The panel's boxes only for a press: a pan's every motion comes here first.
        guard policy.accessibilityButton else { return false }
        switch event.kind {
        case .touchDown(let id, let location):
            guard let scene else { return false }
            return press(at: location, by: id, in: scene)
        case .pointerButton(.left, true):
            guard let scene, let location = pointer.location else { return false }
            return press(at: location, by: -1, in: scene)
        case .touchMotion(let id, _) where id == pressing:
            return true
        case .touchUp(let id) where id == pressing:
            pressing = nil
            return true
        case .pointerButton(.left, false) where pressing == -1:
            pressing = nil
            return true
        case .touchCancel:
            pressing = nil
            return false
        default:
            return false
        }
    }

    private func press(at point: Point, by id: Int, in scene: Scene.Accessibility) -> Bool {
        let height = screen.height
        if scene.buttonBox(height: height).contains(point) {
            isOpen.toggle()
        } else if let row = scene.rowBoxes(height: height).firstIndex(where: { $0.contains(point) }) {
            choose(rows[row])
        } else if isOpen {
            isOpen = false  // a touch elsewhere closes the panel, and does nothing else
        } else {
            return false
        }
        pressing = id
        frame.request()
        return true
    }

    private func choose(_ row: Row) {
        logger.info("accessibility panel: \(label(row))")
        switch row {
        case .readAloud:
            narrator.start()
            isOpen = false
        case .stopReading:
            narrator.stop()
        case .close:
            isOpen = false
        case .contrast:
            let modes = Self.contrasts
            let next = modes[((modes.firstIndex(of: accessibility.contrast.contrast.mode) ?? 0) + 1) % modes.count]
            accessibility.contrast.choose(Contrast(next, recolorsImages: policy.recolorsImages))
        case .largePrint:
            accessibility.largePrint.set(on: !accessibility.largePrint.isOn)
        case .textLarger:
            accessibility.largePrint.changeSize(by: 1)
        case .textSmaller:
            accessibility.largePrint.changeSize(by: -1)
        case .lower:
            // The panel closes: the page and the chrome move (the button stays where it is).
            accessibility.isLowered.toggle()
            isOpen = false
        case .moreTime:
            accessibility.grantMoreTime()
        }
        onChange?()
    }
}
