import LecternCore
import LecternLinux
import LecternRender
import Logging

/// What the reader shows around the pages, and the input that belongs to it: the title bar
/// and page scrubber (shown and hidden by a tap), the page number being typed, and a passing
/// notice along the bottom (where a web link leads).
///
/// A touch or click that starts on the scrubber moves through the document and is not a
/// gesture on the page; a page number or label then Enter go to that page. Both are handled here before the
/// interaction controller sees the event.
final class Chrome {
    let loop: EventLoop
    /// The policy in force.
    let policy: PolicyInForce
    let screen: Screen
    private let logger: Logger
    private var noticeTimer: EventLoop.Timer?

    /// The title bar and page scrubber are shown.
    var isVisible = false {
        didSet { if isVisible != oldValue { frame.request() } }
    }
    /// The page number or label typed so far (Enter goes to that page).
    private(set) var pageEntry = ""
    /// A passing message along the bottom.
    private(set) var notice: String?
    /// Told each notice as it is shown (speech says it to a visitor who cannot see it).
    var onNotice: ((String) -> Void)?
    /// The label of the notice's button ("More time"), if it has one.
    private(set) var noticeAction: String?
    /// Where the notice's button was in the last frame committed (surface units): what a press
    /// must hit (`FramePresenter` sets it).
    var drawnNoticeButton: PixelBox?
    /// A web link's QR code, shown with its notice (the next touch takes both away).
    private(set) var qrCode: QRCode?
    /// Asks the components of the back button and the scrubber before they act.
    var gate = ChromeGate()
    /// The scrubber's press was refused by its component: its drag does nothing.
    private var scrubbingRefused = false
    /// The touch (or -1: the pointer) dragging the page scrubber.
    private(set) var scrubbingTouch: Int?
    /// Where the pointer is (`InputRouter` keeps it).
    let pointer: Pointer
    /// The touch (or -1: the pointer) pressing the back button: its events end here.
    private var backTouch: Int?
    /// Whether the title bar has a button back to the shelf (set when the policy has one).
    var hasBack: Bool { policy.hasShelf }
    /// Called when the back button (or Escape) asks for the shelf.
    var onBack: (() -> Void)?
    /// Asked for when what the chrome shows changed.
    let frame: FrameRequest
    /// Called by `reset()`: what hangs off the chrome (the navigation overlays) closes too.
    var onReset: (() -> Void)?
    /// The language the chrome speaks.
    let language: ChromeLanguage

    init(
        loop: EventLoop, frame: FrameRequest, pointer: Pointer, policy: PolicyInForce, screen: Screen, logger: Logger
    ) {
        self.loop = loop
        self.pointer = pointer
        self.frame = frame
        self.policy = policy
        self.screen = screen
        self.logger = logger
        language = ChromeLanguage(policy: policy, frame: frame, logger: logger)
        policy.observe { [unowned self] old, new in
            if new.chrome != old.chrome { isVisible = new.chrome == .always }
        }
    }

    /// Hidden, nothing typed, no drag (after the idle reset).
    func reset() {
        isVisible = policy.chrome == .always
        pageEntry = ""
        scrubbingTouch = nil
        onReset?()
        frame.request()
    }

    /// The scrubber runs right to left: for a document bound on the right, and in a chrome
    /// mirrored for a right-to-left language (where the page-turn zones still follow the binding).
    func scrubsRightToLeft(_ reader: Reader) -> Bool {
        reader.view.configuration.pageBinding == .rightEdge || Translation.language.isRightToLeft
    }

    /// Takes the notice away now.
    func clearNotice() {
        guard notice != nil else { return }
        noticeTimer?.cancel()
        notice = nil
        noticeAction = nil
        qrCode = nil
        frame.request()
    }

    /// Stops the notice's timer (shutdown).
    func close() {
        noticeTimer?.cancel()
        language.close()
    }

    /// Whether a finger or the pointer is dragging the scrubber.
    var isScrubbing: Bool { scrubbingTouch != nil }

    // MARK: What the chrome shows

    /// The title bar and scrubber for the frame, when shown (or while a page number is typed).
    func scene(for reader: Reader) -> Scene.Chrome? {
        guard isVisible || !pageEntry.isEmpty else { return nil }
        let page = reader.view.dominantPage()
        let count = reader.view.pages.count
        let position = pageEntry.isEmpty ? positionText(for: reader) : tr("Go to page %s_ of %s", pageEntry, count)
        return Scene.Chrome(
            title: fileName(reader.document.path), position: position,
            progress: count > 1 ? Double(page) / Double(count - 1) : 0,
            isRightToLeft: scrubsRightToLeft(reader), backLabel: hasBack ? tr("‹ Shelf") : nil
        )
    }

    /// "Page 4 of 320", "iv (4 of 320)", "12–13 of 320": the dominant page's spread.
    func positionText(for reader: Reader) -> String {
        let view = reader.view
        guard view.pages.count > 0 else { return "" }
        let spread = view.spreads.spreadIndex(forPage: view.dominantPage())
        return PagePosition.text(
            pages: view.spreads.pageRange(forSpread: spread), count: view.pages.count,
            label: reader.document.label(forPage:))
    }

    /// Shows `text` along the bottom for `seconds`, with a button labelled `action` if given
    /// (`isOnNoticeButton(_:)` tells whether a press hits it). `onNotice` is told it (speech says
    /// it), unless `isSaid` is false (the idle countdown, whose seconds are said more sparingly).
    func showNotice(
        _ text: String, seconds: Double = 5, qrCode: QRCode? = nil, action: String? = nil, isSaid: Bool = true
    ) {
        if isSaid { onNotice?(text) }
        notice = text
        noticeAction = action
        self.qrCode = qrCode
        noticeTimer?.cancel()
        noticeTimer = loop.schedule(after: seconds) { [unowned self] in
            notice = nil
            noticeAction = nil
            self.qrCode = nil
            frame.request()
        }
        frame.request()
    }

    /// Whether `event` presses the notice's button (a touch down or a left click on it, as it is
    /// on screen).
    func isOnNoticeButton(_ event: InputEvent) -> Bool {
        guard noticeAction != nil, let button = drawnNoticeButton else { return false }
        let point: Point? =
            switch event.kind {
            case .touchDown(_, let location): location
            case .pointerButton(.left, true): pointer.location
            default: nil
            }
        guard let point else { return false }
        return button.contains(point)
    }

    // MARK: Input

    /// Handles `event` if it belongs to the chrome; returns whether it did.
    func handle(_ event: InputEvent, reader: Reader) -> Bool {
        let handled =
            handleBack(event) || handleScrubber(event, reader: reader) || handlePageEntry(event, reader: reader)
        if handled { frame.request() }
        return handled
    }

    /// The scrubber's bar and track, when the chrome is shown (as the compositor draws them).
    private func scrubber() -> (bar: PixelBox, track: PixelBox)? {
        guard isVisible else { return nil }
        let width = screen.width, height = screen.height
        return (
            Scene.Chrome.scrubberBar(width: width, height: height, metrics: screen.metrics),
            Scene.Chrome.scrubberTrack(width: width, height: height, metrics: screen.metrics)
        )
    }

    /// A press on the back button goes back to the shelf when it is released (the whole touch
    /// or click belongs to the button). Escape does the same when nothing is typed.
    private func handleBack(_ event: InputEvent) -> Bool {
        let width = screen.width, height = screen.height
        func onButton(_ point: Point?) -> Bool {
            guard isVisible, hasBack, let point else { return false }
            let button = Scene.Chrome.backButton(width: width, height: height, metrics: screen.metrics)
            // From the title bar's end it sits at (the right one in a right-to-left language).
            let across =
                screen.metrics.mirroredWidth == nil ? point.x < Double(button.maxX) : point.x >= Double(button.x)
            return across && point.y < Double(button.maxY)
        }
        switch event.kind {
        case .touchDown(let id, let location) where onButton(location):
            backTouch = id
            return true
        case .pointerButton(.left, true) where onButton(pointer.location):
            backTouch = -1
            return true
        case .touchMotion(let id, _) where id == backTouch:
            return true
        case .touchUp(let id) where id == backTouch:
            backTouch = nil
            goBack()
            return true
        case .pointerButton(.left, false) where backTouch == -1:
            backTouch = nil
            goBack()
            return true
        case .touchCancel:
            backTouch = nil
            return false
        case .key(.escape, _) where pageEntry.isEmpty && hasBack:
            goBack()
            return true
        default:
            return false
        }
    }

    /// Back to the shelf, if the back button's component allows.
    private func goBack() {
        let button = Scene.Chrome.backButton(width: screen.width, height: screen.height, metrics: screen.metrics)
        if gate.allowsButton(
            "back", at: Point(x: Double(button.x + button.width / 2), y: Double(button.y + button.height / 2)))
        {
            onBack?()
        }
    }

    /// A press on the scrubber: the scrubber's component decides, with the page it goes to.
    private func beginScrubbing(_ id: Int, at location: Point, reader: Reader) {
        scrubbingTouch = id
        let context = ChromeInteractionContext(control: "scrubber", page: scrubbedPage(at: location, reader: reader))
        scrubbingRefused = !gate.allows(context, location)
        scrub(to: location, reader: reader)
    }

    private func handleScrubber(_ event: InputEvent, reader: Reader) -> Bool {
        switch event.kind {
        case .touchDown(let id, let location):
            guard let scrubber = scrubber(), location.y >= Double(scrubber.bar.y) else { return false }
            beginScrubbing(id, at: location, reader: reader)
            return true
        case .touchMotion(let id, let location) where id == scrubbingTouch:
            scrub(to: location, reader: reader)
            return true
        case .touchUp(let id) where id == scrubbingTouch:
            scrubbingTouch = nil
            return true
        case .touchCancel:
            scrubbingTouch = nil
            return false
        case .pointerButton(.left, let pressed):
            if pressed, let scrubber = scrubber(), let location = pointer.location,
                location.y >= Double(scrubber.bar.y)
            {
                beginScrubbing(-1, at: location, reader: reader)
                return true
            }
            if !pressed, scrubbingTouch == -1 {
                scrubbingTouch = nil
                return true
            }
            return false
        case .pointerEnter(let location), .pointerMotion(let location):
            if scrubbingTouch == -1 {
                scrub(to: location, reader: reader)
                return true
            }
            return false
        case .pointerLeave:
            if scrubbingTouch == -1 { scrubbingTouch = nil }
            return false
        default:
            return false
        }
    }

    /// The page the scrubber's track shows at `location`.
    private func scrubbedPage(at location: Point, reader: Reader) -> Int? {
        guard let track = scrubber()?.track, track.width > 0 else { return nil }
        let count = reader.view.pages.count
        var fraction = min(1, max(0, (location.x - Double(track.x)) / Double(track.width)))
        if scrubsRightToLeft(reader) { fraction = 1 - fraction }
        return Int((fraction * Double(count - 1)).rounded())
    }

    private func scrub(to location: Point, reader: Reader) {
        guard !scrubbingRefused, let page = scrubbedPage(at: location, reader: reader),
            page != reader.view.dominantPage()
        else { return }
        reader.view.stopAnimations()
        try? reader.view.goToPage(page)
    }

    /// A page number or label then Enter go to that page ("12", "iv", "A-7"); Backspace edits,
    /// Escape cancels. An entry starts with a digit or a letter; once started, any character
    /// the key types continues it.
    private func handlePageEntry(_ event: InputEvent, reader: Reader) -> Bool {
        guard case .key(let key, _) = event.kind else { return false }
        switch key {
        case .backspace where !pageEntry.isEmpty:
            pageEntry.removeLast()
            return true
        case .escape where !pageEntry.isEmpty:
            pageEntry = ""
            return true
        case .enter where !pageEntry.isEmpty:
            let entry = pageEntry
            pageEntry = ""
            let count = reader.view.pages.count
            guard
                let page = PagePosition.page(
                    forEntry: entry, count: count, pageForLabel: { reader.document.pageIndex(forLabel: $0) })
            else {
                showNotice(tr("There is no page “%s” in this document.", entry))
                return true
            }
            reader.view.stopAnimations()
            try? reader.view.goToPage(page)
            logger.debug("go to page \(page + 1) (typed \(entry))")
            return true
        default:
            guard let character = key.character, pageEntry.isEmpty ? character.isLetter || character.isNumber : true
            else { return false }
            if pageEntry.count < 24 { pageEntry.append(character) }
            return true
        }
    }
}

/// The last component of a path.
func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}
