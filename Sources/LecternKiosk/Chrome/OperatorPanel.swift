import LecternCore
import LecternRender
import Logging

/// The operator's panel: the open document's facts (its file, title, pages, language, whether
/// it is tagged or was repaired) and its binding, which a tap changes and Save keeps as
/// `[annotations] save` says (in place, a copy, or not at all). Off unless the policy names its
/// keys (`operator.panel-keys`) or a number of taps in a row in the top left corner
/// (`operator.panel-taps`). While it is open it takes every touch, click and key: a tap on a row
/// does what the row says, anywhere else (or Escape) closes it. The idle reset closes it.
///
/// Drawn as the contents panel is, at the left below the title bar's place.
final class OperatorPanel {
    private let policy: PolicyInForce
    private let current: CurrentReader
    private let annotations: Annotations
    private let chrome: Chrome
    private let screen: Screen
    private let frame: FrameRequest
    private let logger: Logger
    /// The panel is open.
    private(set) var isOpen = false
    /// The taps in the corner so far: when the last one came down.
    private var taps: (count: Int, last: Double) = (0, 0)
    /// The touches that came down while the panel was open: their events end here.
    private var owned: Set<Int> = []
    /// The pointer's button came down while the panel was open.
    private var ownsButton = false

    /// How soon after the last a corner tap must come to count with it.
    static let tapInterval = 0.6

    init(
        policy: PolicyInForce, current: CurrentReader, annotations: Annotations, chrome: Chrome, screen: Screen,
        frame: FrameRequest, logger: Logger
    ) {
        self.policy = policy
        self.current = current
        self.annotations = annotations
        self.chrome = chrome
        self.screen = screen
        self.frame = frame
        self.logger = logger
    }

    /// What a row is.
    enum Row: Equatable {
        case fact(String, String)
        case binding, save, close
    }

    /// The rows, top to bottom.
    var rows: [Row] {
        guard let document = current.reader?.document else { return [.close] }
        var rows: [Row] = [.fact(tr("File"), String(document.path.split(separator: "/").last ?? ""))]
        if let title = document.summary.title, !title.isEmpty { rows.append(.fact(tr("Title"), title)) }
        rows.append(.fact(tr("Pages"), Translation.language.number(document.pageCount)))
        if let language = document.summary.language { rows.append(.fact(tr("Language"), language)) }
        if document.wasRepaired { rows.append(.fact(tr("Repaired"), tr("yes"))) }
        return rows + [.binding, .save, .close]
    }

    /// What `row` says: its name, and its value on the right.
    func label(_ row: Row) -> (title: String, value: String) {
        switch row {
        case .fact(let name, let value): (name, value)
        case .binding:
            (
                tr("Binding"),
                current.reader?.view.configuration.pageBinding.isRightToLeft == true
                    ? tr("right to left") : tr("left to right")
            )
        case .save:
            switch policy.annotationSave {
            case .discard: (tr("Save"), tr("off ([annotations] save)"))
            case .copy: (tr("Save"), tr("a copy"))
            case .inPlace: (tr("Save"), tr("in place"))
            }
        case .close: (tr("Close"), "")
        }
    }

    /// The rows as the status reports them: "Binding: left to right".
    var status: [String]? {
        guard isOpen else { return nil }
        return rows.map(label).map { $0.value.isEmpty ? $0.title : "\($0.title): \($0.value)" }
    }

    /// The panel's box on screen.
    private var box: PixelBox {
        Scene.OutlinePanel.box(width: screen.width, height: screen.height, metrics: screen.metrics)
    }
    private var rowHeight: Int { Scene.OutlinePanel.rowHeight(screen.metrics) }

    /// What the frame shows over the pages while it is open.
    var scene: Scene.OutlinePanel? {
        guard isOpen else { return nil }
        let top = box.y
        return Scene.OutlinePanel(
            rows: rows.enumerated().map { index, row in
                let (title, value) = label(row)
                return .init(
                    title: title, page: value, depth: 0, disclosure: .none, isCurrent: false, y: top + index * rowHeight
                )
            })
    }

    /// Closes the panel (the idle reset).
    func close() {
        guard isOpen else { return }
        isOpen = false
        frame.request()
    }

    private func open() {
        guard current.reader != nil else { return }
        isOpen = true
        logger.info("operator's panel opened")
        frame.request()
    }

    /// Takes `event` if it opens the panel or the panel is open; returns whether it did.
    func handle(_ event: InputEvent, pointer: Point?) -> Bool {
        // The rest of a touch or click that came down on the open panel ends here, even after it
        // closed the panel; one that began before the panel opened (the last corner tap) ends
        // where it began.
        switch event.kind {
        case .touchMotion(let id, _) where owned.contains(id):
            return true
        case .touchUp(let id) where owned.contains(id):
            owned.remove(id)
            return true
        case .pointerButton(_, false) where ownsButton:
            ownsButton = false
            return true
        case .touchCancel:
            owned.removeAll()
        default:
            break
        }
        if !isOpen {
            return opens(event)
        }
        switch event.kind {
        case .key(let key, _):
            if key == .escape || policy.operatorPanelKeys.contains(key) { close() }
            return true
        case .touchDown(let id, let location):
            owned.insert(id)
            press(at: location)
            return true
        case .pointerButton(.left, true):
            if let pointer {
                ownsButton = true
                press(at: pointer)
            }
            return true
        case .scroll:
            return true
        default:
            return false
        }
    }

    /// Whether `event` is the key or the last corner tap that opens the panel (it then opens).
    private func opens(_ event: InputEvent) -> Bool {
        switch event.kind {
        case .key(let key, _) where policy.operatorPanelKeys.contains(key):
            open()
            return isOpen
        case .touchDown(_, let location) where policy.operatorPanelTaps > 0:
            let corner = Double(screen.metrics.buttonHeight)
            guard location.x < corner, location.y < corner else {
                taps = (0, 0)
                return false
            }
            taps =
                event.time - taps.last <= Self.tapInterval && taps.count > 0
                ? (taps.count + 1, event.time) : (1, event.time)
            guard taps.count >= policy.operatorPanelTaps else { return false }
            taps = (0, 0)
            open()
            return false
        default:
            return false
        }
    }

    private func press(at point: Point) {
        let index = (Int(point.y) - box.y) / rowHeight
        guard box.contains(point), Int(point.y) >= box.y, index < rows.count else {
            close()
            return
        }
        choose(rows[index])
    }

    private func choose(_ row: Row) {
        switch row {
        case .fact: return
        case .close: close()
        case .binding:
            guard let reader = current.reader else { return }
            let rightToLeft = !reader.view.configuration.pageBinding.isRightToLeft
            logger.info("operator's panel: binding \(rightToLeft ? "right" : "left")")
            _ = annotations.setReadingDirection(rightToLeft: rightToLeft)
        case .save:
            let outcome = annotations.saveByPolicy()
            logger.info("operator's panel: save: \(outcome)")
            chrome.showNotice(outcome, seconds: 5)
        }
        frame.request()
    }
}
