import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// Search: the search bar along the top (query, "3 of 17", previous, next, close) and the
/// on-screen keyboard along the bottom (a hardware keyboard types too). Every change to the
/// query starts a new search and cancels the one running; hits are highlighted on the pages
/// and the first one at or after the reader's page is shown.
///
/// The search runs on a worker of its own, page by page from the reader's page on (then from
/// the start), in chunks that each deliver their hits and the progress: the loop's thread only
/// files results, so no frame waits for it, and a new query's chunks start at once. It gives
/// way to the tile renders (the page on screen first) between pages.
final class Search {
    /// The reader on screen (its document is searched).
    let current: CurrentReader
    let screen: Screen
    private let logger: Logger
    let keyboardPart: OnScreenKeyboard
    private let worker: BackgroundWork
    private(set) var query = ""
    private(set) var isOpen = false
    private(set) var showsKeyboard = false
    private var results = SearchResults()
    /// Told what speech says of the search: how many matches when it is done, and which match
    /// the visitor went to.
    var onSay: ((String) -> Void)?
    /// Counts searches: a batch of an older one is dropped.
    private var generation = 0
    private var cookie: RenderCookie?
    private var pagesSearched = 0
    private var pageCount = 0
    /// Where the reader was before a hit moved the view, and where the last hit left it: a
    /// query that stops matching goes back there, unless the visitor moved on since.
    private var origin: (before: ViewState, shown: ViewState)?
    /// Asked for when results arrived.
    let frame: FrameRequest
    /// How many pixels at the bottom of a `width` × `height` screen the thumbnail bar and the
    /// chrome cover (set by `Navigation`): a hit is brought into view above them.
    var coveredBottom: (_ width: Int, _ height: Int) -> Int = { _, _ in 0 }

    /// The hits of a chunk of pages.
    struct Batch: Sendable {
        var generation: Int
        var pages: Int
        var hits: [(page: Int, hits: [SearchHit])]
    }

    /// How many pages a job searches before it reports.
    static let chunk = 32

    init(loop: EventLoop, frame: FrameRequest, current: CurrentReader, screen: Screen, logger: Logger) {
        self.frame = frame
        self.current = current
        self.screen = screen
        self.logger = logger
        keyboardPart = OnScreenKeyboard(screen: screen)
        worker = BackgroundWork(label: "lectern.search", qos: .userInitiated, loop: loop)
        keyboardPart.onKey = { [unowned self] action in
            switch action {
            case .character(let character): edit { $0.append(character) }
            case .backspace: edit { if !$0.isEmpty { $0.removeLast() } }
            case .done: hideKeyboard()
            }
        }
    }

    /// Cancels the search and stops watching the worker (shutdown).
    func shutdown() {
        close()
        worker.abandon()
    }

    /// Whether the worker has pages to search or results to deliver.
    var isBusy: Bool { worker.isBusy }

    /// What large print marks while the search is open: the query, and the hit it is at.
    var marked: (query: String, current: (page: Int, index: Int)?)? {
        guard isOpen, !query.isEmpty else { return nil }
        return (query, results.current.map { ($0.page, $0.index) })
    }

    /// Whether the keyboard covers the bottom of the screen.
    var isEditing: Bool { isOpen && showsKeyboard }

    /// Opens the search bar with the keyboard.
    func open() {
        isOpen = true
        showKeyboard()
    }

    /// Closes the search: no bar, no keyboard, no highlights.
    func close() {
        cancel()
        isOpen = false
        query = ""
        results = SearchResults()
        origin = nil
        hideKeyboard()
    }

    private func showKeyboard() {
        showsKeyboard = true
        followCover()
    }

    /// The keyboard goes; the current hit, which may have been brought up above it, is brought
    /// clear of what covers the screen's foot now (the thumbnail bar).
    private func hideKeyboard() {
        showsKeyboard = false
        keyboardPart.release()
        followCover()
        if let reader = current.reader, let current = results.current { reveal(current, reader: reader) }
    }

    /// Tells the pages how much of the screen the search bar, the keyboard and the chrome cover,
    /// so a hit under them can be brought out even on a fitted page (nothing while closed).
    func followCover() {
        guard let reader = current.reader else { return }
        let (width, height) = size
        let free = uncovered
        reader.view.obscuredInsets =
            isOpen && width > 0 && height > 0
            ? EdgeInsets(top: free.minY, left: 0, bottom: Double(height) - free.maxY, right: 0) : .zero
    }

    private func cancel() {
        generation += 1
        cookie?.cancel()
        cookie = nil
    }

    private func edit(_ change: (inout String) -> Void) {
        change(&query)
        restart()
    }

    /// Starts searching the document for `query`, from the reader's page on.
    private func restart() {
        cancel()
        results = SearchResults()
        pagesSearched = 0
        guard let reader = current.reader, let search = SearchQuery(query) else {
            goBack()
            return
        }
        let cookie = RenderCookie()
        self.cookie = cookie
        let document = reader.document, generation = generation
        pageCount = reader.view.pages.count
        let start = reader.view.dominantPage()
        let order = Array(start..<pageCount) + Array(0..<start)
        // Sendable: TileScheduler.isBusy only reads state under the scheduler's own lock.
        struct Renders: @unchecked Sendable { let scheduler: TileScheduler }
        let renders = Renders(scheduler: reader.scheduler)
        for first in stride(from: 0, to: order.count, by: Self.chunk) {
            let pages = Array(order[first..<min(order.count, first + Self.chunk)])
            worker.submit {
                var batch = Batch(generation: generation, pages: 0, hits: [])
                for page in pages {
                    if cookie.isCancelled { return batch }
                    // The page on screen before the search: wait (200 ms at most) while tiles
                    // render, looking at the search's cookie every 20 ms.
                    var slices = 0
                    while !cookie.isCancelled, slices < 10, !renders.scheduler.waitUntilIdle(timeout: 0.02) {
                        slices += 1
                    }
                    if case let hits = document.find(search, page: page), !hits.isEmpty {
                        batch.hits.append((page, hits))
                    }
                    batch.pages += 1
                }
                return batch
            } then: { [unowned self] in
                received($0)
            }
        }
        logger.debug("searching \(pageCount) pages for \(query.count) characters")
    }

    private func received(_ batch: Batch) {
        guard batch.generation == generation else { return }
        pagesSearched += batch.pages
        for (page, hits) in batch.hits { results.add(page: page, hits: hits) }
        if results.current == nil, let reader = current.reader,
            let first = results.first(atOrAfter: reader.view.dominantPage())
        {
            show(first, reader: reader)
        }
        if pagesSearched >= pageCount {
            logger.debug("search done: \(results.count) hits on \(results.pages.count) pages")
            onSay?(Self.spokenSummary(count: results.count, pages: results.pages.count))
            if results.count == 0 { goBack() }
        }
        frame.request()
    }

    /// Makes `position` the current hit and brings it on screen: its page, then, where the page
    /// is taller than the screen or zoomed in, the hit itself, clear of the bar and keyboard.
    private func show(_ position: SearchResults.Position, reader: Reader) {
        results.select(position)
        reader.view.stopAnimations()
        let before = reader.view.viewState()
        defer {
            let shown = reader.view.viewState()
            // The first hit that moves the view remembers where the visitor was.
            if let origin, origin.shown == before {
                self.origin = (origin.before, shown)
            } else if shown != before {
                origin = (before, shown)
            }
        }
        let spreads = reader.view.spreads
        if spreads.spreadIndex(forPage: position.page) != spreads.spreadIndex(forPage: reader.view.dominantPage()) {
            try? reader.view.goToPage(position.page)
        }
        followCover()
        reveal(position, reader: reader)
    }

    /// Scrolls the hit at `position` (on its page, already shown) clear of the bar and keyboard.
    private func reveal(_ position: SearchResults.Position, reader: Reader) {
        guard let hit = results.hitsByPage[position.page]?[position.index], let first = hit.rects.first else { return }
        reader.view.reveal(
            hit.rects.dropFirst().reduce(first) { $0.union($1) }, onPage: position.page, within: uncovered)
    }

    /// The part of the screen neither the search bar nor the keyboard (or the thumbnail bar and
    /// the chrome) covers.
    private var uncovered: Rect {
        let (width, height) = size
        let bar = Scene.SearchBar.box(width: width, height: height, metrics: screen.metrics)
        let top = Double(bar.y + bar.height)
        let bottom = isEditing ? keyboardPart.layout.frame.minY : Double(height - coveredBottom(width, height))
        return Rect(x: 0, y: top, width: Double(width), height: max(0, bottom - top))
    }

    /// No hit (any more): the view goes back to where the search found the visitor, if it is
    /// still where the last hit left it.
    private func goBack() {
        guard let reader = current.reader, let origin else { return }
        self.origin = nil
        guard reader.view.viewState() == origin.shown else { return }
        reader.view.stopAnimations()
        try? reader.view.restore(origin.before)
        frame.request()
    }

    func next(reader: Reader) {
        results.next().map { show($0, reader: reader) }
        sayCurrent(reader: reader)
    }

    func previous(reader: Reader) {
        results.previous().map { show($0, reader: reader) }
        sayCurrent(reader: reader)
    }

    /// "Match 3 of 17, page 12." for speech.
    private func sayCurrent(reader: Reader) {
        guard let ordinal = results.currentOrdinal, let page = results.current?.page else { return }
        let label = reader.document.label(forPage: page) ?? "\(page + 1)"
        onSay?(tr("Match %s of %s, page %s.", ordinal + 1, results.count, Translation.language.label(label)))
    }

    /// What speech says when the search is done: "17 matches on 5 pages.", "No matches."
    static func spokenSummary(count: Int, pages: Int) -> String {
        switch (count, pages) {
        case (0, _): tr("No matches.")
        case (1, _): tr("One match.")
        case (_, 1): trn("%s match on one page.", "%s matches on one page.", count: count)
        default: trn("%s match on %s pages.", "%s matches on %s pages.", count: count, pages)
        }
    }
}

extension Search {
    // MARK: What it shows

    private var size: (width: Int, height: Int) { (screen.width, screen.height) }

    /// "3 of 17", "Searching… 45%", "No matches".
    var statusText: String {
        guard SearchQuery(query) != nil else { return "" }
        let searching = pagesSearched < pageCount
        let percent = pageCount > 0 ? pagesSearched * 100 / pageCount : 0
        let ordinal = (results.currentOrdinal ?? 0) + 1
        guard results.count > 0 else { return searching ? tr("Searching… · %s%%", percent) : tr("No matches") }
        return searching
            ? tr("%s of %s · %s%%", ordinal, results.count, percent) : tr("%s of %s", ordinal, results.count)
    }

    var bar: Scene.SearchBar? {
        isOpen ? Scene.SearchBar(query: query, status: statusText, isEditing: showsKeyboard) : nil
    }

    var keyboard: Scene.Keyboard? { isEditing ? keyboardPart.scene : nil }

    func status(for reader: Reader) -> SearchStatus? {
        guard isOpen else { return nil }
        return SearchStatus(
            query: query, hitCount: results.count, currentHit: results.currentOrdinal,
            currentPage: results.current?.page, pagesSearched: pagesSearched, pageCount: pageCount,
            isSearching: SearchQuery(query) != nil && pagesSearched < pageCount, isKeyboardShown: isEditing)
    }

    /// The hits on the pages the plan shows, in buffer pixels.
    func highlights(in plan: TilePlanner.Plan, reader: Reader) -> [Scene.Highlight] {
        guard isOpen else { return [] }
        return plan.pages.flatMap { item -> [Scene.Highlight] in
            guard let hits = results.hitsByPage[item.page] else { return [] }
            let toView = reader.pageToPixels(item)
            let clip = item.frame.intersection(item.clip)
            return hits.enumerated().flatMap { index, hit in
                let isCurrent = results.current == .init(page: item.page, index: index)
                return hit.rects.map { rect in
                    Scene.Highlight(
                        box: PixelBox(enclosing: toView.apply(to: rect)).insetBy(dx: -2, dy: -1), clip: clip,
                        isCurrent: isCurrent)
                }
            }
        }
    }

    // MARK: Input

    /// Keys while the search is open: characters edit the query, Enter goes to the next hit,
    /// Escape hides the keyboard, then closes the search.
    func handle(_ key: Key, reader: Reader) -> Bool {
        guard isOpen else { return false }
        switch key {
        case .escape:
            if showsKeyboard { hideKeyboard() } else { close() }
        case .enter:
            next(reader: reader)
        case .backspace:
            edit { if !$0.isEmpty { $0.removeLast() } }
        default:
            guard let character = key.character else { return false }
            edit { $0.append(character) }
        }
        return true
    }

    /// The part of the search under `point`: the keyboard, or the bar's buttons and field.
    func part(at point: Point) -> (any NavigationPart)? {
        guard isOpen else { return nil }
        if isEditing, keyboardPart.layout.frame.contains(point) { return keyboardPart }
        guard Scene.SearchBar.box(width: size.width, height: size.height, metrics: screen.metrics).contains(point)
        else { return nil }
        return TapTarget { [unowned self] start, reader in tapBar(at: start, reader: reader) }
    }

    private func tapBar(at point: Point, reader: Reader) {
        let (width, height) = size
        if Scene.SearchBar.closeButton(width: width, height: height, metrics: screen.metrics).contains(point) {
            close()
        } else if Scene.SearchBar.field(width: width, height: height, metrics: screen.metrics).contains(point) {
            showKeyboard()
        } else if Scene.SearchBar.previousButton(width: width, height: height, metrics: screen.metrics).contains(point)
        {
            previous(reader: reader)
        } else if Scene.SearchBar.nextButton(width: width, height: height, metrics: screen.metrics).contains(point) {
            next(reader: reader)
        }
    }
}
