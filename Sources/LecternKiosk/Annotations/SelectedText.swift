import LecternCore
import LecternRender
import LecternWayland
import Logging

/// The visitor's text selection on screen and beyond it: the highlight, handles and QR-code
/// button in the frame, the text offered as the Wayland selection (where the compositor has a
/// data device), and the QR code a tap on the button shows (a tap anywhere closes it).
///
/// The selection itself lives in the interaction controller (`selectText`, `deselectText`,
/// the handle drag: LecternCore); the controller tells this part through `ReaderHost`.
final class SelectedText {
    /// The reader on screen (its page text).
    let current: CurrentReader
    /// The policy in force.
    let policy: PolicyInForce
    let chrome: Chrome
    let display: Display
    private let logger: Logger
    /// The selection as the controller last reported it, and its text.
    private(set) var selection: TextSelection?
    private(set) var text = ""
    /// The text offered as the Wayland selection (nil: none).
    private var offered: String?
    /// The QR-code button in the last frame, in surface units.
    private var qrButton: PixelBox?
    /// Asked for when what is on screen changed.
    let frame: FrameRequest

    init(
        current: CurrentReader, policy: PolicyInForce, chrome: Chrome, display: Display, frame: FrameRequest,
        logger: Logger
    ) {
        self.current = current
        self.frame = frame
        self.policy = policy
        self.chrome = chrome
        self.display = display
        self.logger = logger
    }

    /// The controller's selection changed (nil: cleared). It is offered to other clients once
    /// it settles: not a new `wl_data_source` for every motion of a handle drag.
    func changed(_ selection: TextSelection?, isSettled: Bool = true) {
        self.selection = selection
        text = selection.map { $0.text { self.current.reader?.pageText[$0]?.characters } } ?? ""
        let offer = text.isEmpty ? nil : text
        if isSettled, offer != offered {
            offered = offer
            display.offerSelection(offer)
            if let offer { logger.debug("selected \(offer.unicodeScalars.count) characters") }
        }
        frame.request()
    }

    /// Clears the selection (a new controller: idle reset, another document).
    func clear() {
        guard selection != nil else { return }
        qrButton = nil
        changed(nil)
    }

    /// The status for tests.
    var status: KioskStatus.TextSelectionStatus? {
        selection.map { .init(pages: $0.pages, text: text, qrCodeButton: qrButton) }
    }

    // MARK: Input

    /// The QR-code button under `point`, as a part that takes the whole touch or click and shows
    /// the selected text as a QR code (until the next tap) when it ends; nil elsewhere.
    func part(at point: Point) -> (any NavigationPart)? {
        guard let qrButton, selection != nil, qrButton.contains(point) else { return nil }
        return TapTarget { [unowned self] _, _ in showQRCode() }
    }

    private func showQRCode() {
        guard let code = QRCode(text) else {
            chrome.showNotice(tr("This text is too long for a QR code."))
            return
        }
        logger.info("showing the selected text as a QR code")
        chrome.showNotice(
            tr("Scan the selected text with a phone."), seconds: Double(policy.qrSeconds),
            qrCode: code)
    }

    // MARK: The frame

    /// The highlight, handles and button over the pages `plan` shows.
    func overlay(
        for reader: Reader, plan: TilePlanner.Plan, size: (width: Int, height: Int), scale: DisplayScale
    )
        -> Scene.TextSelection?
    {
        guard let selection else {
            qrButton = nil
            return nil
        }
        var highlights: [Scene.Highlight] = []
        var handles: [Scene.TextSelection.Handle] = []
        var endAnchor: Point?
        for item in plan.pages where selection.pages.contains(item.page) {
            guard let characters = reader.pageText[item.page]?.characters,
                let range = selection.range(onPage: item.page, count: characters.count)
            else { continue }
            let toPixels = reader.pageToPixels(item)
            let clip = item.frame.intersection(item.clip)
            highlights += characters.highlightRects(in: range).map { rect in
                Scene.Highlight(box: PixelBox(enclosing: toPixels.apply(to: rect)), clip: clip, isCurrent: false)
            }
            for handle in [TextSelectionHandle.start, .end] {
                let page = handle == .start ? selection.start.page : selection.end.page
                guard page == item.page, let anchor = selection.anchor(of: handle, in: characters) else { continue }
                let point = toPixels.apply(to: anchor)
                handles.append(.init(anchor: point, isStart: handle == .start, scale: scale))
                if handle == .end { endAnchor = point }
            }
        }
        qrButton = endAnchor.map { Self.buttonBox(below: $0, size: size, scale: scale) }
        return Scene.TextSelection(highlights: highlights, handles: handles, qrButton: qrButton)
    }

    /// The QR-code button under the end handle (above it near the bottom edge), on screen.
    private static func buttonBox(below anchor: Point, size: (width: Int, height: Int), scale: DisplayScale) -> PixelBox
    {
        let button = Scene.TextSelection.qrButtonSize
        let x = anchor.x / scale.factor, y = anchor.y / scale.factor
        let width = Int(button.width), height = Int(button.height)
        var top = Int(y) + 40
        if top + height > size.height { top = Int(y) - 60 - height }
        let left = min(max(0, Int(x) - width / 2), max(0, size.width - width))
        return PixelBox(x: left, y: max(0, top), width: width, height: height)
    }
}
