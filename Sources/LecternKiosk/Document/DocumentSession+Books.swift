import LecternCore
import LecternDocuments
import LecternPDF
import LecternRender

/// Reflowable books (EPUB, FB2, XHTML): MuPDF lays them out in pages the screen's size, at the
/// policy's type size (`text.font-size`), in the render worker. A new screen size or type size lays
/// the book out again there, keeping the page on screen by its place in the text (MuPDF's
/// bookmarks), not its number; the page count changes, and a new reader of the same document shows
/// the new pages (its tiles and page text are of the new layout only). The old pages stay on screen
/// until then.
extension DocumentSession {
    /// The layout a book gets on this screen: pages the screen's size in points (half its width
    /// in double spreads), a surface unit taken as a CSS pixel (1/96 inch) unless the screen's
    /// millimetres are known, at the policy's type size, or at the visitor's large print
    /// (`visitorCapitalHeight`: a capital H is about 0.7 em).
    var bookLayout: BookLayout {
        let physical = screen.physical(policy.configuration)
        let unitsPerMillimetre = physical.map { screen.size.width / $0.width } ?? 96 / 25.4
        let pointsPerUnit = 72 / 25.4 / unitsPerMillimetre
        let pagesAcross = policy.spreadMode == .single ? 1.0 : 2.0
        var layout = BookLayout(
            page: (screen.size.width / pagesAcross * pointsPerUnit, screen.size.height * pointsPerUnit),
            fontSizePercent: policy.fontSizePercent)
        // The accessibility button is always drawn over the page's bottom left: no text under it.
        if policy.accessibilityButton {
            let metrics = screen.metrics
            let button = Scene.Accessibility(bottomInset: metrics.reachBottom + metrics.barHeight, metrics: metrics)
                .buttonBox(height: screen.height)
            layout.bottomMargin = (Double(screen.height - button.y) * pointsPerUnit).rounded()
        }
        if let visitorCapitalHeight = visitorCapitalHeight() {
            let em = Double(visitorCapitalHeight) / BookLayout.capitalHeightPerEm * pointsPerUnit
            layout.fontSize = max(layout.fontSize, (em * 10).rounded() / 10)
        }
        return layout
    }

    /// Whether `document` is a book not yet laid out for this screen and type size.
    func needsLayout(_ document: ShownDocument) -> Bool {
        document.isReflowable && screen.hasSize && document.layout != bookLayout
    }

    /// Lays `document` out for this screen on the worker, keeping `page` (else laying out only the
    /// chapters through page `through`: the rest when the page sizes are read), then calls `then`
    /// on the loop with the page that holds it now (`page` itself when there is nothing to lay
    /// out, or the layout failed: the book stays as it was, and the log says why).
    func layOut(
        _ document: ShownDocument, keeping page: Int, through: Int? = nil, then: @escaping (Int) -> Void
    ) {
        guard needsLayout(document) else { return then(page) }
        let layout = bookLayout
        let start = loop.clock.now
        worker.submit {
            document.layOut(layout, keeping: page, through: through)
        } then: { [unowned self] result in
            switch result {
            case .success(let book):
                let milliseconds = Int(((loop.clock.now - start) * 1000).rounded())
                let kept = page < 0 ? "" : "; page \(page + 1) is now \(book.page + 1)"
                logger.info(
                    "laid \(document.path) out at \(layout): \(book.pageCount) pages in \(milliseconds) ms\(kept)")
                then(book.page)
            case .failure(let error):
                logger.error("\(error)")
                then(page)
            }
        }
    }

    /// The screen or the type size changed: the book shown is laid out again, and a new reader of
    /// it shows the page that holds what the old one showed. One layout at a time; a change
    /// meanwhile lays it out again when it ends.
    func layOutShownBookIfNeeded() {
        guard !isLayingOutBook, let old = reader, needsLayout(old.document) else { return }
        isLayingOutBook = true
        layOut(old.document, keeping: old.view.dominantPage()) { [unowned self] page in
            isLayingOutBook = false
            guard old === reader else { return }  // another document, or a new version, came meanwhile
            if let new = relaidOut(old, showing: page) { install(new) }
            frame.request()
            layOutShownBookIfNeeded()
        }
    }

    /// A reader of `old`'s document as it is laid out now, on `page`, in place of `old`, whose
    /// render threads stop (its document stays open: the new reader shows it); nil when the
    /// threads cannot start (logged).
    func relaidOut(_ old: Reader, showing page: Int) -> Reader? {
        do {
            let new = try Reader(
                document: old.document, firstPage: old.document.firstPageInfo(),
                configuration: old.view.configuration, viewport: screen.size, budget: policy.tileBudget)
            try? new.view.goToPage(min(page, old.document.pageCount - 1))
            old.stop(before: ContinuousClock.now + .milliseconds(500))
            return new
        } catch {
            logger.error("cannot show \(old.document.path) laid out again: \(error)")
            return nil
        }
    }
}
