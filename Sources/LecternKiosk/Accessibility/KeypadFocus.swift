import LecternCore
import LecternLinux
import LecternRender
import Logging

/// Five-key navigation (the EZ Access model) for a visitor who cannot see the screen or use
/// touch: a numeric keypad, the arrow keys or a switch interface move a focus ring through the
/// page's paragraphs, links and fields in reading order and then the chrome's buttons
/// (`KeypadCommand`: 8/2 previous/next, 4/6 turn the page, 5 activates, 0 goes back a level,
/// `*` says where you are). What is open over the page (search, the contents, all pages,
/// a field being filled, the shelf) is a level of its own that Back leaves: nothing traps the focus.
///
/// The focus is off until a keypad key is pressed, so a sighted visitor touching the screen
/// never sees a ring; a touch, click or the wheel hides it again, and the idle reset clears it.
/// Speech is connected through `onSpeech`: every navigation key sends `.interrupt`, and the
/// item that got the focus (or the help) follows as `.say`.
final class KeypadFocus {
    let current: CurrentReader
    let chrome: Chrome
    let navigation: Navigation
    let annotations: Annotations
    let shelf: Shelf
    /// The accessibility button and its panel: items after the title bar's buttons.
    let panel: AccessibilityPanel
    let screen: Screen
    let frame: FrameRequest
    let loop: EventLoop
    /// The policy in force: its `[keypad]` key map.
    let policy: PolicyInForce
    private let logger: Logger
    /// The interaction controller (links and fields are activated through its components, so
    /// the policy's conditions apply as for a tap).
    var interactions: () -> InteractionController? = { nil }
    /// Where speech is told what to say (the speech process connects here).
    var onSpeech: ((SpeechRequest) -> Void)?
    /// Whether a field's value may be said (`Narrator.saysFieldValues`: headphones are in).
    var saysFieldValues: () -> Bool = { false }

    /// The ring shows (a keypad key was pressed since the last touch).
    private(set) var isShown = false
    /// The level the cursor belongs to, and the spread it was on (a page turn starts over).
    private(set) var level = FocusLevel.page
    private var spread: Int?
    private(set) var cursor = FocusCursor()
    /// The focused item, as it was when it got the focus.
    private(set) var focused: FocusItem?
    /// The last thing said (`onSpeech`'s last `.say`).
    private(set) var lastSpoken: String?
    /// The ring the last frame drew, in buffer pixels.
    var lastRing: Scene.FocusRing?
    /// A cover was chosen on the shelf by keys: the document opening keeps the focus.
    var opensDocument = false
    /// The page's focus while something is open over it.
    private var pageFocus: (cursor: FocusCursor, item: FocusItem?, spread: Int?)?
    /// A page turn asked for the new spread's first item, said when its text has arrived.
    private var awaitsFirstItem = false

    init(
        current: CurrentReader, chrome: Chrome, navigation: Navigation, annotations: Annotations, shelf: Shelf,
        panel: AccessibilityPanel, screen: Screen, frame: FrameRequest, loop: EventLoop, policy: PolicyInForce,
        logger: Logger
    ) {
        self.panel = panel
        self.policy = policy
        self.current = current
        self.chrome = chrome
        self.navigation = navigation
        self.annotations = annotations
        self.shelf = shelf
        self.screen = screen
        self.frame = frame
        self.loop = loop
        self.logger = logger
    }

    /// Off, nothing focused (the idle reset, a document opened); but a document chosen on the
    /// shelf by keys opens with the focus on, on its first item.
    func reset() {
        isShown = opensDocument
        cursor = FocusCursor()
        focused = nil
        spread = nil
        awaitsFirstItem = opensDocument
        opensDocument = false
        level = .page
        pageFocus = nil
    }

    /// Handles `event` if it is a navigation key; a touch, click or the wheel hides the ring
    /// (and goes on to the rest of the app).
    func handle(_ event: InputEvent) -> Bool {
        switch event.kind {
        case .touchDown, .pointerButton(_, true), .scroll:
            if isShown {
                isShown = false
                frame.request()
            }
            return false
        case .key(let key, _):
            // Enter and Escape finish or drop a page number being typed, as without the focus.
            if !chrome.pageEntry.isEmpty, key == .enter || key == .escape { return false }
            guard let command = policy.keypadKeys.command(for: key, isFocusShown: isShown) else { return false }
            perform(command)
            frame.request()
            return true
        default:
            return false
        }
    }

    private func perform(_ command: KeypadCommand) {
        say(.interrupt)
        if command != .select { opensDocument = false }
        let wasShown = isShown
        isShown = true
        let now = currentLevel
        if now != level || (now == .page && spread != current.reader?.view.destinationSpread) {
            enter(now)
        }
        logger.debug("keypad \(command.rawValue) on the \(level.rawValue) level")
        switch command {
        case .next, .previous:
            // The first key shows where the focus is, without moving it on.
            if wasShown || cursor.index == nil { move(by: command == .next ? 1 : -1) } else { sayFocused() }
        case .pageLeft, .pageRight:
            if level == .outline {
                toggleEntry(open: command == .pageRight)
            } else {
                turnPage(right: command == .pageRight)
            }
        case .select:
            activate()
        case .back:
            back()
        case .help:
            let items = items(for: level)
            let position = level == .shelf ? "" : current.reader.map { chrome.positionText(for: $0) } ?? ""
            say(
                .say(
                    FocusPhrases.help(
                        level: level, position: position, item: focused, index: cursor.index, count: items.count)))
        }
    }

    /// What the focus moves through now: the topmost thing open.
    var currentLevel: FocusLevel {
        if shelf.isShown { return .shelf }
        if annotations.isEditing { return .editing }
        if navigation.grid.isOpen { return .grid }
        if navigation.outline.isOpen { return .outline }
        if navigation.search.isOpen { return .search }
        return .page
    }

    /// Starts over on `new` (it opened, or the spread changed), before its first item; back on
    /// the page from what was open over it, the focus is where it was (the button that opened
    /// it) if the page is the same.
    private func enter(_ new: FocusLevel) {
        if level == .page, new != .page { pageFocus = (cursor, focused, spread) }
        level = new
        cursor = FocusCursor()
        focused = nil
        spread = current.reader?.view.destinationSpread
        guard new == .page else { return }
        if let saved = pageFocus, saved.spread == spread { (cursor, focused) = (saved.cursor, saved.item) }
        pageFocus = nil
    }

    func move(by step: Int) {
        let items = items(for: level)
        cursor.move(by: step, count: items.count)
        focus(items)
    }

    /// Takes the cursor's item as the focused one, says it, and shows the chrome when it is a
    /// chrome button (the ring must have a button to go around).
    private func focus(_ items: [FocusItem], saying prefix: String = "") {
        cursor.clamp(to: items.count)
        focused = cursor.index.map { items[$0] }
        // (The accessibility button and its panel are there without the chrome.)
        if level == .page, let focused, focused.kind == .button, !panel.covers(focused.rect.center) {
            chrome.isVisible = true
        }
        if let index = cursor.index, scrollsToShow(index) {
            // A long list scrolled to the item: its box moved with it.
            focused = self.items(for: level)[index]
        }
        reveal()
        sayFocused(prefix)
    }

    /// Scrolls the contents, the grid of all pages or the shelf to show item `index`; whether it did.
    private func scrollsToShow(_ index: Int) -> Bool {
        switch level {
        case .outline:
            navigation.outline.scrollToShow(row: index)
            return true
        case .shelf:
            shelf.scrollToShow(index)
            return true
        case .page where panel.accessibility.largePrint.coversPage:
            let items = items(for: .page)
            guard items.indices.contains(index), items[index].kind != .button else { return false }
            panel.accessibility.largePrint.scrollToShow(items[index].rect)
            return true
        case .grid where index > 0:
            guard let reader = current.reader else { return false }
            navigation.grid.scrollToShow(spread: index - 1, reader: reader)
            return true
        default:
            return false
        }
    }

    /// Scrolls a zoomed-in page so that the focused item is on screen (one spread at a time:
    /// the spread stays the same). Not while the view moves (a followed link's page turn): the
    /// item's place then is not where it comes to rest, and a scroll would stop the turn half-way.
    private func reveal() {
        guard let focused, let page = focused.page, let view = current.reader?.view, view.layout.isPagingEnabled,
            !view.isAnimating
        else { return }
        let rect = view.convert(focused.rect, from: .page(page), to: .view)
        let bounds = view.viewBounds.inset(by: EdgeInsets(all: 16))
        func delta(_ low: Double, _ high: Double, _ boundLow: Double, _ boundHigh: Double) -> Double {
            if low < boundLow || high - low > boundHigh - boundLow { return low - boundLow }
            return high > boundHigh ? high - boundHigh : 0
        }
        let shift = Point(
            x: delta(rect.minX, rect.maxX, bounds.minX, bounds.maxX),
            y: delta(rect.minY, rect.maxY, bounds.minY, bounds.maxY))
        guard shift != .zero else { return }
        current.reader?.view.scroll(by: shift)
    }

    private func sayFocused(_ prefix: String = "") {
        if let focused {
            say(.say(prefix + FocusPhrases.spoken(focused)))
        } else {
            say(.say(tr("%s: nothing to go to here yet. Press 0 to go back.", level.spokenName)))
        }
    }

    func say(_ request: SpeechRequest) {
        if case .say(let text) = request { lastSpoken = text }
        onSpeech?(request)
    }

    /// Turns a spread (left and right as the pages lie: mirrored under right-edge binding); the
    /// focus goes to the new spread's first item once its text is read.
    private func turnPage(right: Bool) {
        guard level == .page, let reader = current.reader else {
            return say(.say(tr("%s is open: 0 goes back to the page, where 4 and 6 turn it.", level.spokenName)))
        }
        let rightToLeft = reader.view.configuration.pageBinding.isRightToLeft
        let target = reader.view.destinationSpread + (right != rightToLeft ? 1 : -1)
        guard target >= 0, target < reader.view.layout.spreadCount else {
            return say(.say(right != rightToLeft ? tr("This is the last page.") : tr("This is the first page.")))
        }
        reader.view.turn(toSpread: target, at: loop.clock.now)
        awaitFirstItem(ofSpread: target)
    }

    /// The view goes to `target` (a page turn, a link): the focus goes to its first item once
    /// its pages' text is read (`focusFirstItemIfRead`, at each frame).
    private func awaitFirstItem(ofSpread target: Int) {
        cursor = FocusCursor()
        focused = nil
        spread = target
        awaitsFirstItem = true
        focusFirstItemIfRead()
    }

    /// In the contents, 6 and 4 open and close the entries under the focused one.
    private func toggleEntry(open: Bool) {
        let rows = current.reader.map { navigation.outline.rows(for: $0) } ?? []
        guard let row = cursor.index, rows.indices.contains(row), let isOpen = rows[row].isOpen, isOpen != open
        else { return sayFocused() }
        navigation.outline.toggle(row: row)
        focus(items(for: .outline))
    }

    /// Keeps the focus on the large print column's paragraph or link where it is now (the column
    /// scrolls under it); drops it when the column went away.
    func followLargePrint() {
        guard level == .page, let item = focused, item.page == nil, item.kind != .button else { return }
        let items = items(for: .page)
        guard let index = cursor.index, items.indices.contains(index), items[index].label == item.label else {
            focused = nil
            return
        }
        focused = items[index]
    }

    /// After a page turn: the first item of the new spread, once its pages' text has arrived.
    func focusFirstItemIfRead() {
        guard awaitsFirstItem, level == .page, let reader = current.reader else { return }
        let spread = spread ?? reader.view.destinationSpread
        guard spread < reader.view.layout.spreadCount else { return }
        self.spread = spread
        let pages = reader.view.spreads.pageRange(forSpread: spread)
        guard pages.allSatisfy({ reader.pageText[$0] != nil }),
            panel.accessibility.largePrint.isReady(forPage: reader.view.dominantPage())
        else { return }
        awaitsFirstItem = false
        let items = items(for: .page)
        cursor.reset(toFirstOf: items.count)
        // Where the visitor is now (the spread turned to, not yet the one on screen mid-turn).
        let position = PagePosition.text(
            pages: pages, count: reader.view.pages.count, label: reader.document.label(forPage:))
        let hasText = items.contains { $0.page != nil || $0.kind == .text }
        focus(items, saying: hasText ? position + ". " : tr("%s: there is no text on this page. ", position))
    }

    /// Back: leaves what is open (as Escape would); from the page, goes to the shelf when there is one.
    private func back() {
        switch level {
        case .page:
            guard chrome.hasBack else {
                let position = current.reader.map { chrome.positionText(for: $0) + ". " } ?? ""
                return say(.say(position + tr("This is the document: there is nothing to go back to.")))
            }
            chrome.onBack?()
        case .search:
            _ = current.reader.map { navigation.search.handle(.escape, reader: $0) }
        case .outline:
            navigation.outline.close()
        case .grid:
            navigation.grid.close()
        case .editing:
            _ = annotations.handle(.escape)
        case .shelf:
            say(.say(tr("The shelf: choose a document with up, down and 5.")))
            return
        }
        arrive()
    }

    /// After an action that may have opened or closed a level: says where the focus is now.
    func arrive() {
        let now = currentLevel
        let target = current.reader?.view.destinationSpread
        if now == level, now != .page || target == spread { return }
        enter(now)
        if now == .page, focused == nil, let target { return awaitFirstItem(ofSpread: target) }
        let items = items(for: now)
        if focused == nil {
            cursor.reset(toFirstOf: items.count)
            // All pages opens on the reader's spread (after its Close button).
            if now == .grid, let reader = current.reader, let spread = navigation.grid.openingSpread(of: reader) {
                cursor = FocusCursor(index: spread + 1)
            }
        }
        focus(items, saying: "\(now.spokenName). ")
    }

    static var shelfLabel: String { tr("Back to the shelf") }
}

extension Annotations {
    /// A field or note is being filled in (the annotation bar and keyboard are up).
    var isEditing: Bool { editing != nil }
}
